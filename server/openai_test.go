package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

// wantContent is the message content for rawAnswer: the verified text and
// the cited sources.
const wantContent = "Norkiel cayó en combate contra los trolls. [Sesión 1] Luego se fueron a casa.\n\n**Fuentes:**\n1. [Sesión 1] · `Sesiones/Campaña.md`"

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
}

func TestChatCompletions(t *testing.T) {
	srv, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	tokens, player, _ := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	resp, data := call(t, ts, "POST", "/v1/chat/completions", player, conversationBody(false))
	wantStatus(t, resp, data, 200)
	c := decodeJSON[completionBody](t, data)
	if !strings.HasPrefix(c.ID, "chatcmpl-") || c.Object != "chat.completion" || c.Model != "oraculo" || c.Created == 0 || len(c.Choices) != 1 {
		t.Fatalf("completion: %s", data)
	}
	ch := c.Choices[0]
	if ch.Message == nil || ch.Message.Role != "assistant" || ch.FinishReason == nil || *ch.FinishReason != "stop" {
		t.Fatalf("choice: %s", data)
	}
	if ch.Message.Content != wantContent {
		t.Errorf("content:\n%s\nwant:\n%s", ch.Message.Content, wantContent)
	}
	if len(c.Citations) != 1 || c.Citations[0].Label != "Sesión 1" || c.Citations[0].Index != 1 || c.Citations[0].File != "Sesiones/Campaña.md" || !strings.Contains(c.Citations[0].Text, "Norkiel") {
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
	resp, data = call(t, ts, "POST", "/v1/chat/completions", player, body)
	wantStatus(t, resp, data, 200)
	c = decodeJSON[completionBody](t, data)
	if c.Model != ModelIDExtractive || c.Oraculo.Mode != "extractive" || len(srv.Calls()) != before {
		t.Errorf("extractive: model %q, mode %q, %d model calls", c.Model, c.Oraculo.Mode, len(srv.Calls())-before)
	}

	// Nothing found: an abstention, and still a citations field.
	resp, data = call(t, ts, "POST", "/v1/chat/completions", player, map[string]any{"model": ModelIDExtractive, "messages": []map[string]string{{"role": "user", "content": "zzxqv wkrptl"}}})
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

func TestChatCompletionsStream(t *testing.T) {
	defer func(d time.Duration) { heartbeat = d }(heartbeat)
	heartbeat = 20 * time.Millisecond
	srv, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	srv.Fail(chattest.Fault{Delay: 100 * time.Millisecond})
	ts, _ := testServer(t, Config{Engine: eng})
	resp, data := call(t, ts, "POST", "/v1/chat/completions", "", conversationBody(true))
	wantStatus(t, resp, data, 200)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("Content-Type %q", ct)
	}
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
			if finish == nil || *finish != "stop" || d.Content != nil || len(c.Citations) != 1 || c.Oraculo == nil {
				t.Errorf("last chunk: %+v", c)
			}
		default:
			if finish != nil || d.Content == nil || c.Citations != nil {
				t.Errorf("chunk %d: %+v", i, c)
			}
			content.WriteString(*d.Content)
		}
	}
	if content.String() != wantContent {
		t.Errorf("streamed content:\n%s\nwant:\n%s", content.String(), wantContent)
	}

	// A failure after the stream started: an error chunk, then [DONE].
	broken := testEngine(t)
	broken.Close()
	ts, _ = testServer(t, Config{Engine: broken})
	resp, data = call(t, ts, "POST", "/v1/chat/completions", "", conversationBody(true))
	wantStatus(t, resp, data, 200)
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
		if turns[i] != want[i] {
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
