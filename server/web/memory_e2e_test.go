package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/oraculo/oraculo"
)

// TestMemoryCitationInThePage: a verified entry of memory cited by an
// answer is a citation of kind memory; opening it shows the entry itself,
// said to be memory and not a passage, without asking the API for a chunk.
func TestMemoryCitationInThePage(t *testing.T) {
	exe := browserPath(t)
	a := startAppWith(t, appConfig{})
	const value = "Un 20 natural hace el daño máximo más una tirada."
	if _, err := a.Engine.AddMemory(t.Context(), oraculo.MemoryInput{Scope: "campaign", Key: "críticos", Value: value, Verified: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Engine.AddMemory(t.Context(), oraculo.MemoryInput{Scope: "campaign", Key: "críticos del dragón", Value: "El dragón rojo duerme bajo Caldemora."}); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, exe)
	p.do("load the page and ask",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(a.URL+"/?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="question-input"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="question-input"]`), "¿Cómo funcionan los críticos?"),
		chromedp.Click(chromedp.CSS(`[data-testid="ask-submit"]`)),
	)
	const memoryCite = `document.querySelector('[data-testid="turn-answer"][data-state="done"] [data-testid="citation"][data-kind="memory"]')`
	p.waitFor("a memory citation", memoryCite+` !== null`)
	if got := p.eval("its label", memoryCite+`.textContent`); got != "Memoria: críticos" {
		t.Errorf("the memory citation shows %q", got)
	}
	if got := p.eval("the unconfirmed memory", sel+`('[data-testid="unconfirmed-memory"]')?.innerText || ""`); !strings.Contains(got, "El dragón rojo duerme bajo Caldemora") || !strings.Contains(got, "hipótesis") {
		t.Errorf("the hypothesis is not shown as unconfirmed memory: %q", got)
	}
	p.do("open it", chromedp.Click(chromedp.CSS(`[data-testid="turn-answer"] [data-testid="citation"][data-kind="memory"]`)))
	p.waitFor("the entry", panelReadyJS)
	if got := collapseSpace(p.eval("the panel", sel+`('[data-testid="passage-panel"]').innerText`)); !strings.Contains(got, value) || !strings.Contains(got, "memoria de la mesa") {
		t.Errorf("the panel shows %q; want the entry's value, said to be memory", got)
	}
}
