package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/synth"
	"github.com/oraculo/oraculo/watch"
)

// TestWatchDelay measures the delay from a note's save to the first
// search that finds it, under a serving, watching server: the numbers of
// BENCHMARKS.md ("Issue 16: the watcher's delay"). It runs only when asked:
//
//	ORACULO_WATCH_DELAY=1 go test -run TestWatchDelay -v ./server
//
// ORACULO_WATCH_SAVES saves (default 50), ORACULO_WATCH_DEBOUNCE the
// debounce (default watch.DefaultDebounce), ORACULO_WATCH_SESSIONS > 0 a
// synthetic vault of that many sessions, ten to a file, instead of the
// sample campaign.
func TestWatchDelay(t *testing.T) {
	if os.Getenv("ORACULO_WATCH_DELAY") == "" {
		t.Skip("set ORACULO_WATCH_DELAY=1 to measure the watcher's delay")
	}
	saves, debounce := 50, watch.DefaultDebounce
	if v, err := strconv.Atoi(os.Getenv("ORACULO_WATCH_SAVES")); err == nil && v > 0 {
		saves = v
	}
	if v, err := time.ParseDuration(os.Getenv("ORACULO_WATCH_DEBOUNCE")); err == nil && v > 0 {
		debounce = v
	}
	ctx := context.Background()
	root := t.TempDir()
	if n, _ := strconv.Atoi(os.Getenv("ORACULO_WATCH_SESSIONS")); n > 0 {
		if _, err := synth.Write(root, n, 10, 120); err != nil {
			t.Fatal(err)
		}
	} else if err := os.CopyFS(root, os.DirFS("../examples/campaign")); err != nil {
		t.Fatal(err)
	}
	eng, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	start := time.Now()
	rep, err := eng.Ingest(ctx, []string{root}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ingested %d files in %s", rep.Files, time.Since(start).Round(time.Millisecond))
	h := New(Config{Engine: eng})
	if err := h.Watch(ctx, watch.Config{Debounce: debounce}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer func() { ts.Close(); h.Close() }()
	idle := func() {
		waitUntil(t, "the watcher to settle", time.Now().Add(time.Minute), func() bool {
			s := h.watchStatus(true)
			return s.State == watch.StateWatching && s.Pending == 0 && !s.Updating
		})
	}
	idle()

	note := filepath.Join(root, "Medida.md")
	var delays []time.Duration
	for i := range saves {
		word := "Medidor" + synth.Name(i+1000)
		saved := time.Now()
		if err := os.WriteFile(note, []byte(fmt.Sprintf("# Medida %d\n\nEl cronista %s anota la hora.\n", i, word)), 0o644); err != nil {
			t.Fatal(err)
		}
		for !slices.Contains(searchFiles(t, ts, word), "Medida.md") {
			if time.Since(saved) > time.Minute {
				t.Fatalf("save %d not searchable after a minute", i)
			}
			time.Sleep(5 * time.Millisecond)
		}
		delays = append(delays, time.Since(saved))
		idle()
	}
	slices.Sort(delays)
	p := func(q float64) time.Duration {
		return delays[min(len(delays)-1, int(q*float64(len(delays))))].Round(time.Millisecond)
	}
	t.Logf("debounce %s, %d files, %d saves: save to searchable median %s, p95 %s, min %s, max %s",
		debounce, rep.Files, saves, p(0.5), p(0.95), delays[0].Round(time.Millisecond), delays[len(delays)-1].Round(time.Millisecond))
}
