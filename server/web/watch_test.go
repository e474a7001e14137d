package web_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/server"
	"github.com/oraculo/oraculo/server/web"
	"github.com/oraculo/oraculo/watch"
)

// TestWatchIndicator: served with a watcher, the page says when the index
// was last updated, and follows it when a note changes. The page polls
// every 12 s (watch.js's WATCH_POLL_MS); this browser's timers of exactly
// that delay fire after watchPollInTest instead, so that the test does
// not wait a whole poll out: what it checks, that the page's polling
// follows the change, is the same.
func TestWatchIndicator(t *testing.T) {
	exe := browserPath(t)
	ctx := t.Context()
	notes := t.TempDir()
	if err := os.CopyFS(notes, os.DirFS("../../examples/campaign")); err != nil {
		t.Fatal(err)
	}
	eng, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Engine: eng, Web: web.Handler(), Version: "test"})
	if err := srv.Watch(ctx, watch.Config{Debounce: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
		eng.Close()
	})

	p := newPage(t, exe)
	shim := fmt.Sprintf(`(() => { const st = window.setTimeout; window.setTimeout = (f, ms, ...args) => st(f, ms === 12000 ? %d : ms, ...args); })();`, watchPollInTest.Milliseconds())
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: shim}); err != nil {
		t.Fatalf("shortening the page's poll: %v", err)
	}
	p.load(hs.URL + "/?lang=es")
	p.waitFor("the indicator", sel+`('[data-testid="watch-status"]').dataset.updated`)
	if got := p.eval("the indicator", sel+`('[data-testid="watch-status"]').textContent`); !strings.HasPrefix(got, "Índice actualizado a las ") {
		t.Errorf("the indicator says %q", got)
	}
	before := p.eval("the time", sel+`('[data-testid="watch-status"]').dataset.updated`)
	time.Sleep(10 * time.Millisecond) // a later generation, whatever the clock's grain
	if err := os.WriteFile(filepath.Join(notes, "NPCs", "Zoraida Nueva.md"), []byte("# Zoraida Nueva\n\nUna cartógrafa.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.waitFor("the new time", sel+`('[data-testid="watch-status"]').dataset.updated !== "`+before+`"`)
	t.Logf("watch screenshot: %s", p.saveScreenshot("watch"))
	p.do("switch to English", chromedp.Click(chromedp.CSS(`[data-testid="lang-en"]`)))
	if got := p.eval("the indicator", sel+`('[data-testid="watch-status"]').textContent`); !strings.HasPrefix(got, "Index updated at ") {
		t.Errorf("in English the indicator says %q", got)
	}
}

// watchPollInTest is what the page's 12 s poll takes in TestWatchIndicator.
const watchPollInTest = 300 * time.Millisecond
