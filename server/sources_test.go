package server

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/chat/chattest"
)

// TestAskReplySources: POST /api/ask's "sources" are the sources its
// Markdown lists, the one list of them a page renders (the web page's
// export writes them): the passages of the valid citations, numbered in
// the order of their first citation, each once, with the page of the
// passage; never an invented citation. Streamed or not.
func TestAskReplySources(t *testing.T) {
	const raw = "En la cripta encontramos el mapa del archiduque. [Sesión 2] Norkiel cayó en combate contra los trolls. [Sesión 1] " +
		"El mapa seguía allí. [Sesión 2] Luego se fueron a casa. [Sesión 99]"
	_, model := fakeChat(t, func(chattest.Call) string { return raw })
	ts, _ := testServer(t, Config{Engine: testEngine(t, model)})
	const q = "¿Qué pasó en el puente y en la cripta?"
	check := func(how string, data []byte) {
		t.Helper()
		a := decodeJSON[askReply](t, data)
		var labels []string
		for i, s := range a.Sources {
			labels = append(labels, s.Label)
			if s.Index != i+1 || s.ID == "" || s.File != "Sesiones/Campaña.md" || !strings.Contains(s.URL, "/c/"+s.ID) {
				t.Errorf("%s: source %d is %+v, want number %d, its passage and its page", how, i, s, i+1)
			}
			if line := fmt.Sprintf("%d. [%s](%s) · `%s`", s.Index, s.Label, s.URL, s.File); !strings.Contains(a.Markdown, line) {
				t.Errorf("%s: the markdown does not list %q:\n%s", how, line, a.Markdown)
			}
		}
		if got := strings.Join(labels, "|"); got != "Sesión 2|Sesión 1" {
			t.Errorf("%s: sources %q, want Sesión 2's passage then Sesión 1's", how, got)
		}
		if n := strings.Count(a.Markdown[strings.Index(a.Markdown, "**Fuentes:**"):], "\n"); n != len(a.Sources) {
			t.Errorf("%s: the markdown lists %d sources, the reply %d:\n%s", how, n, len(a.Sources), a.Markdown)
		}
	}
	resp, data := call(t, ts, "POST", "/api/ask", "", map[string]any{"question": q})
	wantStatus(t, resp, data, 200)
	check("JSON", data)

	resp, data = call(t, ts, "POST", "/api/ask", "", map[string]any{"question": q, "stream": true})
	wantStatus(t, resp, data, 200)
	for _, e := range readSSE(t, bytes.NewReader(data)) {
		if e.Name == "answer" {
			check("stream", []byte(e.Data))
		}
	}
}
