package web_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/server"
)

// say types a line in the composer and sends it.
func (p *page) say(line string) {
	p.t.Helper()
	p.do("say "+line,
		chromedp.SendKeys(chromedp.CSS(`[data-testid="question-input"]`), line),
		chromedp.Click(chromedp.CSS(`[data-testid="ask-submit"]`)),
	)
}

// memories returns every entry of the app's memory, as the DM sees it.
func memories(t *testing.T, a app) []oraculo.Memory {
	t.Helper()
	ms, err := a.Engine.Memories(t.Context(), "", true)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

const (
	lastProposal = `[...document.querySelectorAll('[data-testid="memory-proposal"]')].at(-1)`
	lastForget   = `[...document.querySelectorAll('[data-testid="memory-forget"]')].at(-1)`
)

// TestMemoryChatRememberForget: the DM's "recuerda que …" shows a
// proposal (a hypothesis, not verified) saved only on a click; "olvida …"
// lists the entry and forgets the one clicked; "don't save" saves nothing;
// an error is shown in the card; none of these lines is asked, or kept in
// the browser's storage, while a question still is.
func TestMemoryChatRememberForget(t *testing.T) {
	exe := browserPath(t)
	a := startAppWith(t, appConfig{})
	p := newPage(t, exe)
	p.do("load the page",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(a.URL+"/?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="question-input"]`)),
	)

	const remember = "Recuerda que críticos: un 20 natural dobla el daño"
	p.say(remember)
	p.waitFor("the proposal", lastProposal+`?.dataset.state === "open"`)
	card := collapseSpace(p.eval("the proposal", lastProposal+`.innerText`))
	for _, want := range []string{"hipótesis", "no verificada", "campaign", "críticos", "un 20 natural dobla el daño"} {
		if !strings.Contains(card, want) {
			t.Errorf("the proposal %q does not say %q", card, want)
		}
	}
	if got := p.eval("the fields", lastProposal+`.querySelector('[data-testid="memory-scope"]').textContent + "|" + `+lastProposal+`.querySelector('[data-testid="memory-key"]').textContent + "|" + `+lastProposal+`.querySelector('[data-testid="memory-value"]').textContent`); got != "campaign|críticos|un 20 natural dobla el daño" {
		t.Errorf("the proposal's scope, key and value: %q", got)
	}
	if got := p.eval("the buttons", `[...`+lastProposal+`.querySelectorAll("button")].map((b) => b.dataset.testid + ":" + b.type).join(" ")`); got != "memory-save:button memory-discard:button" {
		t.Errorf("the proposal's buttons: %q", got)
	}
	if ms := memories(t, a); len(ms) != 0 {
		t.Fatalf("saved before the click: %+v", ms)
	}

	p.do("save", chromedp.Click(chromedp.CSS(`[data-testid="memory-proposal"][data-state="open"] [data-testid="memory-save"]`)))
	p.waitFor("saved", lastProposal+`.dataset.state === "saved"`)
	ms := memories(t, a)
	if len(ms) != 1 || ms[0].Scope != "campaign" || ms[0].Key != "críticos" || ms[0].Value != "un 20 natural dobla el daño" || ms[0].Status != "hypothesis" {
		t.Fatalf("after the save the engine has %+v, want one hypothesis in the campaign", ms)
	}
	id := ms[0].ID
	if got := collapseSpace(p.eval("the saved card", lastProposal+`.innerText`)); !strings.Contains(got, "Guardada "+id) || !strings.Contains(got, "oraculo memory verify "+id) {
		t.Errorf("the saved card says %q; want its id and how the DM verifies it", got)
	}

	// The same key again: the API's conflict is shown in the card, and the
	// proposal stays open.
	p.say(remember)
	p.waitFor("a second proposal", `document.querySelectorAll('[data-testid="memory-proposal"]').length === 2 && `+lastProposal+`.dataset.state === "open"`)
	p.do("save it too", chromedp.Click(chromedp.CSS(`[data-testid="memory-proposal"][data-state="open"] [data-testid="memory-save"]`)))
	p.waitFor("the error", lastProposal+`.querySelector('[role="alert"][data-testid="memory-error"]') !== null`)
	if got := p.eval("the error's card", lastProposal+`.dataset.state`); got != "open" {
		t.Errorf("after a failed save the card is %q, want open", got)
	}
	if got := p.eval("the error", lastProposal+`.querySelector('[data-testid="memory-error"]').textContent`); !strings.Contains(got, "409") {
		t.Errorf("the error says %q, want the conflict (409)", got)
	}
	p.do("don't save it", chromedp.Click(chromedp.CSS(`[data-testid="memory-proposal"][data-state="open"] [data-testid="memory-discard"]`)))
	p.waitFor("discarded", lastProposal+`.dataset.state === "discarded"`)

	const forget = "olvida lo de los críticos"
	p.say(forget)
	p.waitFor("the candidates", lastForget+`?.dataset.state === "open"`)
	button := `[data-testid="memory-forget"][data-state="open"] [data-testid="memory-forget-button"][data-id="` + id + `"]`
	if got := collapseSpace(p.eval("the candidate", sel+`('[data-testid="memory-candidate"][data-id="`+id+`"]')?.innerText || ""`)); !strings.Contains(got, id+" · campaign · críticos: un 20 natural dobla el daño") {
		t.Errorf("the candidate shows %q", got)
	}
	if got := p.eval("the forget button", sel+`('`+button+`').getAttribute("aria-label")`); !strings.Contains(got, id) || !strings.Contains(got, "críticos") {
		t.Errorf("the forget button's label %q does not name the entry", got)
	}
	if got := p.eval("the none button", lastForget+`.querySelector('button[data-testid="memory-forget-none"]')?.textContent || ""`); got != "Ninguna" {
		t.Errorf("the none button says %q", got)
	}
	p.do("forget it", chromedp.Click(chromedp.CSS(button)))
	p.waitFor("forgotten", lastForget+`.dataset.state === "forgotten"`)
	if ms := memories(t, a); len(ms) != 0 {
		t.Errorf("after forgetting, the engine has %+v", ms)
	}

	// Nothing matches now: the card says so.
	p.say(forget)
	p.waitFor("no candidates", `document.querySelectorAll('[data-testid="memory-forget"]').length === 2`)
	if got := p.eval("the card", lastForget+`.innerText`); !strings.Contains(got, "Ninguna entrada") || strings.Contains(got, id) {
		t.Errorf("a forget that matches nothing says %q", got)
	}

	// Don't save: nothing saved.
	p.say("¡Recuerda que el puente: lo quemaron los trolls!")
	p.waitFor("a proposal", lastProposal+`.dataset.state === "open"`)
	p.do("don't save", chromedp.Click(chromedp.CSS(`[data-testid="memory-proposal"][data-state="open"] [data-testid="memory-discard"]`)))
	p.waitFor("discarded", lastProposal+`.dataset.state === "discarded"`)
	if ms := memories(t, a); len(ms) != 0 {
		t.Errorf("after don't save, the engine has %+v", ms)
	}

	// A question is still asked, and kept; the memory lines are neither.
	const question = "¿Quién es Leoric Valcárcel?"
	p.say(question)
	p.waitFor("the answer", sel+`('[data-testid="turn-answer"][data-state="done"], [data-testid="turn-answer"][data-state="error"]') !== null`)
	if got := p.eval("the turns", `String(document.querySelectorAll('[data-testid="turn"]').length)`); got != "1" {
		t.Errorf("%s turns asked, want only the question's", got)
	}
	stored := p.eval("the storage", `JSON.stringify(localStorage)`)
	if !strings.Contains(stored, question) {
		t.Errorf("the question is not kept in the browser's storage (%d bytes)", len(stored))
	}
	for _, line := range []string{remember, forget, "lo quemaron los trolls", "un 20 natural dobla el daño"} {
		if strings.Contains(stored, line) {
			t.Errorf("the browser's storage keeps %q", line)
		}
	}
}

// TestMemoryChatPlayer: a player signed in with a token proposes into
// their own scope (player:NAME), saved as theirs; their "olvida …" never
// lists a campaign entry they see but may not change.
func TestMemoryChatPlayer(t *testing.T) {
	exe := browserPath(t)
	file := filepath.Join(t.TempDir(), "tokens.json")
	token, err := server.AddToken(file, "lyra", oraculo.RolePlayer)
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := server.LoadTokens(file)
	if err != nil {
		t.Fatal(err)
	}
	a := startAppWith(t, appConfig{Tokens: tokens})
	campaign, err := a.Engine.AddMemory(t.Context(), oraculo.MemoryInput{Scope: "campaign", Key: "críticos", Value: "un 20 natural dobla el daño", Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, exe)
	p.do("sign in",
		chromedp.Navigate(a.URL+"/?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="token-input"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="token-input"]`), token),
		chromedp.Click(chromedp.CSS(`[data-testid="token-submit"]`)),
	)
	p.waitFor("the chat", sel+`('[data-testid="question-input"]').offsetParent !== null`)

	p.say("remember that suspects: Harbin lies")
	p.waitFor("the proposal", lastProposal+`?.dataset.state === "open"`)
	if got := p.eval("the scope", lastProposal+`.querySelector('[data-testid="memory-scope"]').textContent`); got != "player:lyra" {
		t.Errorf("a player's proposal is in %q, want player:lyra", got)
	}
	if got := collapseSpace(p.eval("the proposal", lastProposal+`.innerText`)); !strings.Contains(got, "a hypothesis, not verified") {
		t.Errorf("the proposal says %q", got)
	}
	p.do("save", chromedp.Click(chromedp.CSS(`[data-testid="memory-proposal"][data-state="open"] [data-testid="memory-save"]`)))
	p.waitFor("saved", lastProposal+`.dataset.state === "saved"`)
	var mine *oraculo.Memory
	for _, m := range memories(t, a) {
		if m.Scope == "player:lyra" {
			mine = &m
		}
	}
	if mine == nil || mine.Key != "suspects" || mine.Value != "Harbin lies" || mine.Status != "hypothesis" || mine.Author != "lyra" {
		t.Fatalf("lyra's entry: %+v", mine)
	}

	p.say("forget about the críticos")
	p.waitFor("the forget card", lastForget+` !== undefined`)
	if got := p.eval("the card", lastForget+`.innerText`); strings.Contains(got, campaign.ID) || !strings.Contains(got, "No memory entry you may forget matches") {
		t.Errorf("lyra's forget of the campaign's entry says %q", got)
	}
}
