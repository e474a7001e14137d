package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

// responsesBody is conversationBody as a Responses API request: the
// instructions, one earlier exchange (the answer with its source list, as
// output_text), the question in input_text parts.
func responsesBody(stream bool) map[string]any {
	return map[string]any{
		"model":        "oraculo",
		"stream":       stream,
		"store":        false,
		"temperature":  0.2,
		"instructions": "You are a helpful assistant.",
		"input": []map[string]any{
			{"role": "developer", "content": "Answer in one line."},
			{"role": "user", "content": "¿Qué pasó en el puente de Galerna?"},
			{"type": "message", "role": "assistant", "content": []map[string]string{{"type": "output_text", "text": "Lo cruzaron. [Sesión 1]\n\n**Fuentes:**\n1. [Sesión 1] · `Sesiones/Campaña.md`"}}},
			{"type": "message", "role": "user", "content": []map[string]string{{"type": "input_text", "text": "¿Quién cayó en combate?"}, {"type": "input_image", "image_url": "https://example.invalid/x.png"}}},
		},
	}
}

// responseBody is a response object as a client reads it.
type responseBody struct {
	ID           string  `json:"id"`
	Object       string  `json:"object"`
	CreatedAt    int64   `json:"created_at"`
	Status       string  `json:"status"`
	Model        string  `json:"model"`
	Instructions *string `json:"instructions"`
	Store        *bool   `json:"store"`
	Error        *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Output []struct {
		Type    string `json:"type"`
		ID      string `json:"id"`
		Status  string `json:"status"`
		Role    string `json:"role"`
		Content []struct {
			Type        string        `json:"type"`
			Text        string        `json:"text"`
			Annotations []urlCitation `json:"annotations"`
		} `json:"content"`
	} `json:"output"`
	Usage *struct {
		Input  int    `json:"input_tokens"`
		Output int    `json:"output_tokens"`
		Total  int    `json:"total_tokens"`
		Unit   string `json:"oraculo_unit"`
		Source string `json:"oraculo_source"`
	} `json:"usage"`
	Citations []sourceCitation `json:"citations"`
	Oraculo   *oraculo.Answer  `json:"oraculo"`
}

// text is a completed response's text; it fails the test unless the
// response holds one completed assistant message with one output_text.
func (b responseBody) text(t *testing.T) string {
	t.Helper()
	if !strings.HasPrefix(b.ID, "resp_") || b.Object != "response" || b.Status != "completed" || b.CreatedAt == 0 || b.Error != nil || len(b.Output) != 1 {
		t.Fatalf("response: %+v", b)
	}
	m := b.Output[0]
	if m.Type != "message" || !strings.HasPrefix(m.ID, "msg_") || m.Status != "completed" || m.Role != "assistant" || len(m.Content) != 1 || m.Content[0].Type != "output_text" {
		t.Fatalf("output: %+v", m)
	}
	if b.Usage == nil || (b.Usage.Output == 0) != (b.Usage.Source == "none") || b.Usage.Total != b.Usage.Input+b.Usage.Output || b.Usage.Unit != "tokens" {
		t.Errorf("usage: %+v", b.Usage)
	}
	return m.Content[0].Text
}

// checkAnnotations checks that each annotation spans a citation link in
// text, in characters, with the link's URL, and that every link has one.
func checkAnnotations(t *testing.T, text string, anns []urlCitation) {
	t.Helper()
	runes := []rune(text)
	links := passageLink.FindAllStringSubmatch(text, -1)
	if len(anns) != len(links) || len(links) < 2 {
		t.Fatalf("%d annotations for %d citation links in %q", len(anns), len(links), text)
	}
	for i, a := range anns {
		if a.Type != "url_citation" || a.StartIndex < 0 || a.EndIndex > len(runes) || a.StartIndex >= a.EndIndex {
			t.Fatalf("annotation %d: %+v", i, a)
		}
		if span := string(runes[a.StartIndex:a.EndIndex]); span != links[i][0] || a.URL != links[i][2] || !strings.HasPrefix(a.Title, links[i][1]) {
			t.Errorf("annotation %d spans %q with %q, %q; want the link %q", i, span, a.URL, a.Title, links[i][0])
		}
	}
}

func TestResponses(t *testing.T) {
	srv, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	tokens, player, _ := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	resp, data := call(t, ts, "POST", "/v1/responses", player, responsesBody(false))
	wantStatus(t, resp, data, 200)
	b := decodeJSON[responseBody](t, data)
	text := b.text(t)
	if got := passageLink.ReplaceAllString(text, "[$1]"); got != wantContent {
		t.Errorf("text:\n%s\nwant:\n%s", text, wantContent)
	}
	checkPassageLinks(t, text, "Norkiel", true)
	checkAnnotations(t, text, b.Output[0].Content[0].Annotations)
	if a := b.Output[0].Content[0].Annotations[0]; a.Title != "Sesión 1 · Sesiones/Campaña.md" {
		t.Errorf("annotation title %q", a.Title)
	}
	if b.Model != ModelID || b.Instructions == nil || *b.Instructions != "You are a helpful assistant." || b.Store == nil || *b.Store || b.Oraculo != nil ||
		len(b.Citations) != 1 || b.Citations[0].Label != "Sesión 1" || b.Citations[0].URL == "" || b.Citations[0].Text != "" {
		t.Errorf("response: %s", data)
	}
	// The model saw the earlier exchange without its source list, and
	// neither the instructions nor the developer message.
	calls := srv.Calls()
	last := calls[len(calls)-1]
	var sawAnswer bool
	for _, m := range last.Messages {
		sawAnswer = sawAnswer || (m.Role == chat.RoleAssistant && m.Content == "Lo cruzaron. [Sesión 1]")
		if strings.Contains(m.Content, "helpful assistant") || strings.Contains(m.Content, "one line") {
			t.Errorf("the client's instructions reached the model: %q", m.Content)
		}
	}
	if !sawAnswer {
		t.Errorf("the history did not reach the model: %+v", last.Messages)
	}

	// A string input, the extractive model, in detail: the model is not
	// asked, and the Answer comes.
	before := len(srv.Calls())
	resp, data = call(t, ts, "POST", "/v1/responses", player, map[string]any{"model": ModelIDExtractive, "input": "¿Quién cayó en combate?", "oraculo": map[string]any{"detail": true}})
	wantStatus(t, resp, data, 200)
	b = decodeJSON[responseBody](t, data)
	if text := b.text(t); !strings.Contains(text, "Norkiel") || b.Model != ModelIDExtractive || b.Oraculo == nil || b.Oraculo.Mode != "extractive" || len(srv.Calls()) != before || b.Instructions != nil {
		t.Errorf("extractive: %s", data)
	}
	// Nothing found: an abstention, still with a citations field.
	resp, data = call(t, ts, "POST", "/v1/responses", player, map[string]any{"model": ModelIDExtractive, "input": "zzxqv wkrptl"})
	wantStatus(t, resp, data, 200)
	if b := decodeJSON[responseBody](t, data); !bytes.Contains(data, []byte(`"citations":[]`)) || len(b.Output[0].Content[0].Annotations) != 0 {
		t.Errorf("abstention: %s", data)
	}
}

// responseEvents parses a Responses API stream, checking that every event
// is named by its type and numbered in order from 0; it returns the
// events' types, their data, and how many heartbeats came.
func responseEvents(t *testing.T, data []byte) (types []string, events []map[string]any, heartbeats int) {
	t.Helper()
	for _, e := range readSSE(t, bytes.NewReader(data)) {
		if e.Comment != "" {
			heartbeats++
			continue
		}
		ev := decodeJSON[map[string]any](t, []byte(e.Data))
		if ev["type"] != e.Name || ev["sequence_number"] != float64(len(events)) {
			t.Fatalf("event %d named %q: %s", len(events), e.Name, e.Data)
		}
		types = append(types, e.Name)
		events = append(events, ev)
	}
	return types, events, heartbeats
}

// eventOrder is the Responses API stream's shape, its types in order, a
// delta written "d" and an annotation "a": "created in_progress ... d d a
// ... completed".
func eventOrder(types []string) string {
	var out []string
	for _, typ := range types {
		switch typ {
		case "response.output_text.delta":
			typ = "d"
		case "response.output_text.annotation.added":
			typ = "a"
		}
		if n := len(out); n > 0 && (typ == "d" || typ == "a") && out[n-1] == typ+"+" {
			continue
		}
		if typ == "d" || typ == "a" {
			typ += "+"
		}
		out = append(out, strings.TrimPrefix(typ, "response."))
	}
	return strings.Join(out, " ")
}

func TestResponsesStream(t *testing.T) {
	data := slowStream(t, "/v1/responses", responsesBody(true))
	types, events, heartbeats := responseEvents(t, data)
	const want = "created in_progress output_item.added content_part.added d+ a+ output_text.done content_part.done output_item.done completed"
	if got := eventOrder(types); got != want || heartbeats == 0 {
		t.Fatalf("events %q, %d heartbeats; want %q, some:\n%s", got, heartbeats, want, data)
	}
	var deltas strings.Builder
	var anns []urlCitation
	for _, ev := range events {
		switch ev["type"] {
		case "response.output_text.delta":
			deltas.WriteString(ev["delta"].(string))
		case "response.output_text.annotation.added":
			anns = append(anns, decodeJSON[urlCitation](t, mustJSON(t, ev["annotation"])))
		}
		if id, ok := ev["item_id"]; ok && id != events[2]["item"].(map[string]any)["id"] {
			t.Errorf("an event of another item: %v", ev)
		}
	}
	done := decodeJSON[struct {
		Response responseBody `json:"response"`
	}](t, mustJSON(t, events[len(events)-1])).Response
	text := done.text(t)
	if text != deltas.String() || events[len(events)-4]["text"] != text || done.ID != events[0]["response"].(map[string]any)["id"] {
		t.Errorf("the deltas %q, the done text %q, the completed text %q", deltas.String(), events[len(events)-4]["text"], text)
	}
	if got := passageLink.ReplaceAllString(text, "[$1]"); got != wantContent {
		t.Errorf("streamed text:\n%s\nwant:\n%s", text, wantContent)
	}
	checkAnnotations(t, text, anns)
	checkPassageLinks(t, text, "Norkiel", false)
	if first := events[0]["response"].(map[string]any); first["status"] != "in_progress" || first["usage"] != nil || len(first["output"].([]any)) != 0 {
		t.Errorf("response.created: %v", first)
	}
	if len(done.Citations) != 1 {
		t.Errorf("completed citations: %+v", done.Citations)
	}

	// A failure after the stream started: a failed response ends it.
	types, events, _ = responseEvents(t, brokenStream(t, "/v1/responses", responsesBody(true)))
	failed := decodeJSON[struct {
		Response responseBody `json:"response"`
	}](t, mustJSON(t, events[len(events)-1])).Response
	if eventOrder(types) != "created in_progress output_item.added content_part.added failed" || failed.Status != "failed" || failed.Error == nil || failed.Error.Message == "" {
		t.Errorf("failed stream: %s", data)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResponsesRefusals: what Oráculo cannot do is refused in OpenAI's
// error shape, naming the parameter, on both endpoints where it applies.
func TestResponsesRefusals(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	for _, c := range refusals() {
		for _, stream := range []bool{false, true} {
			c.body["stream"] = stream
			resp, data := call(t, ts, "POST", c.path, "", c.body)
			wantStatus(t, resp, data, c.status)
			e := decodeJSON[struct {
				Error struct {
					Message, Type, Param, Code string
				}
			}](t, data).Error
			if e.Type != "invalid_request_error" || e.Param != c.param || e.Code != c.code || e.Message == "" {
				t.Errorf("%s %v: %s; want param %q, code %q", c.path, c.body, data, c.param, c.code)
			}
		}
	}
	resp, data := call(t, ts, "GET", "/v1/models/gpt-4o", "", nil)
	wantStatus(t, resp, data, 404)
	if !bytes.Contains(data, []byte(`"code":"model_not_found"`)) {
		t.Errorf("GET /v1/models/gpt-4o: %s", data)
	}
	// What is accepted: no model (the default one), tool_choice "none",
	// store true, no tools.
	for _, path := range []string{"/v1/chat/completions", "/v1/responses"} {
		body := chatBody(map[string]any{"model": "", "tool_choice": "none", "tools": []any{}})
		if path == "/v1/responses" {
			body = respBody(map[string]any{"model": nil, "tool_choice": "none", "store": true})
		}
		resp, data := call(t, ts, "POST", path, "", body)
		wantStatus(t, resp, data, 200)
		if !bytes.Contains(data, []byte(`"model":"oraculo"`)) {
			t.Errorf("%s without a model: %s", path, data)
		}
	}
	resp, data = call(t, ts, "POST", "/v1/responses", "", "not json", "Content-Type", "text/plain")
	wantStatus(t, resp, data, 415)
}

// chatBody is an extractive chat completion request, with extra fields.
func chatBody(extra map[string]any) map[string]any {
	b := map[string]any{"model": ModelIDExtractive, "messages": []map[string]string{{"role": "user", "content": "¿Quién cayó en combate?"}}}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// respBody is an extractive Responses API request, with extra fields.
func respBody(extra map[string]any) map[string]any {
	b := map[string]any{"model": ModelIDExtractive, "input": "¿Quién cayó en combate?"}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// refusal is a request that is refused, and how.
type refusal struct {
	path   string
	body   map[string]any
	status int
	param  string
	code   string
}

// refusals are the requests the OpenAI endpoints refuse.
func refusals() []refusal {
	tools := []map[string]any{{"type": "function", "name": "weather", "parameters": map[string]any{}}}
	return []refusal{
		{"/v1/chat/completions", chatBody(map[string]any{"model": "gpt-4o"}), 404, "model", "model_not_found"},
		{"/v1/responses", respBody(map[string]any{"model": "gpt-4o"}), 404, "model", "model_not_found"},
		{"/v1/chat/completions", chatBody(map[string]any{"tools": tools}), 400, "tools", "unsupported_parameter"},
		{"/v1/responses", respBody(map[string]any{"tools": tools}), 400, "tools", "unsupported_parameter"},
		{"/v1/chat/completions", chatBody(map[string]any{"tool_choice": "required"}), 400, "tool_choice", "unsupported_parameter"},
		{"/v1/responses", respBody(map[string]any{"tool_choice": map[string]string{"type": "function", "name": "x"}}), 400, "tool_choice", "unsupported_parameter"},
		{"/v1/responses", respBody(map[string]any{"previous_response_id": "resp_1"}), 404, "previous_response_id", "previous_response_not_found"},
		{"/v1/responses", respBody(map[string]any{"input": nil}), 400, "input", "invalid_value"},
		{"/v1/responses", respBody(map[string]any{"input": 7}), 400, "input", "invalid_value"},
		{"/v1/responses", respBody(map[string]any{"input": []any{}}), 400, "input", "invalid_value"},
		{"/v1/responses", respBody(map[string]any{"input": "  "}), 400, "input", "invalid_value"},
		{"/v1/responses", respBody(map[string]any{"input": []map[string]any{{"type": "item_reference", "id": "msg_1"}, {"role": "user", "content": "¿y?"}}}), 400, "input", "invalid_value"},
		{"/v1/responses", respBody(map[string]any{"input": []map[string]any{{"type": "function_call_output", "call_id": "c", "output": "x"}}}), 400, "input", "invalid_value"},
		{"/v1/responses", respBody(map[string]any{"input": []map[string]any{{"role": "tool", "content": "x"}}}), 400, "input", "invalid_value"},
		{"/v1/responses", respBody(map[string]any{"input": []map[string]any{{"role": "user", "content": 3}}}), 400, "input", "invalid_value"},
		{"/v1/responses", respBody(map[string]any{"input": []map[string]any{{"role": "user", "content": "hola"}, {"role": "assistant", "content": "hola"}}}), 400, "input", "invalid_value"},
	}
}

// TestResponsesRoles: through /v1/responses, whole or streamed, a player
// never gets a DM-only note, its text or its citation; the DM does (the
// check can fail); without a token, 401.
func TestResponsesRoles(t *testing.T) {
	eng := testEngine(t)
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	const q = "¿Quién es en realidad el archiduque?"
	for _, stream := range []bool{false, true} {
		body := map[string]any{"model": ModelIDExtractive, "input": q, "stream": stream, "oraculo": map[string]any{"detail": true}}
		resp, data := call(t, ts, "POST", "/v1/responses", player, body)
		wantStatus(t, resp, data, 200)
		data = stripQuestion(data, q)
		for _, secret := range []string{"Vermitrax", "Secretos", secretFile, "dragón"} {
			if bytes.Contains(data, []byte(secret)) {
				t.Errorf("stream %v: a player's response holds %q: %s", stream, secret, data)
			}
		}
		resp, data = call(t, ts, "POST", "/v1/responses", dm, body)
		wantStatus(t, resp, data, 200)
		if !bytes.Contains(data, []byte("Vermitrax")) || !bytes.Contains(data, []byte(secretFile)) {
			t.Errorf("stream %v: the DM's response lacks the secret: %s", stream, data)
		}
		resp, data = call(t, ts, "POST", "/v1/responses", "", body)
		wantStatus(t, resp, data, 401)
	}
}

// TestAnnotationsCountCharacters: an annotation's span counts characters,
// not bytes, before and inside the link.
func TestAnnotationsCountCharacters(t *testing.T) {
	text := "¿Ñu? Él cayó. [Sesión 1](http://h/c/abc?k=ñ) y 🐉 [Sesión 2](http://h/c/def)"
	anns := annotations(text, []sourceCitation{{Label: "Sesión 2", File: "b.md"}})
	runes := []rune(text)
	if len(anns) != 2 || string(runes[anns[0].StartIndex:anns[0].EndIndex]) != "[Sesión 1](http://h/c/abc?k=ñ)" ||
		string(runes[anns[1].StartIndex:anns[1].EndIndex]) != "[Sesión 2](http://h/c/def)" || anns[1].EndIndex != utf8.RuneCountInString(text) ||
		anns[0].Title != "Sesión 1" || anns[1].Title != "Sesión 2 · b.md" || anns[1].URL != "http://h/c/def" {
		t.Errorf("annotations: %+v", anns)
	}
}

// TestResponsesMemory: a response is kept for its caller, who may go on
// with it by previous_response_id or refer to its answer by
// item_reference (the model then sees the earlier exchange); another
// caller, a DM included, finds neither; store false keeps nothing.
func TestResponsesMemory(t *testing.T) {
	srv, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	const first = "¿Qué pasó en el puente de Galerna?"
	resp, data := call(t, ts, "POST", "/v1/responses", player, map[string]any{"model": "oraculo", "input": first})
	wantStatus(t, resp, data, 200)
	b := decodeJSON[responseBody](t, data)
	answer := b.text(t)
	if b.Store == nil || !*b.Store {
		t.Errorf("a response kept by default says store %v", b.Store)
	}
	sawEarlier := func(what string) { t.Helper(); checkSawExchange(t, srv, what, first, stripSources(answer)) }
	byPrevious := map[string]any{"model": "oraculo", "input": "¿Quién cayó en combate?", "previous_response_id": b.ID}
	byReference := map[string]any{"model": "oraculo", "input": []map[string]any{
		{"role": "user", "content": first}, {"type": "item_reference", "id": b.Output[0].ID}, {"role": "user", "content": "¿Quién cayó en combate?"}}}
	for name, body := range map[string]map[string]any{"previous_response_id": byPrevious, "item_reference": byReference} {
		resp, data = call(t, ts, "POST", "/v1/responses", player, body)
		wantStatus(t, resp, data, 200)
		if next := decodeJSON[responseBody](t, data); !strings.Contains(next.text(t), "Norkiel") {
			t.Errorf("%s: %s", name, data)
		}
		sawEarlier(name)
		// Another caller finds nothing, not even the DM.
		for _, other := range []string{dm, ""} {
			resp, data = call(t, ts, "POST", "/v1/responses", other, body)
			if other == "" {
				wantStatus(t, resp, data, 401)
				continue
			}
			if resp.StatusCode != 404 && resp.StatusCode != 400 || bytes.Contains(data, []byte("Norkiel")) {
				t.Errorf("%s: another caller got %d: %s", name, resp.StatusCode, data)
			}
		}
	}
	// The previous response's id chains: a third turn sees the first.
	resp, data = call(t, ts, "POST", "/v1/responses", player, byPrevious)
	wantStatus(t, resp, data, 200)
	second := decodeJSON[responseBody](t, data)
	resp, data = call(t, ts, "POST", "/v1/responses", player, map[string]any{"model": "oraculo", "input": "¿y después?", "previous_response_id": second.ID})
	wantStatus(t, resp, data, 200)
	sawEarlier("a third turn")
	// store false: nothing kept.
	resp, data = call(t, ts, "POST", "/v1/responses", player, map[string]any{"model": "oraculo", "input": first, "store": false})
	wantStatus(t, resp, data, 200)
	unkept := decodeJSON[responseBody](t, data)
	resp, data = call(t, ts, "POST", "/v1/responses", player, map[string]any{"model": "oraculo", "input": "¿y?", "previous_response_id": unkept.ID})
	wantStatus(t, resp, data, 404)
	if unkept.Store == nil || *unkept.Store {
		t.Errorf("store false: the response says store %v", unkept.Store)
	}
}

// checkSawExchange checks that the model's last call had the exchange
// (question, answer) in its history.
func checkSawExchange(t *testing.T, srv *chattest.Server, what, question, answer string) {
	t.Helper()
	calls := srv.Calls()
	var q, a bool
	for _, m := range calls[len(calls)-1].Messages {
		q = q || (m.Role == chat.RoleUser && m.Content == question)
		a = a || (m.Role == chat.RoleAssistant && m.Content == answer)
	}
	if !q || !a {
		t.Errorf("%s: the model did not see the earlier exchange: %+v", what, calls[len(calls)-1].Messages)
	}
}

// TestResponseMemoryBounds: the memory forgets its oldest conversations
// past its size, and does not keep one too large.
func TestResponseMemoryBounds(t *testing.T) {
	var m responseMemory
	big := messageText(strings.Repeat("x", responseMemoryBytes/8))
	for i := range 9 {
		m.keep("ana", fmt.Sprintf("resp_%d", i), fmt.Sprintf("msg_%d", i), []chatMessage{{Role: "user", Content: "q"}, {Role: "system", Content: big}, {Role: "assistant", Content: big}})
	}
	if _, ok := m.conversation("ana", "resp_0"); ok {
		t.Errorf("the oldest conversation was kept past the size")
	}
	if msgs, ok := m.conversation("ana", "resp_8"); !ok || len(msgs) != 2 {
		t.Errorf("the newest conversation: %d messages, %v (the system message is not kept)", len(msgs), ok)
	}
	if a, ok := m.answer("ana", "msg_8"); !ok || a.Role != "assistant" {
		t.Errorf("the newest answer: %+v %v", a, ok)
	}
	if _, ok := m.answer("ana", "resp_8"); ok {
		t.Errorf("a response id found as a message's")
	}
	if _, ok := m.conversation("bea", "resp_8"); ok {
		t.Errorf("another caller found a conversation")
	}
	m.keep("ana", "resp_huge", "msg_huge", []chatMessage{{Role: "user", Content: messageText(strings.Repeat("x", responseMemoryBytes/2))}})
	if _, ok := m.conversation("ana", "resp_huge"); ok || m.size > responseMemoryBytes {
		t.Errorf("a conversation too large was kept (size %d)", m.size)
	}
}
