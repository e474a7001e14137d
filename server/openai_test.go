package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

// wantContent is the message content for rawAnswer: the verified text and
// the cited sources.
const wantContent = "Norkiel cayó en combate contra los trolls. [Sesión 1] Luego se fueron a casa. _(sin fuente)_\n\n**Fuentes:**\n1. [Sesión 1] · `Sesiones/Campaña.md`"

// conversationBody is an Open WebUI-like request: a system prompt, one
// earlier exchange (the answer with its source list), the question.
func conversationBody(stream bool) map[string]any {
	return map[string]any{
		"model":       "oraculo",
		"stream":      stream,
		"temperature": 0.2,
		"messages": []map[string]any{
			{"role": "system", "content": "You are a helpful assistant."},
			{"role": "user", "content": "¿Qué pasó en el puente de Galerna?"},
			{"role": "assistant", "content": "Lo cruzaron. [Sesión 1]\n\n**Fuentes:**\n1. [Sesión 1] · `Sesiones/Campaña.md`"},
			{"role": "user", "content": []map[string]string{{"type": "text", "text": "¿Quién cayó en combate?"}, {"type": "image_url", "text": ""}}},
		},
	}
}

type completionBody struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Index   int `json:"index"`
		Message *struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"message"`
		Delta *struct {
			Role    string  `json:"role"`
			Content *string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Citations []sourceCitation `json:"citations"`
	Oraculo   *oraculo.Answer  `json:"oraculo"`
	Usage     *usage           `json:"usage"`
}

func TestChatCompletions(t *testing.T) {
	srv, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	tokens, player, _ := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	// The reply by default: the text, the sources without their text, the
	// usage in the model's tokens (as the server reported them), no Answer.
	resp, data := call(t, ts, "POST", "/v1/chat/completions", player, conversationBody(false))
	wantStatus(t, resp, data, 200)
	c := decodeJSON[completionBody](t, data)
	if c.Oraculo != nil || len(c.Citations) != 1 || c.Citations[0].Text != "" || c.Usage == nil || c.Usage.Unit != "tokens" || c.Usage.Source != "model" ||
		c.Usage.CompletionTokens == 0 || c.Usage.TotalTokens != c.Usage.PromptTokens+c.Usage.CompletionTokens {
		t.Errorf("the default reply: %s", data)
	}
	// In detail (asked in the body or by a header): the Answer, without
	// the candidates' and the evidence's text.
	detailBody := conversationBody(false)
	detailBody["oraculo"] = map[string]any{"detail": true}
	resp, data = call(t, ts, "POST", "/v1/chat/completions", player, detailBody)
	wantStatus(t, resp, data, 200)
	c = decodeJSON[completionBody](t, data)
	if c.Oraculo == nil || len(c.Oraculo.Candidates) == 0 || len(c.Oraculo.Evidence) == 0 {
		t.Fatalf("the detailed reply has no Answer: %s", data)
	}
	for _, h := range c.Oraculo.Candidates {
		if h.Text != "" {
			t.Errorf("a candidate's text in the detailed reply: %q", h.Text)
		}
	}
	for _, ev := range c.Oraculo.Evidence {
		if ev.Text != "" {
			t.Errorf("the evidence's text in the detailed reply: %q", ev.Text)
		}
	}
	if !strings.HasPrefix(c.ID, "chatcmpl-") || c.Object != "chat.completion" || c.Model != "oraculo" || c.Created == 0 || len(c.Choices) != 1 {
		t.Fatalf("completion: %s", data)
	}
	ch := c.Choices[0]
	if ch.Message == nil || ch.Message.Role != "assistant" || ch.FinishReason == nil || *ch.FinishReason != "stop" {
		t.Fatalf("choice: %s", data)
	}
	if got := passageLink.ReplaceAllString(ch.Message.Content, "[$1]"); got != wantContent {
		t.Errorf("content:\n%s\nwant:\n%s", ch.Message.Content, wantContent)
	}
	checkPassageLinks(t, ch.Message.Content, "Norkiel", true)
	if len(c.Citations) != 1 || c.Citations[0].Label != "Sesión 1" || c.Citations[0].Index != 1 || c.Citations[0].File != "Sesiones/Campaña.md" || !strings.Contains(c.Citations[0].Text, "Norkiel") {
		// (in detail, the sources carry their text)
		t.Errorf("citations: %+v", c.Citations)
	}
	if c.Oraculo == nil || c.Oraculo.Question != "¿Quién cayó en combate?" || c.Oraculo.Mode != "generated" || len(c.Oraculo.Removed) != 1 {
		t.Errorf("oraculo: %+v", c.Oraculo)
	}
	// The model saw the earlier exchange, without its source list, and
	// not the client's system prompt.
	calls := srv.Calls()
	last := calls[len(calls)-1]
	var sawQuestion, sawAnswer bool
	for _, m := range last.Messages {
		sawQuestion = sawQuestion || (m.Role == chat.RoleUser && m.Content == "¿Qué pasó en el puente de Galerna?")
		sawAnswer = sawAnswer || (m.Role == chat.RoleAssistant && m.Content == "Lo cruzaron. [Sesión 1]")
		if strings.Contains(m.Content, "helpful assistant") {
			t.Errorf("the client's system prompt reached the model")
		}
	}
	if !sawQuestion || !sawAnswer {
		t.Errorf("the history did not reach the model: %+v", last.Messages)
	}

	// oraculo-extractive never asks the model.
	before := len(srv.Calls())
	body := conversationBody(false)
	body["model"] = ModelIDExtractive
	body["oraculo"] = map[string]any{"detail": true}
	resp, data = call(t, ts, "POST", "/v1/chat/completions", player, body)
	wantStatus(t, resp, data, 200)
	c = decodeJSON[completionBody](t, data)
	if c.Model != ModelIDExtractive || c.Oraculo == nil || c.Oraculo.Mode != "extractive" || len(srv.Calls()) != before {
		t.Errorf("extractive: model %q, mode %q, %d model calls", c.Model, c.Oraculo.Mode, len(srv.Calls())-before)
	}

	// Nothing found: an abstention, and still a citations field.
	resp, data = call(t, ts, "POST", "/v1/chat/completions", player, map[string]any{"model": ModelIDExtractive, "oraculo": map[string]any{"detail": true}, "messages": []map[string]string{{"role": "user", "content": "zzxqv wkrptl"}}})
	wantStatus(t, resp, data, 200)
	if !bytes.Contains(data, []byte(`"citations":[]`)) || !decodeJSON[completionBody](t, data).Oraculo.Abstained {
		t.Errorf("abstention: %s", data)
	}
}

// readChunks parses an OpenAI stream: its chunks, and whether it ended
// with [DONE].
func readChunks(t *testing.T, data []byte) (chunks []completionBody, errors []string, done bool) {
	t.Helper()
	for _, e := range readSSE(t, bytes.NewReader(data)) {
		switch {
		case e.Comment != "":
		case done:
			t.Fatalf("an event after [DONE]: %s", data)
		case e.Name != "":
			t.Fatalf("a named event in an OpenAI stream: %s", data)
		case e.Data == "[DONE]":
			done = true
		case strings.HasPrefix(e.Data, `{"error":`):
			var body map[string]map[string]any
			if err := json.Unmarshal([]byte(e.Data), &body); err != nil {
				t.Fatal(err)
			}
			errors = append(errors, body["error"]["message"].(string))
		default:
			chunks = append(chunks, decodeJSON[completionBody](t, []byte(e.Data)))
		}
	}
	return chunks, errors, done
}

// slowStream posts body to path, a streamed request, on a server whose
// chat model waits 100 ms before it answers rawAnswer, with heartbeats
// every 20 ms, and returns the event stream.
func slowStream(t *testing.T, path string, body any) []byte {
	t.Helper()
	defer func(d time.Duration) { heartbeat = d }(heartbeat)
	heartbeat = 20 * time.Millisecond
	srv, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	srv.Fail(chattest.Fault{Delay: 100 * time.Millisecond})
	ts, _ := testServer(t, Config{Engine: eng})
	resp, data := call(t, ts, "POST", path, "", body)
	wantStatus(t, resp, data, 200)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("Content-Type %q", ct)
	}
	return data
}

// brokenStream posts body to path, a streamed request, on a server whose
// engine is closed: the stream fails once it started. It returns the
// event stream.
func brokenStream(t *testing.T, path string, body any) []byte {
	t.Helper()
	broken := testEngine(t)
	broken.Close()
	ts, _ := testServer(t, Config{Engine: broken})
	resp, data := call(t, ts, "POST", path, "", body)
	wantStatus(t, resp, data, 200)
	return data
}

func TestChatCompletionsStream(t *testing.T) {
	data := slowStream(t, "/v1/chat/completions", conversationBody(true))
	if !strings.Contains(string(data), ": keep-alive\n\n") {
		t.Errorf("no heartbeat while waiting: %s", data)
	}
	chunks, errs, done := readChunks(t, data)
	if !done || len(errs) > 0 || len(chunks) < 4 {
		t.Fatalf("stream: done %v, errors %v, %d chunks:\n%s", done, errs, len(chunks), data)
	}
	var content strings.Builder
	for i, c := range chunks {
		if c.Object != "chat.completion.chunk" || c.ID != chunks[0].ID || c.Model != "oraculo" || len(c.Choices) != 1 || c.Choices[0].Delta == nil {
			t.Fatalf("chunk %d: %+v", i, c)
		}
		d, finish := c.Choices[0].Delta, c.Choices[0].FinishReason
		switch {
		case i == 0:
			if d.Role != "assistant" || finish != nil {
				t.Errorf("first chunk: %+v", c)
			}
		case i == len(chunks)-1:
			if finish == nil || *finish != "stop" || d.Content != nil || len(c.Citations) != 1 || c.Oraculo != nil {
				t.Errorf("last chunk: %+v", c)
			}
		default:
			if finish != nil || d.Content == nil || c.Citations != nil {
				t.Errorf("chunk %d: %+v", i, c)
			}
			content.WriteString(*d.Content)
		}
	}
	if got := passageLink.ReplaceAllString(content.String(), "[$1]"); got != wantContent {
		t.Errorf("streamed content:\n%s\nwant:\n%s", content.String(), wantContent)
	}
	checkPassageLinks(t, content.String(), "Norkiel", false)

	// A failure after the stream started: an error chunk, then [DONE].
	data = brokenStream(t, "/v1/chat/completions", conversationBody(true))
	if _, errs, done := readChunks(t, data); !done || len(errs) != 1 {
		t.Errorf("failed stream: %s", data)
	}
}

func TestModels(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	resp, data := call(t, ts, "GET", "/v1/models", "", nil)
	wantStatus(t, resp, data, 200)
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := decodeJSON[struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}](t, data)
	if list.Object != "list" || len(list.Data) != 2 || list.Data[0].ID != "oraculo" || list.Data[0].Object != "model" || list.Data[0].Created == 0 || list.Data[0].OwnedBy == "" {
		t.Errorf("models: %s", data)
	}
}

func TestConversation(t *testing.T) {
	msgs := []chatMessage{
		{Role: "system", Content: "be brief"},
		{Role: "user", Content: "uno"},
		{Role: "assistant", Content: "respuesta uno\n\n**Sources:**\n1. [X] · `x.md`"},
		{Role: "user", Content: "dos"},
		{Role: "user", Content: "tres"},
		{Role: "assistant", Content: "respuesta tres"},
		{Role: "tool", Content: "ignored"},
		{Role: "user", Content: " cuatro "},
	}
	q, turns, err := conversation(msgs)
	want := []oraculo.Turn{{Question: "uno", Answer: "respuesta uno"}, {Question: "dos"}, {Question: "tres", Answer: "respuesta tres"}}
	if err != nil || q != "cuatro" || len(turns) != len(want) {
		t.Fatalf("conversation: %q %+v %v", q, turns, err)
	}
	for i := range want {
		if !reflect.DeepEqual(turns[i], want[i]) {
			t.Errorf("turn %d: %+v, want %+v", i, turns[i], want[i])
		}
	}
}

func TestPieces(t *testing.T) {
	for _, text := range []string{"", "a", "uno dos tres", strings.Repeat("palabra ", 40), "línea\n\n- ítem [Sesión 1]\n"} {
		ps := pieces(text, 10)
		if strings.Join(ps, "") != text {
			t.Errorf("pieces(%q) = %q: do not concatenate to the text", text, ps)
		}
		for _, p := range ps[:max(0, len(ps)-1)] {
			if len(p) < 10 {
				t.Errorf("pieces(%q): short piece %q", text, p)
			}
		}
	}
}

func TestModelByID(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	for _, id := range []string{ModelID, ModelIDExtractive} {
		resp, data := call(t, ts, "GET", "/v1/models/"+id, "", nil)
		wantStatus(t, resp, data, 200)
		if m := decodeJSON[map[string]any](t, data); m["id"] != id || m["object"] != "model" {
			t.Errorf("model %s: %s", id, data)
		}
	}
	resp, data := call(t, ts, "GET", "/v1/models/gpt-4", "", nil)
	wantStatus(t, resp, data, 404)
}

// TestChatCompletionsSmallLinesAndUsage: a streamed answer, in detail or
// not, has no SSE line over 16 KiB (front ends read streams line by line
// with 64–128 KiB limits) even when the notes are long, and ends with a
// usage chunk when asked.
func TestChatCompletionsSmallLinesAndUsage(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	para := strings.Repeat("Norkiel cayó en combate en el puente de Galerna mientras la lluvia no paraba y el grupo huía hacia el norte. ", 12)
	for i := range 12 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Sesión %d\n\n", i+1)
		for range 10 {
			b.WriteString(para + "\n\n")
		}
		if err := os.WriteFile(filepath.Join(notes, fmt.Sprintf("s%02d.md", i+1)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	eng, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	ts, _ := testServer(t, Config{Engine: eng})
	for _, detail := range []bool{false, true} {
		body := conversationBody(true)
		body["model"] = ModelIDExtractive
		body["stream_options"] = map[string]any{"include_usage": true}
		body["oraculo"] = map[string]any{"detail": detail}
		resp, data := call(t, ts, "POST", "/v1/chat/completions", "", body)
		wantStatus(t, resp, data, 200)
		for _, line := range strings.Split(string(data), "\n") {
			if len(line) > 16<<10 {
				t.Fatalf("detail %v: an SSE line of %d bytes", detail, len(line))
			}
		}
		chunks, errs, done := readChunks(t, data)
		if !done || len(errs) > 0 || len(chunks) < 3 {
			t.Fatalf("detail %v: stream %s", detail, data)
		}
		last := chunks[len(chunks)-1]
		// Extractive: no model tokens, and the usage says so.
		if len(last.Choices) != 0 || last.Usage == nil || *last.Usage != (usage{Unit: "tokens", Source: "none"}) {
			t.Errorf("detail %v: the usage chunk: %+v", detail, last)
		}
		if stop := chunks[len(chunks)-2]; (stop.Oraculo != nil) != detail {
			t.Errorf("detail %v: the Answer in the last chunk: %v", detail, stop.Oraculo != nil)
		}
	}
}

// TestOpenWebUITasks: the chores a front end sends as questions are
// answered briefly, without a search or a model call.
func TestOpenWebUITasks(t *testing.T) {
	srv, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	ts, _ := testServer(t, Config{Engine: eng})
	title := "### Task:\nGenerate a concise, 3-5 word title with an emoji summarizing the chat history.\n### Guidelines:\n- Write the title in the chat's primary language.\n### Output:\nJSON format: { \"title\": \"your concise title here\" }\n### Chat History:\n<chat_history>\nUSER: ¿Qué pasó con el archiduque en la sesión 12?\nASSISTANT: Lo encerraron. [Sesión 12]\n</chat_history>"
	tags := "### Task:\nGenerate 1-3 broad tags categorizing the main themes of the chat history.\n### Output:\nJSON format: { \"tags\": [\"tag1\", \"tag2\", \"tag3\"] }\n### Chat History:\n<chat_history>\nUSER: hola\n</chat_history>"
	before := len(srv.Calls())
	for q, want := range map[string]string{title: `{"title":"Qué pasó con el archiduque"}`, tags: `{"tags":[]}`} {
		for _, stream := range []bool{false, true} {
			body := map[string]any{"model": "oraculo", "stream": stream, "messages": []map[string]string{{"role": "user", "content": q}}}
			resp, data := call(t, ts, "POST", "/v1/chat/completions", "", body)
			wantStatus(t, resp, data, 200)
			var got string
			if stream {
				chunks, _, _ := readChunks(t, data)
				for _, c := range chunks {
					if len(c.Choices) == 1 && c.Choices[0].Delta != nil && c.Choices[0].Delta.Content != nil {
						got += *c.Choices[0].Delta.Content
					}
				}
			} else {
				got = decodeJSON[completionBody](t, data).Choices[0].Message.Content
			}
			if got != want {
				t.Errorf("stream %v: task reply %q, want %q", stream, got, want)
			}
		}
	}
	if n := len(srv.Calls()) - before; n != 0 {
		t.Errorf("the tasks called the model %d times", n)
	}
}

// linkURL finds the URLs of the citation links in a reply's text.
var linkURL = regexp.MustCompile(`\]\((https?://[^)\s]+)\)`)

// checkPassageLinks opens every citation link of content without a token,
// as a browser or a link preview does: each is a page holding the
// passage's text (want), and a link made for an answer's sentence marks
// one; on a server with tokens, a link whose key was altered opens
// nothing (without tokens every local request is the local user's).
func checkPassageLinks(t *testing.T, content, want string, tokens bool) {
	t.Helper()
	links := linkURL.FindAllStringSubmatch(content, -1)
	if len(links) < 2 {
		t.Fatalf("no citation links in %q", content)
	}
	get := func(u string) (int, string) { t.Helper(); return getPage(t, u) }
	for _, m := range links {
		u := m[1]
		status, page := get(u)
		if status != 200 || !strings.Contains(page, want) || !strings.Contains(page, "<html") {
			t.Fatalf("link %s: %d %.300s", u, status, page)
		}
		if strings.Contains(u, "q=") && !strings.Contains(page, `<mark id="cited">`) {
			t.Errorf("link %s: no sentence marked", u)
		}
		bad := strings.Replace(u, "k=", "k=x", 1)
		if status, _ := get(bad); tokens && status != 401 {
			t.Errorf("an altered link opened: %d", status)
		}
	}
}

// TestChatCompletionsStreamVerifiesAsItGoes: a streamed completion sends
// each sentence once its citations are checked, while the model is still
// writing, and never a citation that verification removes.
func TestChatCompletionsStreamVerifiesAsItGoes(t *testing.T) {
	const reply = "El puente ardió [Sesión 99]. Norkiel cayó en combate contra los trolls [Sesión 1]. Cruzaron el puente de Galerna. [Sesión 1] Y volvieron."
	srv, model := fakeChat(t, func(chattest.Call) string { return reply })
	srv.Cut(func(text string) []string {
		if text != reply {
			return chattest.Pieces(text)
		}
		return []string{"El puente ardió [Sesión 99]. ", "Norkiel cayó en combate ", "contra los trolls [Sesión 1]. ", "Cruzaron el puente de Galerna. ", "[Sesión 1] ", "Y volvieron."}
	})
	eng := testEngine(t, model)
	ts, _ := testServer(t, Config{Engine: eng})

	// The model writes four pieces, then stalls: what was settled and
	// verified by then must already have reached the client.
	srv.Fail(chattest.Fault{Stall: true, After: 4})
	body, err := json.Marshal(conversationBody(true))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// The sentence whose citation was invented comes marked.
	const first = "El puente ardió. _(sin fuente)_ Norkiel cayó en combate contra los trolls [Sesión 1]."
	var got strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && passageLink.ReplaceAllString(got.String(), "[$1]") != first {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		c := decodeJSON[completionBody](t, []byte(data))
		if len(c.Choices) == 1 && c.Choices[0].Delta != nil && c.Choices[0].Delta.Content != nil {
			got.WriteString(*c.Choices[0].Delta.Content)
		}
	}
	if text := passageLink.ReplaceAllString(got.String(), "[$1]"); text != first {
		t.Fatalf("while the model stalls, the stream sent %q, want %q (err %v)", text, first, sc.Err())
	}
	cancel()

	// Whole, the stream sends the verified text once: the settled
	// sentences, then the rest and the sources.
	srv.Fail(chattest.Fault{})
	resp2, data := call(t, ts, "POST", "/v1/chat/completions", "", conversationBody(true))
	wantStatus(t, resp2, data, 200)
	chunks, errs, done := readChunks(t, data)
	if !done || len(errs) > 0 {
		t.Fatalf("stream: %s", data)
	}
	var content strings.Builder
	for _, c := range chunks {
		if len(c.Choices) == 1 && c.Choices[0].Delta != nil && c.Choices[0].Delta.Content != nil {
			content.WriteString(*c.Choices[0].Delta.Content)
		}
	}
	want := "El puente ardió. _(sin fuente)_ Norkiel cayó en combate contra los trolls [Sesión 1]. Cruzaron el puente de Galerna. [Sesión 1] Y volvieron.\n\n**Fuentes:**\n1. [Sesión 1] · `Sesiones/Campaña.md`"
	if text := passageLink.ReplaceAllString(content.String(), "[$1]"); text != want {
		t.Errorf("streamed content:\n%s\nwant:\n%s", text, want)
	}
	if strings.Contains(content.String(), "Sesión 99") {
		t.Errorf("a removed citation was streamed: %s", content.String())
	}
	checkPassageLinks(t, content.String(), "Norkiel", false)

	// The model's connection drops after the first sentence was sent: the
	// answer is extracted from the notes, and follows what was sent.
	srv.Fail(chattest.Fault{Drop: true, After: 4})
	resp3, data := call(t, ts, "POST", "/v1/chat/completions", "", conversationBody(true))
	wantStatus(t, resp3, data, 200)
	chunks, errs, done = readChunks(t, data)
	if !done || len(errs) > 0 {
		t.Fatalf("stream: %s", data)
	}
	content.Reset()
	for _, c := range chunks {
		if len(c.Choices) == 1 && c.Choices[0].Delta != nil && c.Choices[0].Delta.Content != nil {
			content.WriteString(*c.Choices[0].Delta.Content)
		}
	}
	text := passageLink.ReplaceAllString(content.String(), "[$1]")
	if !strings.HasPrefix(text, first+"\n\n") || !strings.Contains(text[len(first):], "Norkiel") || !strings.Contains(text, "**Fuentes:**") || strings.Contains(text, "Sesión 99") {
		t.Errorf("after a drop, streamed content:\n%s", text)
	}
}
