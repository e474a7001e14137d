package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// recorder is an Update that records its batches.
type recorder struct {
	mu      sync.Mutex
	batches []Batch
	fail    int // how many calls fail before one succeeds
}

func (r *recorder) update(ctx context.Context, b Batch) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.batches = append(r.batches, b)
	if r.fail > 0 {
		r.fail--
		return errors.New("the index is busy")
	}
	return nil
}

func (r *recorder) calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.batches)
}

// paths are every path the batches named.
func (r *recorder) paths() map[string]bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]bool{}
	for _, b := range r.batches {
		for _, p := range b.Paths {
			out[p] = true
		}
	}
	return out
}

// start runs a watcher of root until the test ends, and waits until it
// watches (or polls).
func start(t *testing.T, cfg Config, tweak func(*Watcher)) (*Watcher, func()) {
	t.Helper()
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tweak != nil {
		tweak(w)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the watcher did not stop")
		}
	}
	t.Cleanup(stop)
	waitFor(t, "the watcher to start", func() bool {
		s := w.Status().State
		return s == StateWatching || s == StatePolling
	})
	return w, stop
}

// waitFor polls cond until it holds, failing the test after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// settled waits until the watcher has nothing pending nor running and
// has made at least n updates.
func settled(t *testing.T, w *Watcher, rec *recorder, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d updates", n), func() bool {
		s := w.Status()
		return rec.calls() >= n && s.Pending == 0 && !s.Updating
	})
}

func TestBurstIsOneUpdate(t *testing.T) {
	root := t.TempDir()
	rec := &recorder{}
	w, _ := start(t, Config{Roots: []string{root}, Debounce: time.Second, Update: rec.update}, nil)
	note := filepath.Join(root, "Sesión 1.md")
	for i := range 20 {
		write(t, note, strings.Repeat("palabra ", i+1))
		time.Sleep(5 * time.Millisecond)
	}
	settled(t, w, rec, 1)
	// Quiet for three debounces: no second update.
	time.Sleep(3 * time.Second)
	if n := rec.calls(); n != 1 {
		t.Fatalf("20 writes in a burst made %d updates, want 1: %+v", n, rec.batches)
	}
	if got := rec.batches[0].Paths; !slices.Equal(got, []string{note}) {
		t.Errorf("batch = %q, want the note", got)
	}
	if s := w.Status(); s.Updates != 1 || s.LastUpdate == nil || s.Error != "" {
		t.Errorf("status after the update: %+v", s)
	}
}

func TestManyFilesAtOnce(t *testing.T) {
	root := t.TempDir()
	rec := &recorder{}
	w, _ := start(t, Config{Roots: []string{root}, Debounce: 100 * time.Millisecond, Update: rec.update}, nil)
	var want []string
	for i := range 50 {
		p := filepath.Join(root, fmt.Sprintf("n%02d.md", i))
		write(t, p, "texto")
		want = append(want, p)
	}
	waitFor(t, "every file in a batch", func() bool {
		got := rec.paths()
		for _, p := range want {
			if !got[p] {
				return false
			}
		}
		return true
	})
	settled(t, w, rec, 1)
}

func TestFoldersAppearAndGo(t *testing.T) {
	root := t.TempDir()
	rec := &recorder{}
	w, _ := start(t, Config{Roots: []string{root}, Debounce: 100 * time.Millisecond, Update: rec.update}, nil)

	// A nested folder made at once, with a note in it before any watch
	// could be placed there.
	deep := filepath.Join(root, "a", "b", "c")
	first := filepath.Join(deep, "uno.md")
	write(t, first, "uno")
	waitFor(t, "the note in the new folder", func() bool { return rec.paths()[first] })
	settled(t, w, rec, 1)
	// The new folder is watched now.
	second := filepath.Join(deep, "dos.md")
	write(t, second, "dos")
	waitFor(t, "a note written later in the new folder", func() bool { return rec.paths()[second] })

	// Renamed, then removed: each is a change of the folder.
	moved := filepath.Join(root, "z")
	if err := os.Rename(filepath.Join(root, "a"), moved); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the renamed folder", func() bool { g := rec.paths(); return g[filepath.Join(root, "a")] && g[moved] })
	settled(t, w, rec, 1)
	third := filepath.Join(moved, "b", "c", "tres.md")
	write(t, third, "tres")
	waitFor(t, "a note in the renamed folder", func() bool { return rec.paths()[third] })
	settled(t, w, rec, 1)
	if err := os.RemoveAll(moved); err != nil {
		t.Fatal(err)
	}
	before := rec.calls()
	settled(t, w, rec, before+1)
}

func TestAtomicSaves(t *testing.T) {
	root := t.TempDir()
	rec := &recorder{}
	w, _ := start(t, Config{Roots: []string{root}, Debounce: 100 * time.Millisecond, Update: rec.update}, nil)
	note := filepath.Join(root, "nota.md")
	write(t, note, "v1")
	settled(t, w, rec, 1)

	saves := []struct {
		name string
		save func() error
	}{
		{"temp then rename over", func() error {
			tmp := filepath.Join(root, "nota.md.tmp123")
			if err := os.WriteFile(tmp, []byte("v2"), 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, note)
		}},
		{"hidden temp then rename over", func() error {
			tmp := filepath.Join(root, ".nota.md.swp")
			if err := os.WriteFile(tmp, []byte("v3"), 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, note)
		}},
		{"vim: backup by rename, write anew, remove the backup", func() error {
			backup := note + "~"
			if err := os.Rename(note, backup); err != nil {
				return err
			}
			if err := os.WriteFile(note, []byte("v4"), 0o644); err != nil {
				return err
			}
			return os.Remove(backup)
		}},
	}
	for _, s := range saves {
		rec.mu.Lock()
		rec.batches = nil
		rec.mu.Unlock()
		if err := s.save(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, s.name, func() bool { return rec.paths()[note] })
		settled(t, w, rec, 1)
		for p := range rec.paths() {
			if p != note {
				t.Errorf("%s: the batch names %q, not a note", s.name, p)
			}
		}
	}
}

func TestIgnoresHiddenAndIndexFiles(t *testing.T) {
	root := t.TempDir()
	db := filepath.Join(root, "index.db")
	rec := &recorder{}
	write(t, filepath.Join(root, ".obsidian", "workspace.md"), "x")
	w, _ := start(t, Config{Roots: []string{root}, Debounce: 100 * time.Millisecond, Update: rec.update, Ignore: []string{db}}, nil)
	write(t, filepath.Join(root, ".obsidian", "workspace.md"), "y")
	write(t, filepath.Join(root, ".git", "notes", "x.md"), "y")
	write(t, db, "sqlite")
	write(t, db+"-wal", "sqlite")
	write(t, filepath.Join(db+".graphs", "g.md"), "graph")
	write(t, filepath.Join(root, "imagen.png"), "png")
	// Then a note: its batch must be the only one, and name only it.
	time.Sleep(300 * time.Millisecond)
	note := filepath.Join(root, "nota.md")
	write(t, note, "texto")
	settled(t, w, rec, 1)
	time.Sleep(300 * time.Millisecond)
	if got := rec.paths(); len(got) != 1 || !got[note] || rec.calls() != 1 {
		t.Errorf("batches %+v, want one naming only %q", rec.batches, note)
	}
}

func TestFailedUpdateIsRetried(t *testing.T) {
	root := t.TempDir()
	rec := &recorder{fail: 1}
	w, _ := start(t, Config{Roots: []string{root}, Debounce: 100 * time.Millisecond, Update: rec.update}, nil)
	note := filepath.Join(root, "nota.md")
	write(t, note, "texto")
	waitFor(t, "the failure", func() bool { return w.Status().Error != "" })
	if s := w.Status(); s.Pending != 1 || s.Updates != 0 {
		t.Errorf("after a failed update: %+v, want the note pending", s)
	}
	settled(t, w, rec, 2)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if !slices.Equal(rec.batches[1].Paths, []string{note}) {
		t.Errorf("the retry's batch = %q", rec.batches[1].Paths)
	}
	if s := w.Status(); s.Error != "" || s.Updates != 1 {
		t.Errorf("after the retry: %+v", s)
	}
}

// TestFallsBackToPolling forces the system's limit: the watcher polls,
// says why, and its rescans find the changes.
func TestFallsBackToPolling(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "sub", "a.md"), "a")
	rec := &recorder{}
	var reason error
	var mu sync.Mutex
	cfg := Config{Roots: []string{root}, Debounce: 50 * time.Millisecond, PollEvery: 100 * time.Millisecond, Update: rec.update,
		OnPolling: func(err error) { mu.Lock(); reason = err; mu.Unlock() }}
	added := 0
	w, _ := start(t, cfg, func(w *Watcher) {
		w.add = func(fsw *fsnotify.Watcher, dir string) error {
			if added++; added > 1 { // the root is watched, its folder is one too many
				return fmt.Errorf("inotify_add_watch: %w", syscall.ENOSPC)
			}
			return fsw.Add(dir)
		}
	})
	s := w.Status()
	if s.State != StatePolling || !strings.Contains(s.Warning, "limit") || !strings.Contains(s.Warning, "every 100ms") {
		t.Errorf("status = %+v, want polling with a warning", s)
	}
	mu.Lock()
	if !errors.Is(reason, ErrLimit) || !errors.Is(reason, syscall.ENOSPC) {
		t.Errorf("OnPolling got %v", reason)
	}
	mu.Unlock()
	rescans := func() int {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		n := 0
		for _, b := range rec.batches {
			if b.Rescan {
				n++
			}
		}
		return n
	}
	// One rescan at the fallback, then one for each change, in the
	// folder left unwatched too.
	settled(t, w, rec, 1)
	for i, p := range []string{filepath.Join(root, "sub", "b.md"), filepath.Join(root, "sub", "a.md"), filepath.Join(root, "c.md")} {
		write(t, p, "cambio")
		waitFor(t, fmt.Sprintf("rescan %d", i+2), func() bool { return rescans() >= i+2 })
		settled(t, w, rec, i+2)
	}
	// Nothing changes: ticks without updates.
	n := rec.calls()
	time.Sleep(500 * time.Millisecond)
	if rec.calls() != n {
		t.Errorf("rescans of unchanged folders made %d updates", rec.calls()-n)
	}
}

func TestPollOnly(t *testing.T) {
	root := t.TempDir()
	rec := &recorder{}
	w, _ := start(t, Config{Roots: []string{root}, Poll: true, PollEvery: 50 * time.Millisecond, Update: rec.update}, nil)
	if s := w.Status(); s.State != StatePolling || s.Warning != "" {
		t.Errorf("status = %+v, want polling without a warning", s)
	}
	settled(t, w, rec, 1)
	write(t, filepath.Join(root, "nota.md"), "texto")
	settled(t, w, rec, 2)
	if got := rec.paths(); len(got) != 0 {
		t.Errorf("rescans name paths: %v", got)
	}
}

// TestStopsCleanly: cancelling Run cancels the update in progress, waits
// for it, and leaves no goroutine of the watcher or of fsnotify behind.
func TestStopsCleanly(t *testing.T) {
	root := t.TempDir()
	entered := make(chan struct{})
	var once sync.Once
	returned := make(chan error, 1)
	update := func(ctx context.Context, b Batch) error {
		once.Do(func() { close(entered) })
		<-ctx.Done()
		returned <- ctx.Err()
		return ctx.Err()
	}
	w, stop := start(t, Config{Roots: []string{root}, Debounce: 50 * time.Millisecond, Update: update}, nil)
	write(t, filepath.Join(root, "nota.md"), "texto")
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("no update started")
	}
	stop()
	select {
	case err := <-returned:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the update returned %v", err)
		}
	default:
		t.Fatal("Run returned before the update did")
	}
	if s := w.Status(); s.State != StateStopped || s.Updating {
		t.Errorf("status after stop: %+v", s)
	}
	waitFor(t, "the watcher's goroutines to end", func() bool {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		return !strings.Contains(stacks, "fsnotify") && !strings.Contains(stacks, "watch.(*Watcher).Run")
	})
}

// TestChangeAfterStartedIsSeen: OnStarted is called once the folders
// are watched, so a change made right after it, deep in a subfolder, is
// in the next batch (a command says "watching" from there).
func TestChangeAfterStartedIsSeen(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "Campaña", "Sesiones", "2026")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	started := make(chan struct{})
	calls := 0
	w, _ := start(t, Config{Roots: []string{root}, Debounce: 50 * time.Millisecond, Update: rec.update,
		OnStarted: func() { calls++; close(started) }}, nil)
	<-started
	note := filepath.Join(deep, "Sesión 9.md")
	write(t, note, "# Sesión 9\n")
	settled(t, w, rec, 1)
	if !rec.paths()[note] {
		t.Errorf("the note written right after OnStarted is in no batch: %+v", rec.batches)
	}
	if calls != 1 {
		t.Errorf("OnStarted called %d times, want 1", calls)
	}
}

// TestStartedIsClosed: Started is closed once the folders are watched,
// without an OnStarted, and a change made right after it is seen.
func TestStartedIsClosed(t *testing.T) {
	root := t.TempDir()
	rec := &recorder{}
	w, _ := start(t, Config{Roots: []string{root}, Debounce: 50 * time.Millisecond, Update: rec.update}, nil)
	select {
	case <-w.Started():
	case <-time.After(10 * time.Second):
		t.Fatal("Started was not closed")
	}
	note := filepath.Join(root, "Sesión 1.md")
	write(t, note, "# Sesión 1\n")
	settled(t, w, rec, 1)
	if !rec.paths()[note] {
		t.Errorf("the note written right after Started is in no batch: %+v", rec.batches)
	}
}
