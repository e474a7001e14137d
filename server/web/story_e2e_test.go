package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

// timelineJSON is what GET /api/timeline says, as the page reads it.
type timelineJSON struct {
	Name     string `json:"name"`
	First    *int   `json:"first_session"`
	Last     *int   `json:"last_session"`
	Sessions []struct {
		Text    string `json:"text"`
		ID      string `json:"id"`
		File    string `json:"file"`
		Label   string `json:"label"`
		Session int    `json:"session"`
	} `json:"sessions"`
	Gaps []struct {
		After, Before, Absent int
	} `json:"gaps"`
	Notes []struct {
		ID   string `json:"id"`
		File string `json:"file"`
	} `json:"notes"`
}

// getJSON decodes what base+path answers, failing the test unless 200.
func getJSON(t *testing.T, base, path string, v any) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// namingAnswer is a fake model whose answer names Leoric Valcárcel and
// cites the first passage it was given.
func namingAnswer(c chattest.Call) string {
	if c.JSON {
		return "{}"
	}
	full := fullLabel.FindStringSubmatch(c.Text(chat.RoleUser))
	if full == nil {
		return "No lo sé."
	}
	return "Leoric Valcárcel es el archiduque de la ciudad, y el grupo le lleva las pruebas. [" + full[1] + "]"
}

const (
	timelineReadyJS = `document.querySelector('[data-testid="passage-panel"]:not([hidden])[data-view="timeline"][data-state="ready"]') !== null`
	recapReadyJS    = `document.querySelector('[data-testid="passage-panel"]:not([hidden])[data-view="recap"][data-state="ready"]') !== null`
	// entriesJS lists the timeline's entries shown: session, citation label.
	entriesJS = `JSON.stringify([...document.querySelectorAll('[data-testid="timeline-sessions"] [data-testid="timeline-entry"]')].map((li) => [Number(li.dataset.session), li.querySelector('[data-testid="citation"]')?.dataset.label || ""]))`
)

// The timeline panel opens from an entity's name in an answer (its link
// to its note kept), lists the sessions the API gives in order with
// their gaps, a citation opens its passage as an answer's does and goes
// back, Escape closes it and gives the focus back; at a phone's width it
// is a bottom sheet; in English it speaks English.
func TestTimelinePanelFromAnswer(t *testing.T) {
	exe := browserPath(t)
	a := startAppWith(t, appConfig{Reply: namingAnswer})
	base := a.URL
	const name = "Leoric Valcárcel"
	var want timelineJSON
	getJSON(t, base, "/api/timeline?name="+url.QueryEscape(name), &want)
	if len(want.Sessions) < 3 || len(want.Gaps) == 0 {
		t.Fatalf("the sample's timeline of %s has %d sessions and %d gaps: the test wants several of both", name, len(want.Sessions), len(want.Gaps))
	}
	p := newPage(t, exe)
	p.do("ask",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"/?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="question-input"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="question-input"]`), "¿Quién es Leoric Valcárcel?"),
		chromedp.Click(chromedp.CSS(`[data-testid="ask-submit"]`)),
	)
	open := `[data-testid="turn-answer"] [data-testid="timeline-open"][data-entity="` + name + `"]`
	p.waitFor("the name's timeline button", sel+`('`+open+`') !== null`)
	if got := p.eval("beside the name", sel+`('`+open+`').previousSibling.textContent + " | " + `+sel+`('`+open+`').getAttribute("aria-label")`); got != name+" | Línea temporal de "+name {
		t.Errorf("the timeline button follows %q", got)
	}
	// The name's link to its note, if the answer has one, still links.
	if got := p.eval("the note link", `[...document.querySelectorAll('[data-testid="answer-text"] a[data-testid="note-link"]')].map((a) => a.textContent + " " + (a.nextElementSibling?.dataset.testid || "")).join(",")`); got != "" && !strings.Contains(got, name+" timeline-open") {
		t.Errorf("the answer's links to notes: %q", got)
	}

	p.do("open the timeline", chromedp.Click(chromedp.CSS(open)))
	p.waitFor("the timeline", timelineReadyJS)
	if got := p.eval("the panel's titles", sel+`('[data-testid="passage-eyebrow"]').textContent + " | " + `+sel+`('[data-testid="passage-label"]').textContent + " | " + document.activeElement.dataset.testid`); got != "Línea temporal | "+name+" | passage-label" {
		t.Errorf("the panel says %q, want the timeline of %s, focused", got, name)
	}
	var shown [][2]any
	if err := json.Unmarshal([]byte(p.eval("the entries", entriesJS)), &shown); err != nil {
		t.Fatal(err)
	}
	if len(shown) != len(want.Sessions) {
		t.Fatalf("the panel lists %d sessions, the API %d", len(shown), len(want.Sessions))
	}
	for i, s := range want.Sessions {
		if int(shown[i][0].(float64)) != s.Session || shown[i][1] != s.Label {
			t.Errorf("entry %d is %v, want session %d citing %q", i, shown[i], s.Session, s.Label)
		}
		if i > 0 && s.Session <= want.Sessions[i-1].Session {
			t.Errorf("the API's sessions are out of order: %d after %d", s.Session, want.Sessions[i-1].Session)
		}
	}
	gaps := p.eval("the gaps", `[...document.querySelectorAll('[data-testid="timeline-gap"]')].map((g) => g.closest("li").dataset.session + ":" + g.textContent).join(",")`)
	var wantGaps []string
	for _, g := range want.Gaps {
		wantGaps = append(wantGaps, fmt.Sprintf("%d:ausente %d sesiones", g.Before, g.Absent))
	}
	if gaps != strings.Join(wantGaps, ",") {
		t.Errorf("the gaps shown: %q, want %q", gaps, strings.Join(wantGaps, ","))
	}
	if got := p.eval("first and last", sel+`('[data-testid="timeline-first"]').textContent + " " + `+sel+`('[data-testid="timeline-last"]').textContent`); got != fmt.Sprintf("Sesión %d Sesión %d", *want.First, *want.Last) {
		t.Errorf("first and last appearance: %q", got)
	}
	// The notes about it that are no session's, apart, each cited.
	notes := p.eval("the other notes", `JSON.stringify([...document.querySelectorAll('[data-testid="timeline-notes"] [data-testid="timeline-note"] [data-testid="citation"]')].map((b) => b.dataset.evidence))`)
	var noteIDs []string
	for _, n := range want.Notes {
		noteIDs = append(noteIDs, n.ID)
	}
	if wantNotes, _ := json.Marshal(noteIDs); len(noteIDs) == 0 || notes != string(wantNotes) {
		t.Errorf("the other notes cite %s, want %s (the sample's NPC note at least)", notes, wantNotes)
	}
	if got := p.eval("headings", `[...document.querySelectorAll('[data-testid="passage-panel"] h3')].map((h) => h.textContent).join(",")`); !strings.HasPrefix(got, "Sesiones") {
		t.Errorf("the panel's headings are %q", got)
	}

	// A citation opens its passage, the sentence marked; back returns to the timeline.
	second := `[data-testid="timeline-entry"]:nth-child(2) [data-testid="citation"]`
	p.do("open an entry's citation", chromedp.Click(chromedp.CSS(second)))
	p.waitFor("the passage", panelReadyJS)
	if got := p.eval("the passage", sel+`('[data-testid="passage-panel"]').dataset.chunkId + " " + `+sel+`('[data-testid="passage-label"]').textContent`); got != want.Sessions[1].ID+" "+want.Sessions[1].Label {
		t.Errorf("the passage shown is %q, want %s %s", got, want.Sessions[1].ID, want.Sessions[1].Label)
	}
	p.waitFor("the cited sentence", sel+`('[data-testid="passage-text"] mark.cited') !== null`)
	p.do("back to the timeline", chromedp.Click(chromedp.CSS(`[data-testid="panel-back"]`)))
	p.waitFor("the timeline again", timelineReadyJS)
	if got := p.eval("focus", `document.activeElement.dataset.evidence || ""`); got != want.Sessions[1].ID {
		t.Errorf("back in the timeline, the focus is on %q, want the citation that opened the passage", got)
	}
	t.Logf("screenshot: %s", p.screenshot("timeline", 1280, false))
	p.do("back to a normal window", chromedp.EmulateViewport(1280, 900))
	p.do("close with Escape", chromedp.KeyEvent(kb.Escape))
	p.waitFor("the panel to close", sel+`('[data-testid="passage-panel"]').hidden`)
	if got := p.eval("focus", `document.activeElement.dataset.testid || ""`); got != "timeline-open" {
		t.Errorf("after Escape the focus is on %q, want the timeline button", got)
	}

	// A phone: a bottom sheet, no sideways scroll; a citation, then Escape.
	p.do("a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.waitFor("the layout", `window.innerWidth === 390`)
	p.do("open the timeline on a phone", chromedp.Click(chromedp.CSS(open)))
	p.waitFor("the timeline sheet", timelineReadyJS)
	if got := p.eval("layout", `getComputedStyle(document.querySelector('[data-testid="passage-panel"]')).position + " " + document.querySelector('[data-testid="passage-panel"]').getAttribute("role")`); got != "fixed dialog" {
		t.Errorf("on a phone the timeline is %q, want a fixed dialog (bottom sheet)", got)
	}
	if got := p.eval("horizontal scroll", hScrollExpr); got != "0" {
		t.Errorf("with the timeline open, the page scrolls sideways by %s px", got)
	}
	t.Logf("phone screenshot: %s", p.saveScreenshot("timeline-phone"))
	p.do("open a citation on a phone", chromedp.Click(chromedp.CSS(second)))
	p.waitFor("the passage", panelReadyJS)
	p.do("close with Escape", chromedp.KeyEvent(kb.Escape))
	p.waitFor("the sheet to close", sel+`('[data-testid="passage-panel"]').hidden && document.activeElement.dataset.testid === "timeline-open"`)

	// In English.
	p.do("wide, in English", chromedp.EmulateViewport(1280, 900), chromedp.Click(chromedp.CSS(`[data-testid="lang-en"]`)))
	p.do("open it in English", chromedp.Click(chromedp.CSS(open)))
	p.waitFor("the timeline", timelineReadyJS)
	if got := p.eval("in English", sel+`('[data-testid="passage-eyebrow"]').textContent + " | " + `+sel+`('[data-testid="timeline-sessions"] h3').textContent + " | " + (`+sel+`('[data-testid="timeline-gap"]')?.textContent || "")`); !strings.HasPrefix(got, "Timeline | Sessions | absent for ") {
		t.Errorf("in English the timeline says %q", got)
	}

	// The conversation kept in the browser is drawn again on a reload,
	// before the compendium comes: its names get their button when it does.
	p.do("reload", chromedp.Reload())
	p.waitFor("the kept answer's timeline button", sel+`('`+open+`') !== null && document.querySelectorAll('[data-testid="timeline-open"][data-entity="`+name+`"]').length === 1`)
}

// From the compendium: the empty state's "Timeline of…" suggests the
// compendium's names, takes an alias, and says so of a name it does not
// know.
func TestTimelineFromCompendium(t *testing.T) {
	exe := browserPath(t)
	a := startAppWith(t, appConfig{})
	base := a.URL
	p := newPage(t, exe)
	p.do("load the page",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"/?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="timeline-name"]`)),
	)
	if got := p.eval("the suggestions", `[...document.querySelectorAll('#timeline-names option')].map((o) => o.value).includes("Leoric Valcárcel") + " " + document.querySelector('label[for="timeline-name"]').textContent`); got != "true Línea temporal de…" {
		t.Errorf("the finder: %q", got)
	}
	p.do("an alias",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="timeline-name"]`), "el Archiduque"),
		chromedp.KeyEvent(kb.Enter),
	)
	p.waitFor("the timeline", timelineReadyJS)
	if got := p.eval("the timeline", sel+`('[data-testid="passage-label"]').textContent + " " + (document.querySelectorAll('[data-testid="timeline-entry"]').length > 2)`); got != "Leoric Valcárcel true" {
		t.Errorf("the alias's timeline: %q", got)
	}
	p.do("close", chromedp.KeyEvent(kb.Escape))
	p.waitFor("the focus back", sel+`('[data-testid="passage-panel"]').hidden && document.activeElement.dataset.testid === "timeline-submit"`)
	p.eval("clear the name", `(document.querySelector('[data-testid="timeline-name"]').value = "")`)
	p.do("a name it does not know",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="timeline-name"]`), "Nadie Nunca"),
		chromedp.Click(chromedp.CSS(`[data-testid="timeline-submit"]`)),
	)
	p.waitFor("the error", `document.querySelector('[data-testid="passage-panel"][data-view="timeline"][data-state="error"] [data-testid="view-error"]') !== null`)
	if got := p.eval("the error", sel+`('[data-testid="view-error"]').textContent`); got != "Nada del compendio se llama «Nadie Nunca»." {
		t.Errorf("for an unknown name the panel says %q", got)
	}
	if got := p.eval("no suggestion", `String(document.querySelectorAll('[data-testid="timeline-near"]').length)`); got != "0" {
		t.Errorf("for a name like none the panel suggests %s names", got)
	}
	// A part of a name, its case aside: its timeline is offered.
	p.eval("clear the name", `(document.querySelector('[data-testid="timeline-name"]').value = "")`)
	p.do("a part of a name",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="timeline-name"]`), "duranza"),
		chromedp.Click(chromedp.CSS(`[data-testid="timeline-submit"]`)),
	)
	p.waitFor("the suggestions", sel+`('[data-testid="passage-panel"][data-state="error"] [data-testid="timeline-near"]') !== null`)
	if got := p.eval("the suggestions", `[...document.querySelectorAll('[data-testid="timeline-near"]')].map((b) => b.textContent).join(", ")`); got != "Sir Alvar Duranza" {
		t.Errorf("for duranza the panel suggests %q", got)
	}
	p.do("take it", chromedp.Click(chromedp.CSS(`[data-testid="timeline-near"]`)))
	p.waitFor("its timeline", timelineReadyJS+` && `+sel+`('[data-testid="passage-label"]').textContent === "Sir Alvar Duranza"`)
	p.do("close", chromedp.KeyEvent(kb.Escape))
	p.waitFor("the focus back on the finder", sel+`('[data-testid="passage-panel"]').hidden && document.activeElement.dataset.testid === "timeline-submit"`)
}
