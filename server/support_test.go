package server

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat/chattest"
)

// inventedOnly is a model's answer whose only citation names nothing
// delivered.
const inventedOnly = "Además, el dragón huyó al norte [Sesión 99]."

// An answer whose only citation is invented abstains on every surface of
// the server: /api/ask whole and streamed, the OpenAI endpoint whole and
// streamed; the invention is never sent.
func TestAnswerWithoutSupportAbstains(t *testing.T) {
	srv, model := fakeChat(t, func(chattest.Call) string { return inventedOnly })
	srv.Cut(chattest.Runes(3))
	ts, _ := testServer(t, Config{Engine: testEngine(t, model)})
	abstains := func(what string, a oraculo.Answer) {
		t.Helper()
		if a.Mode != "generated" || !a.Abstained || a.Grounding != "none" || !strings.HasPrefix(a.Answer, "Las notas no dicen eso.") || !strings.Contains(a.Answer, "[Sesión 1]") {
			t.Errorf("%s: mode %q, abstained %v, grounding %q, answer %q: want the abstention naming the evidence", what, a.Mode, a.Abstained, a.Grounding, a.Answer)
		}
	}
	question := map[string]any{"question": "¿Quién cayó en combate?"}
	resp, data := call(t, ts, "POST", "/api/ask", "", question)
	wantStatus(t, resp, data, 200)
	abstains("/api/ask", decodeJSON[oraculo.Answer](t, data))

	question["stream"] = true
	resp, data = call(t, ts, "POST", "/api/ask", "", question)
	wantStatus(t, resp, data, 200)
	var deltas strings.Builder
	for _, e := range readSSE(t, bytes.NewReader(data)) {
		switch e.Name {
		case "delta":
			deltas.WriteString(decodeJSON[map[string]string](t, []byte(e.Data))["text"])
		case "answer":
			abstains("/api/ask streamed", decodeJSON[oraculo.Answer](t, []byte(e.Data)))
		}
	}
	if deltas.Len() > 0 {
		t.Errorf("/api/ask streamed deltas %q of an answer that abstains", deltas.String())
	}

	for _, stream := range []bool{false, true} {
		body := conversationBody(stream)
		body["oraculo"] = map[string]any{"detail": true}
		resp, data := call(t, ts, "POST", "/v1/chat/completions", "", body)
		wantStatus(t, resp, data, 200)
		if bytes.Contains(data, []byte("dragón")) {
			t.Errorf("stream %v: the invention was sent: %s", stream, data)
		}
		var content strings.Builder
		var detail *oraculo.Answer
		if !stream {
			c := decodeJSON[completionBody](t, data)
			content.WriteString(c.Choices[0].Message.Content)
			detail = c.Oraculo
		} else {
			chunks, errs, done := readChunks(t, data)
			if !done || len(errs) > 0 {
				t.Fatalf("stream: %s", data)
			}
			for _, c := range chunks {
				if d := c.Choices[0].Delta; d != nil && d.Content != nil {
					content.WriteString(*d.Content)
				}
				if c.Oraculo != nil {
					detail = c.Oraculo
				}
			}
		}
		if !strings.HasPrefix(content.String(), "Las notas no dicen eso.") {
			t.Errorf("stream %v: content %q, want the abstention", stream, content.String())
		}
		if detail == nil {
			t.Fatalf("stream %v: no Answer in detail: %s", stream, data)
		}
		abstains("/v1/chat/completions", *detail)
	}
}
