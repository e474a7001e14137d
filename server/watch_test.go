package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/watch"
)

// visibleWithin is how long a saved change may take to reach a search,
// with the tests' short debounce, on a loaded machine.
const visibleWithin = 5 * time.Second

// watchedServer serves an engine over a fresh folder of notes, watched
// with a short debounce.
func watchedServer(t *testing.T) (ts *httptest.Server, h *Server, root string) {
	t.Helper()
	root = writeNotes(t)
	ts, h = serveWatching(t, root, Config{})
	return ts, h, root
}

// serveWatching serves a fresh index of root, ingested, with cfg, and
// watches root, until the test ends.
func serveWatching(t *testing.T, root string, cfg Config) (ts *httptest.Server, h *Server) {
	t.Helper()
	ctx := context.Background()
	eng, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.Ingest(ctx, []string{root}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	cfg.Engine = eng
	h = New(cfg)
	if err := h.Watch(ctx, watch.Config{Debounce: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	ts = httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		h.Close()
	})
	waitUntil(t, "the watcher to start", time.Now().Add(10*time.Second), func() bool {
		return h.watchStatus(true).State == watch.StateWatching
	})
	return ts, h
}

// waitUntil polls cond until it holds or the deadline passes.
func waitUntil(t *testing.T, what string, deadline time.Time, cond func() bool) {
	t.Helper()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within the deadline: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// searchFiles are the files of the hits for a question, by keyword.
func searchFiles(t *testing.T, ts *httptest.Server, q string) []string {
	t.Helper()
	resp, data := call(t, ts, "POST", "/api/search", "", map[string]any{"question": q, "k": 100, "paths": []string{"bm25"}})
	wantStatus(t, resp, data, 200)
	got := decodeJSON[struct {
		Hits []struct {
			File string `json:"file"`
		} `json:"hits"`
	}](t, data)
	var files []string
	for _, h := range got.Hits {
		if !slices.Contains(files, h.File) {
			files = append(files, h.File)
		}
	}
	slices.Sort(files)
	return files
}

// seen waits until a search for q finds exactly files.
func seen(t *testing.T, ts *httptest.Server, what, q string, files ...string) {
	t.Helper()
	slices.Sort(files)
	var got []string
	deadline := time.Now().Add(visibleWithin)
	for {
		if got = searchFiles(t, ts, q); slices.Equal(got, files) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: a search for %q finds %q after %s, want %q", what, q, got, visibleWithin, files)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWatchKeepsSearchesCurrent: under a serving, watching server, every
// kind of change to the notes reaches a search within visibleWithin.
func TestWatchKeepsSearchesCurrent(t *testing.T) {
	ts, h, root := watchedServer(t)
	note := filepath.Join(root, "Lugares", "Faro.md")

	writeFile(t, note, "# El faro\n\nEl farero Quelvindor guarda la lámpara.\n")
	seen(t, ts, "a new note", "Quelvindor", "Lugares/Faro.md")

	writeFile(t, note, "# El faro\n\nLa farera Ostrivanda guarda la lámpara.\n")
	seen(t, ts, "an edit", "Ostrivanda", "Lugares/Faro.md")
	seen(t, ts, "an edit", "Quelvindor")

	// An editor's atomic save: a temporary file renamed over the note.
	tmp := filepath.Join(root, "Lugares", "Faro.md.tmp4913")
	writeFile(t, tmp, "# El faro\n\nEl vigía Brumencio guarda la lámpara.\n")
	if err := os.Rename(tmp, note); err != nil {
		t.Fatal(err)
	}
	seen(t, ts, "an atomic save", "Brumencio", "Lugares/Faro.md")
	seen(t, ts, "an atomic save", "Ostrivanda")

	// Renamed, then its folder renamed, then removed.
	renamed := filepath.Join(root, "Lugares", "Faro del norte.md")
	if err := os.Rename(note, renamed); err != nil {
		t.Fatal(err)
	}
	seen(t, ts, "a renamed note", "Brumencio", "Lugares/Faro del norte.md")
	if err := os.Rename(filepath.Join(root, "Lugares"), filepath.Join(root, "Sitios")); err != nil {
		t.Fatal(err)
	}
	seen(t, ts, "a renamed folder", "Brumencio", "Sitios/Faro del norte.md")
	// The renamed folder is still watched.
	writeFile(t, filepath.Join(root, "Sitios", "Puerto.md"), "# Puerto\n\nEl puerto de Brumencio.\n")
	seen(t, ts, "a note in the renamed folder", "Brumencio", "Sitios/Faro del norte.md", "Sitios/Puerto.md")
	if err := os.Remove(filepath.Join(root, "Sitios", "Faro del norte.md")); err != nil {
		t.Fatal(err)
	}
	seen(t, ts, "a deleted note", "Brumencio", "Sitios/Puerto.md")
	if err := os.RemoveAll(filepath.Join(root, "Sitios")); err != nil {
		t.Fatal(err)
	}
	seen(t, ts, "a deleted folder", "Brumencio")

	// Hidden folders are not notes, as for the ingest.
	writeFile(t, filepath.Join(root, ".obsidian", "Oculta.md"), "Nadie lee a Brumencio aquí.\n")
	writeFile(t, filepath.Join(root, "Visible.md"), "# Visible\n\nTodos leen a Brumencio aquí.\n")
	seen(t, ts, "a hidden folder", "Brumencio", "Visible.md")

	// The health report says the watcher is at work.
	resp, data := call(t, ts, "GET", "/api/health", "", nil)
	wantStatus(t, resp, data, 200)
	hs := decodeJSON[struct {
		Watch watch.Status `json:"watch"`
	}](t, data)
	if w := hs.Watch; w.State != watch.StateWatching || w.LastUpdate == nil || w.Updates == 0 || len(w.Roots) != 1 || w.Error != "" {
		t.Errorf("health: %s", data)
	}
	if s := h.watchStatus(false); s.Roots != nil {
		t.Errorf("a player's health names the folders: %+v", s)
	}
	// The overview, what the page shows, moved on too.
	resp, data = call(t, ts, "GET", "/api/overview", "", nil)
	wantStatus(t, resp, data, 200)
	if o := decodeJSON[oraculo.Overview](t, data); o.Updated == nil || time.Since(*o.Updated) > time.Minute || o.Notes != len(testNotes)+1 {
		t.Errorf("overview: %s", data)
	}
}

// TestWatchBurst: 50 notes written at once, in new folders too, are all
// searchable, none lost.
func TestWatchBurst(t *testing.T) {
	ts, _, root := watchedServer(t)
	var want []string
	for i := range 50 {
		rel := fmt.Sprintf("Ráfaga/%d/Nota %02d.md", i%5, i)
		writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), fmt.Sprintf("# Nota %d\n\nEl cometa Vestradul pasó otra vez.\n", i))
		want = append(want, rel)
	}
	seen(t, ts, "50 notes at once", "Vestradul", want...)
}

// TestWatchFollowsARunningIngest: changes made while POST /api/ingest runs
// are ingested after it, not lost to its 409.
func TestWatchFollowsARunningIngest(t *testing.T) {
	ts, h, root := watchedServer(t)
	claimed, err := h.claimIngest() // stands for a long POST /api/ingest
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "Tarde.md"), "# Tarde\n\nLlegó Morlacundo tarde.\n")
	waitUntil(t, "the watcher to wait for the ingest", time.Now().Add(10*time.Second), func() bool {
		return h.watchStatus(true).Updating
	})
	time.Sleep(300 * time.Millisecond)
	if got := searchFiles(t, ts, "Morlacundo"); len(got) != 0 {
		t.Fatalf("an update ran during another ingest: %q", got)
	}
	h.ingest.mu.Lock()
	if h.ingest.run != claimed {
		t.Errorf("another ingest started while one ran")
	}
	h.ingest.running = false
	h.ingest.mu.Unlock()
	h.wg.Done()
	seen(t, ts, "a change made during an ingest", "Morlacundo", "Tarde.md")
}

// TestWatchStopsWithTheServer: Close stops the watcher and its ingest,
// and no goroutine of them is left.
func TestWatchStopsWithTheServer(t *testing.T) {
	ts, h, root := watchedServer(t)
	writeFile(t, filepath.Join(root, "Última.md"), "# Última\n\nLa última nota de Farandol.\n")
	seen(t, ts, "a note", "Farandol", "Última.md")
	writeFile(t, filepath.Join(root, "Otra.md"), "# Otra\n\nY otra de Farandol.\n")
	ts.Close()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if s := h.watchStatus(true); s.State != watch.StateStopped || s.Updating {
		t.Errorf("after Close: %+v", s)
	}
	waitUntil(t, "the watcher's goroutines to end", time.Now().Add(10*time.Second), func() bool {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		return !strings.Contains(stacks, "fsnotify") && !strings.Contains(stacks, "watch.(*Watcher).Run") && !strings.Contains(stacks, "server.(*Server).watchUpdate")
	})
}
