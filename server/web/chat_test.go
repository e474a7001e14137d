package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat/chattest"
)

// askAndWait asks a question with the composer and waits for its answer,
// the n-th of the page.
func (p *page) askAndWait(question string, n int) {
	p.t.Helper()
	p.do("ask "+question,
		chromedp.SendKeys(chromedp.CSS(`[data-testid="question-input"]`), question),
		chromedp.KeyEvent(kb.Enter),
	)
	p.waitFor(fmt.Sprintf("answer %d", n), fmt.Sprintf(`document.querySelectorAll('[data-testid="turn-answer"][data-state="done"]').length === %d && document.querySelector('[data-testid="ask-stop"]').hidden`, n))
}

// load opens the page and waits until it knows who is asking.
func (p *page) load(u string) {
	p.t.Helper()
	p.do("load the page",
		chromedp.Navigate(u),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="question-input"]`)),
	)
	p.waitFor("the role", sel+`('[data-testid="role"]').textContent !== ""`)
}

// The conversation survives a reload, answers and citations included;
// conversations are listed, renamed, exported and deleted.
func TestConversationKept(t *testing.T) {
	exe := browserPath(t)
	a := startApp(t, nil)
	p := newPage(t, exe)
	p.load(a.URL + "/?lang=es")

	// Before the first question: what is indexed and which model answers.
	p.waitFor("the index's overview", sel+`('[data-testid="index-counts"]') !== null`)
	o, err := a.Engine.Overview(oraculo.WithRole(t.Context(), oraculo.RoleDM))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.eval("the counts", sel+`('[data-testid="index-counts"]').textContent`), fmt.Sprintf("%d notas · %d sesiones", o.Notes, o.Sessions); got != want {
		t.Errorf("the empty state says %q, want %q", got, want)
	}
	if got := p.eval("the model", sel+`('[data-testid="index-model"]').dataset.model`); got != "ollama/fake" {
		t.Errorf("the empty state names the model %q, want ollama/fake", got)
	}
	if got := p.eval("the update", sel+`('[data-testid="index-updated"]').textContent`); got == "" || got == "nunca" {
		t.Errorf("the empty state says the index was updated %q", got)
	}
	t.Logf("empty state screenshot: %s", p.saveScreenshot("empty"))

	const first, second = "¿Qué pasó con el archiduque?", "¿Y después?"
	p.askAndWait(first, 1)
	p.askAndWait(second, 2)
	labels := p.eval("the citations", `[...document.querySelectorAll('[data-testid="citation"]')].map((c) => c.dataset.label).join("|")`)
	if labels == "" {
		t.Fatal("the answers cite nothing")
	}
	if got := p.eval("the list", listJS); got != first {
		t.Errorf("the conversations listed are %q, want one titled %q", got, first)
	}

	p.do("reload", chromedp.Reload())
	p.waitFor("the conversation again", `document.querySelectorAll('[data-testid="turn-answer"][data-state="done"]').length === 2`)
	if got := p.eval("the questions", `[...document.querySelectorAll('[data-testid="turn-question"]')].map((q) => q.textContent).join("|")`); got != "Tú"+first+"|Tú"+second {
		t.Errorf("after a reload the questions are %q", got)
	}
	if got := p.eval("the citations", `[...document.querySelectorAll('[data-testid="citation"]')].map((c) => c.dataset.label).join("|")`); got != labels {
		t.Errorf("after a reload the citations are %q, want %q", got, labels)
	}
	if got := p.eval("the empty state", sel+`('[data-testid="empty-state"]').hidden ? "hidden" : "shown"`); got != "hidden" {
		t.Error("the empty state is shown over a kept conversation")
	}
	p.do("open a kept citation", chromedp.Click(chromedp.CSS(`[data-testid="citation"]`)))
	p.waitFor("its passage", panelReadyJS)
	p.do("close it", chromedp.KeyEvent(kb.Escape))

	// Rename it; the name is kept.
	p.do("open the list", chromedp.Click(chromedp.CSS(`[data-testid="conversations-toggle"]`)))
	p.do("rename", chromedp.Click(chromedp.CSS(`[data-testid="conversation-rename"]`)))
	p.waitFor("the name's box", `document.activeElement?.dataset.testid === "rename-input"`)
	p.do("type the name",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="rename-input"]`), "El archiduque"),
		chromedp.KeyEvent(kb.Enter),
	)
	// SendKeys types after what the box held (selected, so replaced).
	if got := p.eval("the list", listJS); got != "El archiduque" {
		t.Errorf("after renaming the list says %q", got)
	}

	// Export it as Markdown.
	p.eval("catch the download", `(() => {
		window.exported = [];
		const make = URL.createObjectURL;
		URL.createObjectURL = (b) => { window.exported.push(b); return make.call(URL, b); };
		return "";
	})()`)
	p.do("export", chromedp.Click(chromedp.CSS(`[data-testid="conversation-export"]`)))
	md, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`window.exported[0].text()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("reading the export: %v", err)
	}
	for _, want := range []string{"# El archiduque\n", "## " + first + "\n", "## " + second + "\n", "**Fuentes**", "[" + strings.Split(labels, "|")[0] + "]"} {
		if !strings.Contains(md, want) {
			t.Errorf("the export lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "Sesión 119") {
		t.Errorf("the export keeps a citation that was removed:\n%s", md)
	}

	p.do("reload again", chromedp.Reload())
	p.waitFor("the conversation", `document.querySelectorAll('[data-testid="turn-answer"][data-state="done"]').length === 2`)
	p.do("open the list", chromedp.Click(chromedp.CSS(`[data-testid="conversations-toggle"]`)))
	if got := p.eval("the list", listJS); got != "El archiduque" {
		t.Errorf("after a reload the list says %q, want the new name", got)
	}

	// A second conversation, then the first deleted.
	p.do("close the list", chromedp.KeyEvent(kb.Escape))
	p.do("new conversation", chromedp.Click(chromedp.CSS(`[data-testid="new-conversation"]`)))
	p.askAndWait("¿Quién es Leoric Valcárcel?", 1)
	p.do("open the list", chromedp.Click(chromedp.CSS(`[data-testid="conversations-toggle"]`)))
	if got := p.eval("the list", listJS); got != "¿Quién es Leoric Valcárcel?|El archiduque" {
		t.Errorf("with two conversations the list says %q", got)
	}
	p.do("delete the first", chromedp.Click(chromedp.CSS(`[data-testid="conversation-item"]:nth-child(2) [data-testid="conversation-delete"]`)))
	if got := p.eval("the list", listJS); got != "¿Quién es Leoric Valcárcel?" {
		t.Errorf("after deleting, the list says %q", got)
	}
	p.do("delete the one shown", chromedp.Click(chromedp.CSS(`[data-testid="conversation-delete"]`)))
	if got := p.eval("the page", `document.querySelectorAll('[data-testid="turn"]').length + " " + (document.querySelector('[data-testid="conversations-none"]') ? "none" : "some")`); got != "0 none" {
		t.Errorf("after deleting the conversation shown: %q, want no turn and no conversation", got)
	}
	p.do("reload", chromedp.Reload())
	p.waitFor("the empty state", sel+`('[data-testid="index-counts"]') !== null`)
	if got := p.eval("turns", `String(document.querySelectorAll('[data-testid="turn"]').length)`); got != "0" {
		t.Errorf("a deleted conversation came back with %s turns", got)
	}
}

const listJS = `[...document.querySelectorAll('[data-testid="conversation-title"]')].map((e) => e.textContent).join("|")`

// Copy puts the answer, with its citations, on the clipboard; Regenerate
// asks again and the new answer takes the old one's place.
func TestCopyAndRegenerate(t *testing.T) {
	exe := browserPath(t)
	var answers atomic.Int32
	a := startAppWith(t, appConfig{Reply: func(c chattest.Call) string {
		reply := fakeAnswer(c)
		if c.JSON || !fullLabel.MatchString(c.Text("user")) {
			return reply
		}
		n := answers.Add(1)
		// Each answer says which it is, after the model's reasoning.
		i := strings.Index(reply, "</think>\n\n") + len("</think>\n\n")
		return reply[:i] + "Intento " + strconv.Itoa(int(n)) + ". " + reply[i:]
	}})
	p := newPage(t, exe)
	p.load(a.URL + "/?lang=es")
	if _, err := chromedp.CallBrowser(p.ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "clipboard-read"}, Setting: browser.PermissionSettingGranted, Origin: a.URL,
	}); err != nil {
		t.Fatalf("letting the test read the clipboard: %v", err)
	}
	p.askAndWait("¿Qué pasó con el archiduque?", 1)
	p.askAndWait("¿Y después?", 2)

	// Clicked from the page itself, as regenerate is below: a mouse click
	// during the smooth scroll to the newest answer can land beside the
	// button (it did in a CI run).
	p.eval("copy the first answer", `(document.querySelector('[data-testid="turn"]:nth-child(1) [data-testid="copy-answer"]').click(), "clicked")`)
	p.waitFor("the copy", sel+`('[data-testid="copy-answer"][data-copied]') !== null`)
	if got := p.eval("the copy's outcome", sel+`('[data-testid="copy-answer"][data-copied]').dataset.copied + " " + `+sel+`('[data-testid="copy-answer"][data-copied]').textContent`); got != "true Copiado" {
		t.Errorf("after copying the button says %q", got)
	}
	copied, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("reading the clipboard: %v", err)
	}
	label := p.eval("the first citation", sel+`('[data-testid="turn"]:nth-child(1) [data-testid="citation"]').dataset.label`)
	if !strings.HasPrefix(copied, "Intento 1. El grupo le lleva al **archiduque**") || !strings.Contains(copied, "["+label+"]") {
		t.Errorf("the clipboard holds %q, want the first answer with its citation [%s]", copied, label)
	}
	if strings.Contains(copied, "Sesión 119") || strings.Contains(copied, hiddenReasoning) {
		t.Errorf("the clipboard holds what the answer does not show: %q", copied)
	}

	const turnsJS = `[...document.querySelectorAll('[data-testid="turn"]')].map((x) => x.querySelector('[data-testid="turn-question"]').textContent + ": " + x.querySelector('[data-testid="answer-text"]').textContent.slice(0, 10)).join(" | ")`
	before := p.eval("the turns", turnsJS)
	first, second, _ := strings.Cut(before, " | ")
	if !strings.HasPrefix(first, "Tú¿Qué pasó con el archiduque?: Intento ") || !strings.HasPrefix(second, "Tú¿Y después?: Intento ") {
		t.Fatalf("before regenerating the turns are %q", before)
	}
	// Clicked from the page itself: the page scrolls smoothly to the newest
	// answer, and a mouse click during that scroll can land beside the
	// button (it did once on a loaded machine).
	p.eval("regenerate the first answer", `(document.querySelector('[data-testid="turn"]:nth-child(1) [data-testid="regenerate"]').click(), "clicked")`)
	p.waitFor("the new answer", fmt.Sprintf(`(() => {
		const a = document.querySelector('[data-testid="turn"]:nth-child(1) [data-testid="turn-answer"][data-state="done"] [data-testid="answer-text"]');
		return a && a.textContent.startsWith("Intento ") && !%q.endsWith(": " + a.textContent.slice(0, 10));
	})()`, first))
	after := p.eval("the turns", turnsJS)
	regenerated, kept, _ := strings.Cut(after, " | ")
	if !strings.HasPrefix(regenerated, "Tú¿Qué pasó con el archiduque?: Intento ") || regenerated == first || kept != second || strings.Count(after, " | ") != 1 {
		t.Errorf("after regenerating the turns are\n%s\nwant the first answer replaced by a new one, the second kept, from\n%s", after, before)
	}
	// The regenerated question was asked as the first one is: without
	// the second as history.
	if got := p.eval("the trace", `document.querySelectorAll('[data-testid="turn"]')[0].querySelector('[data-testid="trace-follow-up"]') ? "follow-up" : "alone"`); got != "alone" {
		t.Error("the regenerated first question was asked as a follow-up of the second")
	}
	p.do("reload", chromedp.Reload())
	p.waitFor("the kept conversation", `document.querySelectorAll('[data-testid="turn-answer"][data-state="done"]').length === 2`)
	if got := p.eval("the turns", turnsJS); got != after {
		t.Errorf("after a reload the turns are\n%s\nwant\n%s", got, after)
	}
}

// Opening a citation marks, in the passage, the sentence the server
// chose for the claim, and scrolls to it.
func TestCitedSentenceMarked(t *testing.T) {
	exe := browserPath(t)
	a := startApp(t, nil)
	p := newPage(t, exe)
	p.load(a.URL + "/?lang=es")
	p.askAndWait("¿Qué pasó con el archiduque?", 1)

	// The first citation follows the first sentence of fakeAnswer.
	const claim = "El grupo le lleva al **archiduque** las pruebas que encontró y él no las cree del todo."
	id := p.eval("the citation", sel+`('[data-testid="citation"]').dataset.evidence`)
	want := citedSentence(t, a.URL, id, claim)
	if want == "" {
		t.Fatalf("the server marks no sentence of %s for %q: the test would prove nothing", id, claim)
	}

	p.do("a short window, so that the passage scrolls", chromedp.EmulateViewport(1280, 420))
	p.do("open the citation", chromedp.Click(chromedp.CSS(`[data-testid="citation"]`)))
	p.waitFor("the mark", panelReadyJS+` && document.querySelector('[data-testid="passage-text"] mark.cited') !== null`)
	marked := p.eval("the marked text", `[...document.querySelectorAll('[data-testid="passage-text"] mark.cited')].map((m) => m.textContent).join("")`)
	if letters(marked) != letters(want) {
		t.Errorf("the passage marks %q, want the server's sentence %q", marked, want)
	}
	// The mark is where the panel shows it (below its heading).
	p.waitFor("the mark in view", `(() => {
		const panel = document.querySelector('[data-testid="passage-panel"]');
		const head = panel.querySelector('.passage-head').getBoundingClientRect();
		const box = panel.getBoundingClientRect();
		const m = panel.querySelector('mark.cited').getBoundingClientRect();
		return m.top >= head.bottom - 1 && m.bottom <= box.bottom + 1;
	})()`)
	t.Logf("marked passage screenshot: %s", p.saveScreenshot("marked"))
}

// citedSentence asks the API which sentence of chunk id supports claim.
func citedSentence(t *testing.T, base, id, claim string) string {
	t.Helper()
	res, err := http.Get(base + "/api/chunks/" + url.PathEscape(id) + "?claim=" + url.QueryEscape(claim))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var c struct{ Cited string }
	if err := json.Unmarshal(body, &c); err != nil || res.StatusCode != 200 {
		t.Fatalf("chunk %s: %d %s", id, res.StatusCode, body)
	}
	return c.Cited
}

// letters keeps the letters and digits of s, lowercased: Markdown's marks
// and spacing do not count.
func letters(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// Each new answer is scrolled into view when it arrives, however many
// came before and wherever the reader had scrolled.
func TestNewAnswerInView(t *testing.T) {
	exe := browserPath(t)
	a := startApp(t, nil)
	p := newPage(t, exe)
	p.do("a laptop's window", chromedp.EmulateViewport(1280, 640))
	p.load(a.URL + "/?lang=es")
	questions := []string{"¿Qué pasó con el archiduque?", "¿Y después?", "¿Quién es Leoric Valcárcel?", "¿Qué pasó en la sesión 2?", "¿Qué es la Mano Gris?"}
	for i, q := range questions {
		p.do("ask "+q,
			chromedp.SendKeys(chromedp.CSS(`[data-testid="question-input"]`), q),
			chromedp.KeyEvent(kb.Enter),
		)
		if i >= 2 {
			// While the model thinks, the reader goes back to the first answer.
			p.waitFor("the question to be asked", fmt.Sprintf(`document.querySelectorAll('[data-testid="turn"]').length === %d`, i+1))
			p.eval("scroll to the top", `(window.scrollTo({ top: 0, behavior: "instant" }), "")`)
		}
		p.waitFor(fmt.Sprintf("answer %d", i+1), fmt.Sprintf(`document.querySelectorAll('[data-testid="turn-answer"][data-state="done"]').length === %d`, i+1))
		p.waitFor(fmt.Sprintf("answer %d in view", i+1), fmt.Sprintf(`(() => {
			const turn = document.querySelectorAll('[data-testid="turn"]')[%d];
			const text = turn.querySelector('[data-testid="answer-text"]').getBoundingClientRect();
			const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
			const bottom = document.querySelector('[data-testid="ask-form"]').getBoundingClientRect().top;
			return text.top >= top && text.top + 24 <= bottom;
		})()`, i))
	}
	if got := p.eval("scroll", `String(window.scrollY > 0)`); got != "true" {
		t.Error("the page never scrolled: the test would prove nothing")
	}
	t.Logf("fifth answer screenshot: %s", p.saveScreenshot("in-view"))
}

// The DM's update button re-reads the notes, showing how it goes; a
// player has none, and the API refuses a player's.
func TestUpdateIndex(t *testing.T) {
	exe := browserPath(t)
	notes := t.TempDir()
	if err := os.CopyFS(notes, os.DirFS("../../examples/campaign")); err != nil {
		t.Fatal(err)
	}

	t.Run("dm", func(t *testing.T) {
		a := startAppWith(t, appConfig{Notes: notes}) // no model: extractive
		p := newPage(t, exe)
		p.load(a.URL + "/?lang=es")
		p.waitFor("the index's overview", sel+`('[data-testid="index-counts"]') !== null`)
		if got := p.eval("the model", sel+`('[data-testid="index-model"]').dataset.model + " " + `+sel+`('[data-testid="index-model"]').textContent`); !strings.HasPrefix(got, "extractive extractivo") {
			t.Errorf("without a model the empty state says %q, want extractive", got)
		}
		before := p.eval("the counts", sel+`('[data-testid="index-counts"]').textContent`)
		o, err := a.Engine.Overview(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("%d notas · %d sesiones", o.Notes, o.Sessions); before != want {
			t.Fatalf("before the update the empty state says %q, want %q", before, want)
		}
		if got := p.eval("the button", sel+`('[data-testid="update-index"]').offsetParent !== null ? "shown" : "hidden"`); got != "shown" {
			t.Fatal("the DM has no update button")
		}
		// A new note, for the update to find.
		if err := os.WriteFile(filepath.Join(notes, "NPCs", "Zoraida Nueva.md"), []byte("# Zoraida Nueva\n\nUna cartógrafa que llegó a Caldemora después de la última sesión.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// Every state the status goes through, as the page shows it.
		p.eval("watch the status", `(() => {
			window.seen = [];
			const s = document.querySelector('[data-testid="ingest-status"]');
			new MutationObserver(() => {
				const line = (s.dataset.state || "") + ": " + s.textContent + (s.querySelector('progress') ? " [bar]" : "");
				if (window.seen.at(-1) !== line) window.seen.push(line);
			}).observe(s, { subtree: true, childList: true, characterData: true, attributes: true });
			return "";
		})()`)
		p.do("update", chromedp.Click(chromedp.CSS(`[data-testid="update-index"]`)))
		p.waitFor("the end of the update", sel+`('[data-testid="ingest-status"]').dataset.state === "done"`)
		seen := p.eval("the states", `window.seen.join("\n")`)
		if !strings.HasPrefix(seen, "running: Actualizando el índice… [bar]") {
			t.Errorf("the update did not show its progress from the start:\n%s", seen)
		}
		if got := p.eval("the end", sel+`('[data-testid="ingest-stage"]').textContent`); !strings.HasPrefix(got, "Índice actualizado:") || !strings.Contains(got, "1 nueva o cambiada") {
			t.Errorf("after the update the page says %q, want one new note", got)
		}
		p.waitFor("the new count", fmt.Sprintf(sel+`('[data-testid="index-counts"]').textContent.startsWith("%d notas")`, o.Notes+1))
		if got := p.eval("the button", sel+`('[data-testid="update-index"]').disabled ? "disabled" : "enabled"`); got != "enabled" {
			t.Error("the update button stays disabled after the update")
		}
		t.Logf("update screenshot: %s", p.saveScreenshot("update"))
		// The new note is in the index: it can be asked about.
		p.askAndWait("¿Quién es Zoraida Nueva?", 1)
		if got := p.eval("the answer", sel+`('[data-testid="answer-text"]').textContent`); !strings.Contains(got, "cartógrafa") {
			t.Errorf("after the update the answer about the new note is %q", got)
		}
	})

	t.Run("player", func(t *testing.T) {
		a := startAppWith(t, appConfig{Notes: notes, Role: oraculo.RolePlayer})
		p := newPage(t, exe)
		p.load(a.URL + "/?lang=es")
		if got := p.eval("the role", sel+`('[data-testid="role"]').textContent`); got != "Jugador" {
			t.Fatalf("the role is %q, want Jugador", got)
		}
		p.waitFor("the examples", sel+`('[data-testid="example"]') !== null`)
		if got := p.eval("the button", sel+`('[data-testid="update-index"]').offsetParent === null ? "hidden" : "shown"`); got != "hidden" {
			t.Error("a player sees the update button")
		}
		status, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`fetch("/api/ingest", { method: "POST" }).then((r) => String(r.status))`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("a player's update: %v", err)
		}
		if status != "403" {
			t.Errorf("a player's POST /api/ingest answered %s, want 403", status)
		}

		// The examples name only entities a player may see.
		player, err := a.Engine.Compendium(oraculo.WithRole(context.Background(), oraculo.RolePlayer))
		if err != nil {
			t.Fatal(err)
		}
		dm, err := a.Engine.Compendium(oraculo.WithRole(context.Background(), oraculo.RoleDM))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, e := range player {
			seen[e.Name] = true
		}
		var hidden []string
		for _, e := range dm {
			if !seen[e.Name] {
				hidden = append(hidden, e.Name)
			}
		}
		if len(hidden) == 0 {
			t.Fatal("the DM's compendium names nothing the players' does not: the test would prove nothing")
		}
		examples := p.eval("the examples", `[...document.querySelectorAll('[data-testid="example"]')].map((e) => e.textContent).join("|")`)
		if n := strings.Count(examples, "|") + 1; n != 3 {
			t.Errorf("the empty state shows %d examples (%q), want 3", n, examples)
		}
		for _, name := range hidden {
			if strings.Contains(examples, name) {
				t.Errorf("a player's example names the DM-only %q: %s", name, examples)
			}
		}
		o, err := a.Engine.Overview(oraculo.WithRole(context.Background(), oraculo.RolePlayer))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := p.eval("the counts", sel+`('[data-testid="index-counts"]').textContent`), fmt.Sprintf("%d notas · %d sesiones", o.Notes, o.Sessions); got != want {
			t.Errorf("a player's empty state says %q, want %q", got, want)
		}
		t.Logf("player screenshot: %s", p.saveScreenshot("player"))
	})
}

// A model that does not answer in time: the page shows the extracted
// answer, and says that the model did not answer in time.
func TestHungModelAnswerSaysSo(t *testing.T) {
	exe := browserPath(t)
	a := startAppWith(t, appConfig{Reply: fakeAnswer, Hang: &chattest.Fault{Stall: true}})
	p := newPage(t, exe)
	p.load(a.URL + "/?lang=es")
	p.askAndWait("¿Qué le pasó al archiduque?", 1)
	mode := p.eval("the answer's mode", sel+`('[data-testid="turn-answer"] [data-testid="answer-mode"]').textContent`)
	if !strings.Contains(mode, "El modelo no respondió a tiempo") {
		t.Errorf("the answer's mode says %q", mode)
	}
	if text := p.eval("the answer", sel+`('[data-testid="turn-answer"]').textContent`); !strings.Contains(text, "archiduque") {
		t.Errorf("the answer: %q", text)
	}
}
