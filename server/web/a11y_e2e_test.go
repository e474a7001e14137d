package web_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeSource returns axe-core's script, installed by npm ci in this folder
// at the version package-lock.json pins, or skips the test.
func axeSource(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		const why = "axe-core is not installed (server/web/node_modules/axe-core): run `npm ci` in server/web, as CI does, to check the page's accessibility"
		if os.Getenv("ORACULO_REQUIRE_NODE") == "1" {
			t.Fatalf("%s: %v", why, err)
		}
		t.Skip(why)
	}
	return string(src)
}

// axeViolation is one rule axe-core finds broken, and where.
type axeViolation struct {
	ID, Impact, Help string
	Count            int
	Targets          []string // the first few elements, as CSS selectors
}

const axeRunJS = `axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations.map(v => ({
	ID: v.id, Impact: v.impact || "", Help: v.help, Count: v.nodes.length,
	Targets: v.nodes.slice(0, 3).map(n => n.target.join(" ")),
}))))`

// axeCheck runs axe-core on the page as it is now: a serious or critical
// violation fails the test, a lesser one is logged.
func (p *page) axeCheck(what, axe string) {
	p.t.Helper()
	if p.eval("axe loaded", `typeof axe`) == "undefined" {
		p.do("load axe-core", chromedp.Evaluate[chromedp.Void](axe))
	}
	out, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](axeRunJS, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: axe-core: %v", what, err)
	}
	var found []axeViolation
	if err := json.Unmarshal([]byte(out), &found); err != nil {
		p.t.Fatalf("%s: axe-core's answer: %v", what, err)
	}
	for _, v := range found {
		msg := what + ": " + v.Impact + " " + v.ID + " (" + v.Help + ") on " + strings.Join(v.Targets, ", ")
		if v.Impact == "serious" || v.Impact == "critical" {
			p.t.Error(msg)
		} else {
			p.t.Log(msg)
		}
	}
}

// axeStates checks with axe-core, in one colour scheme, that the page's
// main states have no serious accessibility problem: the sign-in with its
// error, the empty state (examples, recap, timeline finder), an answer
// with its citations, and the cited passage beside it or, at 390 px, as a
// bottom sheet.
func axeStates(t *testing.T, exe string, a app, scheme, player string) {
	axe := axeSource(t)
	p := newPage(t, exe)
	p.colorScheme(scheme)
	p.do(scheme+": a wrong token",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(a.URL+"/?lang=es"),
		chromedp.Evaluate[chromedp.Void](`localStorage.clear()`),
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="token-input"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="token-input"]`), "orc_wrong"),
		chromedp.Click(chromedp.CSS(`[data-testid="token-submit"]`)),
	)
	p.waitFor("the error", sel+`('[data-testid="signin-error"]:not([hidden])') !== null`)
	p.axeCheck(scheme+", the sign-in in error", axe)

	p.do(scheme+": sign in",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="token-input"]`), player),
		chromedp.Click(chromedp.CSS(`[data-testid="token-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="timeline-find"]`)),
	)
	p.axeCheck(scheme+", the empty state", axe)

	p.do(scheme+": ask",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="question-input"]`), "¿Qué pasó con el archiduque?"),
		chromedp.Click(chromedp.CSS(`[data-testid="ask-submit"]`)),
	)
	p.waitFor("the answer", sel+`('[data-testid="turn-answer"][data-state="done"] [data-testid="citation"]') !== null`)
	p.do(scheme+": open the citation", chromedp.Click(chromedp.CSS(`[data-testid="citation"]`)))
	p.waitFor("the passage", panelReadyJS)
	p.axeCheck(scheme+", an answer and its passage", axe)

	p.do(scheme+": a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.waitFor("the layout", `window.innerWidth === 390`)
	p.axeCheck(scheme+", the passage as a bottom sheet at 390 px", axe)
}
