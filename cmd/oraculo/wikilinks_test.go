package main

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/oraculo/oraculo/internal/synth"
)

// TestIngestOfHugeLinkNoteStopsOnSignal starts real ingest processes on a
// vault whose index note holds 20,000 distinct wikilinks and, once the
// notes are read and the compendium is being built (its progress line is
// out), sends SIGTERM (then,
// on a second run, SIGINT): each must stop within a second (a margin is
// allowed for a loaded machine) with exit status 130, leave a consistent
// index, and a run after it must complete with every link an entity.
// The compendium's mention search was quadratic in such a note and did not
// look at the context: an ingest took minutes and ignored the signal.
func TestIngestOfHugeLinkNoteStopsOnSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("process test skipped in -short mode")
	}
	const links = 20000
	notes := t.TempDir()
	if _, err := synth.WriteLinkIndex(notes, links); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "o.db")
			cmd, percent, finish := ingestProcess(t, db, notes)
			// The progress lines: reading the notes up to 100%, then the
			// compendium stage from 0%. Without that stage's line (an
			// ingest that does not report it) the signal goes 20 s after
			// the reading, when the compendium is being built.
			read, busy := false, false
			var fallback <-chan time.Time
		wait:
			for !busy {
				select {
				case p, ok := <-percent:
					switch {
					case !ok:
						break wait
					case !read && p == 100:
						read, fallback = true, time.After(20*time.Second)
					case read && p == 0:
						busy = true
					}
				case <-fallback:
					busy = true
				}
			}
			if !busy {
				log, err := finish()
				t.Fatalf("the ingest ended (%v) before its compendium stage could be interrupted:\n%s", err, log)
			}
			time.Sleep(300 * time.Millisecond)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatalf("the ingest ended before the signal (%v): the test would measure nothing", err)
			}
			start := time.Now()
			done := make(chan struct{})
			var log string
			var err error
			go func() {
				log, err = finish()
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("%v: the ingest had not stopped %v after the signal (killed); log:\n%s", sig, time.Since(start).Round(time.Millisecond), log)
			}
			waited := time.Since(start)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 130 {
				t.Fatalf("%v: ingest ended with %v after the signal, want exit status 130; log:\n%s", sig, err, log)
			}
			// A second on a loaded machine, with a margin for the
			// scheduler: before the fix it took tens of seconds.
			if waited > 2*time.Second {
				t.Errorf("%v: the ingest took %v to stop; want within a second", sig, waited.Round(time.Millisecond))
			}
			t.Logf("%v: stopped %v after the signal", sig, waited.Round(time.Millisecond))
			if err := checkIndex(ctx, db); err != nil {
				t.Fatalf("%v: the index after the signal: %v", sig, err)
			}
			out, stderr, code := runCLI(t, "", "ingest", "--quiet", "--json", "--db", db, notes)
			if code != 0 {
				t.Fatalf("%v: the ingest after the signal failed: %s", sig, stderr)
			}
			var rep struct {
				Entities int `json:"entities"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v: reading the report %q: %v", sig, out, err)
			}
			if rep.Entities < links {
				t.Errorf("%v: the ingest after the signal left %d entities; want every one of the %d links", sig, rep.Entities, links)
			}
			if err := checkIndex(ctx, db); err != nil {
				t.Fatalf("%v: the index after the second ingest: %v", sig, err)
			}
		})
	}
}
