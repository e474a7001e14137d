package web_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oraculo/oraculo"
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

// The page links a name to its note where the reader may see the note:
// in a player's answer and in the cited passage, a wikilink whose note
// players see (Phandalin, by file name; Kleb, by path) is a link to that
// note's page, which opens it; one whose note is DM-only (Ser Morcant)
// shows exactly as one whose note does not exist (Nadie): its shown
// text, in the same markup, with nothing that names the note.
func TestPageLinksNotes(t *testing.T) {
	exe := browserPath(t)
	notes := t.TempDir()
	for name, text := range map[string]string{
		"Sesiones/Sesion 3.md": "# Sesión 3\n\nAntes de nada, el grupo descansa en la posada.\n\n" +
			"[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]] llegó a [[Phandalin]] con ==la espada negra==[^1] y [[Nadie]].\n\n" +
			"[^1]: La espada de [[NPCs/Kleb.md]].\n",
		"Lugares/Phandalin.md": "# Phandalin\n\nUna villa minera al pie de las montañas.\n",
		"NPCs/Kleb.md":         "# Kleb\n\nUn mago gnomo.\n",
		"DM/Ser Morcant the Gloomy (Chain Knight).md": "# Ser Morcant\n\nTraidor a la orden, en secreto.\n",
	} {
		p := filepath.Join(notes, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := startAppWith(t, appConfig{Notes: notes, Role: oraculo.RolePlayer})
	pg := newPage(t, exe)
	pg.do("ask",
		chromedp.Navigate(a.URL+"/?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="question-input"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="question-input"]`), "¿Con qué llegó Ser Morcant a Phandalin?"),
		chromedp.Click(chromedp.CSS(`[data-testid="ask-submit"]`)),
	)
	pg.waitFor("the answer with a citation", `document.querySelector('[data-testid="turn-answer"][data-state="done"] [data-testid="citation"]') !== null`)
	// links lists the links to notes under root: "text → href".
	links := func(what, root string) map[string]string {
		t.Helper()
		out := map[string]string{}
		js := `JSON.stringify([...document.querySelectorAll('` + root + ` a[data-testid="note-link"]')].map((a) => [a.textContent, a.href]))`
		var pairs [][2]string
		if err := json.Unmarshal([]byte(pg.eval(what, js)), &pairs); err != nil {
			t.Fatal(err)
		}
		for _, p := range pairs {
			out[p[0]] = p[1]
		}
		return out
	}
	opens := func(what, href, want string) {
		t.Helper()
		resp, err := http.Get(href)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("%s's link %s: %d %.300s", what, href, resp.StatusCode, b)
		}
	}
	answer := links("the answer's links", `[data-testid="turn-answer"] [data-testid="answer-text"]`)
	if answer["Phandalin"] == "" || answer["Ser Morcant"] != "" || answer["Nadie"] != "" {
		t.Errorf("the answer links %v, want Phandalin and not Ser Morcant nor Nadie", answer)
	} else {
		opens("the answer's Phandalin", answer["Phandalin"], "Una villa minera")
	}
	text := collapseSpace(pg.eval("the answer", sel+`('[data-testid="turn-answer"] [data-testid="answer-text"]').innerText`))
	if !strings.Contains(text, "Ser Morcant llegó a Phandalin con la espada negra") {
		t.Errorf("the answer reads %q", text)
	}

	pg.do("open the citation", chromedp.Click(chromedp.CSS(`[data-testid="citation"]`)))
	pg.waitFor("the passage", panelReadyJS)
	passage := links("the passage's links", `[data-testid="passage-text"]`)
	if len(passage) != 2 || passage["Phandalin"] == "" || passage["Kleb"] == "" {
		t.Errorf("the passage links %v, want Phandalin and Kleb", passage)
	} else {
		opens("the passage's Kleb", passage["Kleb"], "Un mago gnomo")
	}
	// A DM-only note's name and a name of no note, side by side: the same
	// markup (for a player, the server sends both as their shown text),
	// and nothing in the page names the DM-only note.
	hidden := pg.eval("the hidden name", `[...document.querySelectorAll('[data-testid="passage-text"] .md-wikilink')].filter((e) => e.textContent === "Ser Morcant").map((e) => e.outerHTML).join("")`)
	none := pg.eval("the name of no note", `[...document.querySelectorAll('[data-testid="passage-text"] .md-wikilink')].filter((e) => e.textContent === "Nadie").map((e) => e.outerHTML).join("")`)
	shown := collapseSpace(pg.eval("the passage", sel+`('[data-testid="passage-text"]').innerText`))
	if !strings.Contains(shown, "Ser Morcant llegó a Phandalin") || !strings.Contains(shown, " y Nadie.") || strings.ReplaceAll(hidden, "Ser Morcant", "·") != strings.ReplaceAll(none, "Nadie", "·") || strings.Contains(hidden, "<a") || strings.Contains(hidden, "href") {
		t.Errorf("the DM-only note's name is %q, the name of no note %q: want both plain", hidden, none)
	}
	if html := pg.eval("the page", `document.body.innerHTML`); strings.Contains(html, "Traidor") || strings.Contains(html, "DM%2F") || strings.Contains(html, "DM/Ser") {
		t.Errorf("the page names the DM-only note")
	}
}
