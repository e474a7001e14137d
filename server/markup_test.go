package server

import (
	"regexp"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// markupEngine is an engine over notes written the Obsidian way
// (wikilinks, a highlight, a footnote, a tag), answering extractively.
func markupEngine(t *testing.T) *oraculo.Engine {
	t.Helper()
	note := "# Sesión 3 — En [[Phandalin]]\n\n[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]] llegó a [[Phandalin]] con ==la espada negra==[^1]. #combate\n\n[^1]: La espada de [[NPCs/Kleb.md]].\n"
	eng, _ := ingested(t, map[string]string{"Sesiones/Sesion 3.md": note})
	return eng
}

// noMarkup fails t when s shows raw markup of markupEngine's notes.
func noMarkup(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, bad := range []string{"[[", "((", "==", "(^", "[^", "#combate", "Gloomy"} {
		if strings.Contains(s, bad) {
			t.Errorf("%s shows %q:\n%s", what, bad, s)
		}
	}
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}

// /api/ask, the OpenAI endpoint and the passage page its citations link
// to show the notes as their reader sees them, and the passage page still
// marks the sentence the answer quoted.
func TestServerRendersMarkup(t *testing.T) {
	tokens, player, _ := testTokens(t)
	ts, _ := testServer(t, Config{Engine: markupEngine(t), Tokens: tokens})
	const q = "¿Con qué llegó Ser Morcant a Phandalin?"
	const want = "Ser Morcant llegó a Phandalin con la espada negra."

	resp, data := call(t, ts, "POST", "/api/ask", player, map[string]any{"question": q})
	wantStatus(t, resp, data, 200)
	a := decodeJSON[oraculo.Answer](t, data)
	if a.Abstained || len(a.Citations) == 0 || !a.Citations[0].Valid {
		t.Fatalf("/api/ask: want a cited answer: %s", data)
	}
	noMarkup(t, "/api/ask answer", a.Answer, want)
	for _, e := range a.Evidence {
		noMarkup(t, "/api/ask evidence", e.Text, "La espada de Kleb.")
	}

	body := map[string]any{"model": "oraculo", "messages": []map[string]any{{"role": "user", "content": q}}, "oraculo": map[string]any{"detail": true}}
	resp, data = call(t, ts, "POST", "/v1/chat/completions", player, body)
	wantStatus(t, resp, data, 200)
	c := decodeJSON[completionBody](t, data)
	if len(c.Choices) != 1 || c.Choices[0].Message == nil || len(c.Citations) == 0 {
		t.Fatalf("completion: %s", data)
	}
	content := c.Choices[0].Message.Content
	// The content's Markdown links to the passage are the surface's own.
	noMarkup(t, "the completion", regexp.MustCompile(`\]\([^)]*\)`).ReplaceAllString(content, "]"), want)
	noMarkup(t, "the completion's source", c.Citations[0].Text, want)

	// The citation's link in the content names the claim its page marks.
	m := regexp.MustCompile(`\]\((http[^)]*/c/[^)]*)\)`).FindStringSubmatch(content)
	if m == nil {
		t.Fatalf("no link to the passage in %q", content)
	}
	status, page := getPage(t, m[1])
	if status != 200 {
		t.Fatalf("the passage page: %d %.300s", status, page)
	}
	noMarkup(t, "the passage page", page, "La espada de Kleb.")
	if m := regexp.MustCompile(`<mark id="cited">([^<]*)</mark>`).FindStringSubmatch(page); m == nil || !strings.Contains(m[1], "Ser Morcant llegó a Phandalin") {
		t.Errorf("the passage page does not mark the quoted sentence:\n%s", page)
	}
}
