package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/oraculo/oraculo"
)

// recapJSON is what GET /api/recap says, as the page reads it.
type recapJSON struct {
	Session int    `json:"session"`
	Date    string `json:"date"`
	Events  []struct {
		Text  string `json:"text"`
		ID    string `json:"id"`
		Label string `json:"label"`
	} `json:"events"`
	Open []struct {
		ID string `json:"id"`
	} `json:"open"`
}

// The empty state offers the recap of the last session: the panel shows
// the session the API names, its events in order each with its citation,
// and what was left open; a citation opens its passage and goes back;
// Escape closes; at a phone's width, a bottom sheet.
func TestRecapFromEmptyState(t *testing.T) {
	exe := browserPath(t)
	a := startAppWith(t, appConfig{})
	base := a.URL
	var want recapJSON
	getJSON(t, base, "/api/recap", &want)
	if len(want.Events) < 2 {
		t.Fatalf("the sample's last session recaps %d events: the test wants several", len(want.Events))
	}
	p := newPage(t, exe)
	p.do("load the page",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"/?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="recap-button"]`)),
	)
	if got := p.eval("the offer", sel+`('[data-testid="recap-button"]').textContent`); got != "Resumen de la última sesión" {
		t.Errorf("the empty state offers %q", got)
	}
	p.do("open the recap", chromedp.Click(chromedp.CSS(`[data-testid="recap-button"]`)))
	p.waitFor("the recap", recapReadyJS)
	label := fmt.Sprintf("Sesión %d", want.Session)
	if want.Date != "" {
		label += " · " + want.Date
	}
	if got := p.eval("the panel's titles", sel+`('[data-testid="passage-eyebrow"]').textContent + " | " + `+sel+`('[data-testid="passage-label"]').textContent + " | " + document.activeElement.dataset.testid`); got != "Resumen | "+label+" | passage-label" {
		t.Errorf("the panel says %q, want the recap of %s, focused", got, label)
	}
	events := p.eval("the events", `JSON.stringify([...document.querySelectorAll('[data-testid="recap-events"] ol > [data-testid="recap-event"]')].map((li) => li.querySelector('[data-testid="citation"]')?.dataset.evidence || ""))`)
	var ids []string
	for _, e := range want.Events {
		ids = append(ids, e.ID)
	}
	wantIDs, _ := json.Marshal(ids)
	if events != string(wantIDs) {
		t.Errorf("the recap's events cite %s, want %s (in order, each cited)", events, wantIDs)
	}
	if got := p.eval("left open", sel+`('[data-testid="recap-open"] h3').textContent + " " + document.querySelectorAll('[data-testid="recap-open-item"] [data-testid="citation"]').length`); got != fmt.Sprintf("Quedó abierto %d", len(want.Open)) {
		t.Errorf("what was left open: %q, want %d cited", got, len(want.Open))
	}
	p.do("open an event's citation", chromedp.Click(chromedp.CSS(`[data-testid="recap-event"] [data-testid="citation"]`)))
	p.waitFor("the passage", panelReadyJS)
	if got := p.eval("the passage", sel+`('[data-testid="passage-panel"]').dataset.chunkId`); got != want.Events[0].ID {
		t.Errorf("the passage shown is %q, want %s", got, want.Events[0].ID)
	}
	p.do("back to the recap", chromedp.Click(chromedp.CSS(`[data-testid="panel-back"]`)))
	p.waitFor("the recap again", recapReadyJS)
	p.do("close with Escape", chromedp.KeyEvent(kb.Escape))
	p.waitFor("the panel to close", sel+`('[data-testid="passage-panel"]').hidden && document.activeElement.dataset.testid === "recap-button"`)

	p.do("a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.waitFor("the layout", `window.innerWidth === 390`)
	if got := p.eval("horizontal scroll", hScrollExpr); got != "0" {
		t.Errorf("the empty state scrolls sideways by %s px on a phone", got)
	}
	t.Logf("empty state on a phone: %s", p.saveScreenshot("empty-phone"))
	p.do("open the recap on a phone", chromedp.Click(chromedp.CSS(`[data-testid="recap-button"]`)))
	p.waitFor("the recap sheet", recapReadyJS)
	if got := p.eval("layout", `getComputedStyle(document.querySelector('[data-testid="passage-panel"]')).position + " " + document.querySelector('[data-testid="passage-panel"]').getAttribute("role") + " " + (document.documentElement.scrollWidth - window.innerWidth)`); got != "fixed dialog 0" {
		t.Errorf("on a phone the recap is %q, want a fixed dialog (bottom sheet) and no sideways scroll", got)
	}
	t.Logf("recap on a phone: %s", p.saveScreenshot("recap-phone"))
	p.do("switch to English", chromedp.Click(chromedp.CSS(`[data-testid="passage-close"]`)), chromedp.Click(chromedp.CSS(`[data-testid="lang-en"]`)))
	p.do("open it in English", chromedp.Click(chromedp.CSS(`[data-testid="recap-button"]`)))
	p.waitFor("the recap", recapReadyJS)
	if got := p.eval("in English", sel+`('[data-testid="recap-button"]').textContent + " | " + `+sel+`('[data-testid="passage-eyebrow"]').textContent + " | " + `+sel+`('[data-testid="recap-events"] h3').textContent + " | " + `+sel+`('[data-testid="recap-open"] h3').textContent`); got != "Recap of the last session | Recap | What happened | Left open" {
		t.Errorf("in English the recap says %q", got)
	}
	p.do("close with Escape", chromedp.KeyEvent(kb.Escape))
	p.do("wide again", chromedp.EmulateViewport(1280, 900))
	t.Logf("recap: %s", p.screenshot("recap-closed", 1280, false))
}

// writeNotes writes a vault of notes (path → text) in a new folder.
func writeNotes(t *testing.T, notes map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range notes {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A player's timeline and recap never show a DM-only note's session nor
// anything of it, where the DM's show it: Kleb appears in sessions 1 and
// 3 and, in a session note only the DM may see, in session 4.
func TestStoryPanelsPlayerLeak(t *testing.T) {
	exe := browserPath(t)
	const secret = "SECRETO-DM"
	notes := writeNotes(t, map[string]string{
		"NPCs/Kleb.md":         "# Kleb\n\nUn mago gnomo que vende mapas en la posada del puerto.\n",
		"Sesiones/Sesion 1.md": "# Sesión 1\n\nEl grupo conoce a Kleb en la posada del puerto. Kleb les vende un mapa del norte por diez monedas.\n",
		"Sesiones/Sesion 2.md": "# Sesión 2\n\nEl grupo cruza el río helado y acampa junto al molino abandonado.\n",
		"Sesiones/Sesion 3.md": "# Sesión 3\n\nKleb vuelve de las montañas con noticias del norte y una carta sellada para el grupo.\n",
		"Sesiones/Sesion 4.md": "---\nvisibility: dm\n---\n# Sesión 4\n\nKleb traiciona al grupo y vende el mapa a la Mano Gris en el muelle. " + secret + ".\n",
	})
	for _, tc := range []struct {
		role     string
		sessions string
		recap    string
	}{
		{oraculo.RolePlayer, "[1,3]", "Sesión 3"},
		{oraculo.RoleDM, "[1,3,4]", "Sesión 4"},
	} {
		t.Run(tc.role, func(t *testing.T) {
			a := startAppWith(t, appConfig{Notes: notes, Role: tc.role})
			p := newPage(t, exe)
			p.do("load the page",
				chromedp.EmulateViewport(1280, 900),
				chromedp.Navigate(a.URL+"/?lang=es"),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="timeline-name"]`)),
				chromedp.SendKeys(chromedp.CSS(`[data-testid="timeline-name"]`), "kleb"),
				chromedp.KeyEvent(kb.Enter),
			)
			p.waitFor("the timeline", timelineReadyJS)
			if got := p.eval("the sessions", `JSON.stringify([...document.querySelectorAll('[data-testid="timeline-entry"]')].map((li) => Number(li.dataset.session)))`); got != tc.sessions {
				t.Errorf("the %s's timeline of Kleb lists sessions %s, want %s", tc.role, got, tc.sessions)
			}
			leaked := func() bool {
				html := p.eval("the page", `document.body.innerHTML`)
				return strings.Contains(html, secret) || strings.Contains(html, "traiciona") || strings.Contains(html, "Sesión 4")
			}
			if tc.role == oraculo.RolePlayer && leaked() {
				t.Error("the player's timeline shows the DM-only session")
			}
			p.do("close", chromedp.KeyEvent(kb.Escape))
			p.do("open the recap", chromedp.Click(chromedp.CSS(`[data-testid="recap-button"]`)))
			p.waitFor("the recap", recapReadyJS)
			if got := p.eval("the recap's session", sel+`('[data-testid="passage-label"]').textContent`); got != tc.recap {
				t.Errorf("the %s's recap of the last session is of %q, want %s", tc.role, got, tc.recap)
			}
			if tc.role == oraculo.RolePlayer && leaked() {
				t.Error("the player's recap shows the DM-only session")
			}
			if tc.role == oraculo.RoleDM && !leaked() {
				t.Error("the DM's recap of session 4 does not show it: the test could not see a leak")
			}
		})
	}
}
