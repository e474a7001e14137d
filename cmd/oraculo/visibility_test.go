package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/synth"
)

// dmMarker is in every DM-only note and in no other.
const dmMarker = "Clavesecretadelmaster"

// dmVault writes notes, a third of them DM-only in the ways people write
// it: the DM folder, a dm folder below the top, a Spanish front matter, a
// YAML list. Each DM note names dmMarker.
func dmVault(t *testing.T, notes int) (dir string, dmFiles []string) {
	t.Helper()
	dir = t.TempDir()
	for i := range notes {
		body := synth.Session(i+1, 300)
		var rel, front string
		switch i % 6 {
		case 0:
			rel = fmt.Sprintf("DM/trama %d.md", i)
		case 2:
			rel = fmt.Sprintf("Campaña/dm/secreto %d.md", i)
		case 4:
			rel, front = fmt.Sprintf("Sesiones/notas %d.md", i), "---\nVisibilidad: solo DM\n---\n"
		default:
			rel = fmt.Sprintf("Sesiones/sesión %d.md", i)
		}
		if i%6 == 4 && i%12 == 10 {
			front = "---\nvisibility: [gm]\n---\n"
		}
		if i%2 == 0 {
			body += fmt.Sprintf("\n%s %s guarda el secreto %d.\n", dmMarker, synth.Name(i), i)
			dmFiles = append(dmFiles, rel)
		}
		writeNote(t, filepath.Join(dir, rel), front+body)
	}
	return dir, dmFiles
}

// playerSees returns what of the DM notes a player reads in the index now
// (empty when nothing): searches for the marker and for a DM note's own
// words, every chunk, the compendium.
func playerSees(ctx context.Context, eng *oraculo.Engine, dmFiles []string) []string {
	ctx = oraculo.WithRole(ctx, oraculo.RolePlayer)
	var out []string
	for _, q := range []string{dmMarker, "secreto guarda " + dmMarker, "trama"} {
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 50})
		if err != nil {
			return append(out, "search error: "+err.Error())
		}
		for _, h := range hits {
			if strings.Contains(h.Text, dmMarker) {
				out = append(out, fmt.Sprintf("search %q: %s", q, h.File))
			}
		}
	}
	chunks, err := eng.Chunks(ctx, nil)
	if err != nil {
		return append(out, "chunks error: "+err.Error())
	}
	for _, c := range chunks {
		if strings.Contains(c.Text, dmMarker) {
			out = append(out, "chunks: "+c.File)
		}
	}
	for _, f := range dmFiles[:3] {
		if _, err := eng.Note(ctx, f); err == nil {
			out = append(out, "note: "+f)
		}
	}
	comp, err := eng.Compendium(ctx)
	if err != nil {
		return append(out, "compendium error: "+err.Error())
	}
	for _, en := range comp {
		if strings.Contains(en.Name, dmMarker) {
			out = append(out, "compendium: "+en.Name)
		}
	}
	return out
}

// ingestProcess starts a real `oraculo ingest` and returns it with a
// channel of its progress percentages and a function that waits for it to
// end and returns what it printed on stderr.
func ingestProcess(t *testing.T, db, notes string) (*exec.Cmd, <-chan int, func() (string, error)) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "ingest", "--db", db, notes)
	cmd.Env = append(os.Environ(), "ORACULO_TEST_MAIN=1", "ORACULO_UI_LANG=en")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	percent := make(chan int, 1000)
	var log strings.Builder
	re := regexp.MustCompile(`\((\d+)%\)`)
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer close(percent)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				n, _ := strconv.Atoi(m[1])
				select {
				case percent <- n:
				default:
				}
			}
		}
	}()
	return cmd, percent, func() (string, error) {
		<-read // every read from the pipe before Wait
		err := cmd.Wait()
		return log.String(), err
	}
}

// watch reads the index as a player, from this process, until stop is
// closed, and returns how many reads it made and what leaked.
func watch(t *testing.T, db string, dmFiles []string, stop <-chan struct{}) (func() (int, []string), <-chan struct{}) {
	var reads atomic.Int64
	first := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var leaks []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx := context.Background()
		var eng *oraculo.Engine
		defer func() {
			if eng != nil {
				eng.Close()
			}
		}()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if eng == nil {
				if _, err := os.Stat(db); err != nil {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				e, err := oraculo.Open(ctx, db)
				if err != nil {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				eng = e
			}
			seen := playerSees(ctx, eng, dmFiles)
			reads.Add(1)
			once.Do(func() { close(first) })
			if len(seen) > 0 {
				mu.Lock()
				leaks = append(leaks, seen...)
				mu.Unlock()
			}
		}
	}()
	return func() (int, []string) {
		<-done
		mu.Lock()
		defer mu.Unlock()
		return int(reads.Load()), leaks
	}, first
}

// TestPlayersNeverSeeDMNotesDuringIngest runs real ingest processes over a
// vault with DM-only notes and reads the index as a player meanwhile:
// while a first ingest runs, after it is killed with SIGKILL at a random
// moment, while an ingest of edited DM notes runs, and after that one is
// interrupted (SIGINT), stopped (SIGTERM) or killed. A player never sees a
// DM note.
func TestPlayersNeverSeeDMNotesDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("process test skipped in -short mode")
	}
	ctx := context.Background()
	notes, dmFiles := dmVault(t, 1200)
	db := filepath.Join(t.TempDir(), "o.db")
	check := func(when string) {
		t.Helper()
		eng, err := oraculo.Open(ctx, db)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		defer eng.Close()
		if err := checkIndex(ctx, db); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		st, err := eng.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.DMOnly.Notes == 0 {
			t.Fatalf("%s: no DM-only note in the index (%d notes): the check would see nothing", when, st.Documents)
		}
		for _, l := range playerSees(ctx, eng, dmFiles) {
			t.Errorf("%s: a player sees %s", when, l)
		}
		// The DM does: the check can fail.
		hits, err := eng.Search(ctx, dmMarker, oraculo.SearchOptions{K: 5})
		if err != nil || len(hits) == 0 {
			t.Fatalf("%s: the DM finds no DM note (%v)", when, err)
		}
	}
	run := func(name string, sig syscall.Signal, wantExit func(*exec.ExitError) bool) {
		t.Helper()
		at := 15 + rand.IntN(55) // percent
		stop := make(chan struct{})
		results, first := watch(t, db, dmFiles, stop)
		if _, err := os.Stat(db); err == nil {
			<-first // reading before the ingest starts
		}
		cmd, percent, finish := ingestProcess(t, db, notes)
		signalled := false
		for p := range percent {
			if p >= at {
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				signalled = true
				break
			}
		}
		start := time.Now()
		log, err := finish()
		waited := time.Since(start)
		close(stop)
		reads, leaks := results()
		for _, l := range leaks {
			t.Errorf("%s: while it ran, a player saw %s", name, l)
		}
		if !signalled {
			t.Fatalf("%s: the ingest finished before %d%%", name, at)
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) || !wantExit(exit) {
			t.Fatalf("%s: ingest ended with %v after the signal; log:\n%s", name, err, log)
		}
		if sig != syscall.SIGKILL && waited > 2*time.Second {
			t.Errorf("%s: ingest took %v to stop after the signal; want within a second", name, waited)
		}
		if reads == 0 {
			t.Errorf("%s: no player read while the ingest ran", name)
		}
		t.Logf("%s at %d%%: %d player reads while it ran, stopped %v after the signal", name, at, reads, waited.Round(time.Millisecond))
		check("after " + name)
	}
	killed := func(e *exec.ExitError) bool {
		ws, ok := e.Sys().(syscall.WaitStatus)
		return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
	}
	run("first ingest killed with SIGKILL", syscall.SIGKILL, killed)

	// Complete it, then edit every DM note and interrupt the re-ingest.
	if _, stderr, code := runCLI(t, "", "ingest", "--db", db, notes); code != 0 {
		t.Fatalf("completing ingest: %s", stderr)
	}
	check("after a complete ingest")
	for _, f := range dmFiles {
		p := filepath.Join(notes, f)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(data, "\nEditado tras la sesión.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cancelled := func(e *exec.ExitError) bool { return e.ExitCode() == 130 }
	run("re-ingest of edited DM notes interrupted with SIGINT", syscall.SIGINT, cancelled)
	run("re-ingest stopped with SIGTERM", syscall.SIGTERM, cancelled)
	run("re-ingest killed with SIGKILL", syscall.SIGKILL, killed)
}
