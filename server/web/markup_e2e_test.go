package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The page shows an answer from notes written the Obsidian way as their
// reader sees them: the answer and the cited passage carry no raw
// wikilink, highlight, footnote or tag, and the passage marks the
// sentence the answer quoted.
func TestPageRendersMarkup(t *testing.T) {
	exe := browserPath(t)
	notes := t.TempDir()
	p := filepath.Join(notes, "Sesiones", "Sesion 3.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	note := "# Sesión 3 — En [[Phandalin]]\n\nAntes de nada, el grupo descansa en la posada.\n\n" +
		"[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]] llegó a [[Phandalin]] con ==la espada negra==[^1]. #combate\n\n" +
		"[^1]: La espada de [[NPCs/Kleb.md]].\n"
	if err := os.WriteFile(p, []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	a := startAppWith(t, appConfig{Notes: notes})
	pg := newPage(t, exe)
	pg.do("ask",
		chromedp.Navigate(a.URL+"/?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="question-input"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="question-input"]`), "¿Con qué llegó Ser Morcant a Phandalin?"),
		chromedp.Click(chromedp.CSS(`[data-testid="ask-submit"]`)),
	)
	pg.waitFor("the answer with a citation", `document.querySelector('[data-testid="turn-answer"][data-state="done"] [data-testid="citation"]') !== null`)
	check := func(what, s string, wants ...string) {
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
	answer := collapseSpace(pg.eval("the answer", sel+`('[data-testid="turn-answer"] [data-testid="answer-text"]').innerText`))
	check("the answer", answer, "Ser Morcant llegó a Phandalin con la espada negra.")

	pg.do("open the citation", chromedp.Click(chromedp.CSS(`[data-testid="citation"]`)))
	pg.waitFor("the passage", panelReadyJS)
	passage := collapseSpace(pg.eval("the passage", sel+`('[data-testid="passage-text"]').innerText`))
	crumbs := collapseSpace(pg.eval("the heading path", sel+`('[data-testid="passage-headings"]')?.innerText || ""`))
	check("the heading path", crumbs, "En Phandalin")
	check("the passage", passage, "Ser Morcant llegó a Phandalin con la espada negra.", "La espada de Kleb.", "combate")
	if got := collapseSpace(pg.eval("the marked sentence", `[...document.querySelectorAll('[data-testid="passage-text"] mark.cited')].map((m) => m.textContent).join("")`)); !strings.Contains(got, "Ser Morcant llegó a Phandalin con la espada negra") {
		t.Errorf("the passage marks %q, not the quoted sentence", got)
	}
}
