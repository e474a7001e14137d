package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oraculo/oraculo/chat/chattest"
)

// An answer whose only citation is invented is shown as the abstention it
// becomes: "the notes don't say", the evidence found, never the invention
// nor a green tick, while streaming or after.
func TestChatPageAnswerWithoutSupport(t *testing.T) {
	exe := browserPath(t)
	a := startAppWith(t, appConfig{Reply: func(c chattest.Call) string {
		if c.JSON {
			return "{}"
		}
		return "Además, el dragón huyó al norte. [Sesión 119]"
	}})
	p := newPage(t, exe)
	p.do("load the page",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(a.URL+"/?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="question-input"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="question-input"]`), "¿Qué pasó con el archiduque?"),
		chromedp.Click(chromedp.CSS(`[data-testid="ask-submit"]`)),
	)
	p.waitFor("the answer", sel+`('[data-testid="turn-answer"][data-state="done"]') !== null`)
	if got := p.eval("the grounding", groundingJS); got != "none ∅Las notas no lo dicen" {
		t.Errorf("the grounding badge says %q, want none, Las notas no lo dicen", got)
	}
	got := p.eval("the answer", sel+`('[data-testid="turn-answer"] [data-testid="answer-text"]').textContent`)
	if strings.Contains(got, "dragón") || !strings.HasPrefix(got, "Las notas no dicen eso.") {
		t.Errorf("the answer shows %q, want the abstention", got)
	}
	if n := p.eval("citations", `String(document.querySelectorAll('[data-testid="turn-answer"] [data-testid="citation"]').length)`); n == "0" {
		t.Error("the abstention names no evidence found")
	}
	if got := p.eval("deltas", sel+`('[data-testid="turn-answer"]').dataset.deltas`); got != "0" {
		t.Errorf("%s deltas were streamed of an answer that abstains", got)
	}
}
