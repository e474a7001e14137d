// Package watch keeps an index in step with the folders it was ingested
// from: it watches them for changes (recursively, as folders appear and
// go) and, once a burst of changes has been quiet for a debounce, asks for
// one update. Hidden files and folders (.obsidian, .git, .oraculo) are
// ignored as the ingest ignores them, and so are the paths it is told to
// ignore (the index's own files), and so are the notes an Obsidian
// vault's own settings leave out of an ingest (its templates folder, its
// "Excluded files": see [ingest.ReadVault]); a change to those settings
// makes the next update read the folders again whole, with them. When the system's limit on watches is
// reached it falls back to rescanning the folders periodically.
//
// The update itself is the caller's: the engine's ingest is incremental
// (unchanged files are hashed, not re-read into chunks), so a [Batch]
// names the changed paths for the record and a caller may simply bring
// the whole folders up to date.
package watch

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/oraculo/oraculo/ingest"
)

// Defaults for [Config].
const (
	DefaultDebounce  = 2 * time.Second
	DefaultPollEvery = 30 * time.Second
)

// States of a watcher, as [Status.State] says them.
const (
	StateStarting = "starting"
	StateWatching = "watching"
	StatePolling  = "polling"
	StateStopped  = "stopped"
	// StateOff is what a server without a watcher reports.
	StateOff = "off"
)

// ErrLimit is the cause of a fallback to rescans: the system would not
// watch one more folder (inotify's max_user_watches or max_user_instances).
var ErrLimit = errors.New("the system's limit on watched folders was reached")

// Batch is what changed since the last update.
type Batch struct {
	// Paths are the changed files and folders (absolute, sorted); a
	// removed or renamed folder stands for everything it held.
	Paths []string
	// Rescan is set when anything may have changed (a periodic rescan, or
	// events lost to an overflow): the folders must be read again whole.
	Rescan bool
}

// Config configures a [Watcher].
type Config struct {
	// Roots are the folders watched, recursively.
	Roots []string
	// Debounce is how long changes must be quiet before an update
	// (default DefaultDebounce): an editor's burst of writes is one update.
	Debounce time.Duration
	// PollEvery is the period of the rescans when changes cannot be
	// watched (default DefaultPollEvery).
	PollEvery time.Duration
	// Poll rescans every PollEvery instead of watching (for file systems
	// that do not report changes, such as network shares).
	Poll bool
	// Ignore are paths never reacted to, nor anything under them or
	// named with them as a prefix: the index's file, its journal and its
	// graph folder when they lie in a watched folder.
	Ignore []string
	// Update brings the index up to date with a batch of changes. It is
	// called from one goroutine at a time; changes that arrive meanwhile
	// make the next batch. A failed update is tried again later.
	Update func(ctx context.Context, b Batch) error
	// Vault says which of an Obsidian vault's own exclusions the ingest
	// overrides: the notes it leaves out are not reacted to either.
	Vault ingest.VaultOptions
	// OnPolling, when set, is told once why the watcher fell back to
	// rescans.
	OnPolling func(reason error)
	// OnStarted, when set, is called once the folders are watched (or
	// rescanned): a change made after it returns is seen.
	OnStarted func()
}

// Status is a watcher's state.
type Status struct {
	// State is StateStarting, StateWatching, StatePolling or StateStopped.
	State string   `json:"state"`
	Roots []string `json:"roots,omitempty"`
	// LastUpdate is when the last successful update ended.
	LastUpdate *time.Time `json:"last_update,omitempty"`
	// Updates counts the successful updates.
	Updates int `json:"updates"`
	// Pending is how many changed paths wait for the next update.
	Pending int `json:"pending"`
	// Updating is set while an update runs.
	Updating bool `json:"updating"`
	// Error is why the last update failed ("" once one succeeds);
	// Warning why the watcher polls.
	Error   string `json:"error,omitempty"`
	Warning string `json:"warning,omitempty"`
}

// Watcher watches folders and calls [Config.Update] after changes. Its
// methods are safe for concurrent use.
type Watcher struct {
	cfg Config

	mu     sync.Mutex
	status Status

	// add watches one folder; tests stand in for it to force the limit.
	add func(fsw *fsnotify.Watcher, dir string) error

	// started is closed once the folders are watched (or rescanned).
	started     chan struct{}
	startedOnce sync.Once
}

// Started is closed once [Watcher.Run] watches the folders (or rescans
// them), as OnStarted is called: a change made after it is seen.
func (w *Watcher) Started() <-chan struct{} { return w.started }

// New returns a watcher for cfg; [Watcher.Run] starts it.
func New(cfg Config) (*Watcher, error) {
	if len(cfg.Roots) == 0 {
		return nil, errors.New("watch: no folder to watch")
	}
	if cfg.Update == nil {
		return nil, errors.New("watch: no update function")
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	if cfg.PollEvery <= 0 {
		cfg.PollEvery = DefaultPollEvery
	}
	roots := make([]string, len(cfg.Roots))
	for i, r := range cfg.Roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("watch: resolving folder %q: %w", r, err)
		}
		roots[i] = filepath.Clean(abs)
	}
	cfg.Roots = roots
	ignore := make([]string, 0, len(cfg.Ignore))
	for _, p := range cfg.Ignore {
		abs, err := filepath.Abs(p)
		if err != nil || p == "" {
			continue
		}
		ignore = append(ignore, abs)
		// The roots may be named through a symbolic link, and the file not.
		if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil && dir != filepath.Dir(abs) {
			ignore = append(ignore, filepath.Join(dir, filepath.Base(abs)))
		}
	}
	cfg.Ignore = ignore
	w := &Watcher{cfg: cfg, add: func(fsw *fsnotify.Watcher, dir string) error { return fsw.Add(dir) }, started: make(chan struct{})}
	w.status = Status{State: StateStarting, Roots: append([]string(nil), roots...)}
	return w, nil
}

// Status returns the watcher's state now.
func (w *Watcher) Status() Status {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.status
	s.Roots = append([]string(nil), s.Roots...)
	if s.LastUpdate != nil {
		t := *s.LastUpdate
		s.LastUpdate = &t
	}
	return s
}

func (w *Watcher) setStatus(f func(*Status)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(&w.status)
}

// Run watches until ctx ends, then waits for an update in progress (whose
// context it cancels) and returns nil. It returns an error only when it
// cannot start.
func (w *Watcher) Run(ctx context.Context) error {
	r := w.newRun()
	defer w.setStatus(func(s *Status) { s.State, s.Updating = StateStopped, false })
	r.timer = time.NewTimer(time.Hour)
	r.timer.Stop()
	defer r.timer.Stop()
	defer func() {
		if r.ticker != nil {
			r.ticker.Stop()
		}
	}()

	var events <-chan fsnotify.Event
	var errs <-chan error
	if w.cfg.Poll {
		r.poll(nil)
	} else {
		fsw, err := fsnotify.NewWatcher()
		if err != nil {
			r.poll(fmt.Errorf("%w: %w", ErrLimit, err))
		} else {
			r.fsw = fsw
			defer fsw.Close()
			events, errs = fsw.Events, fsw.Errors
			for _, root := range w.cfg.Roots {
				if err := r.addTree(root, false); err != nil {
					r.poll(err)
					break
				}
				r.watchSettings(root)
			}
		}
	}
	if r.ticker == nil {
		w.setStatus(func(s *Status) { s.State = StateWatching })
	}
	if w.cfg.OnStarted != nil {
		w.cfg.OnStarted()
	}
	w.startedOnce.Do(func() { close(w.started) })
	var tick <-chan time.Time

	for {
		// The fallback to rescans may begin at the start or while handling
		// an event (a new folder over the limit).
		if tick == nil && r.ticker != nil {
			tick = r.ticker.C
		}
		select {
		case <-ctx.Done():
			if r.updating {
				<-r.done
			}
			return nil
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			r.event(ev)
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			// Events were lost: only a whole rescan is sure to see them.
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				r.rescan = true
				r.schedule(time.Now())
			}
			w.setStatus(func(s *Status) { s.Error = err.Error() })
		case <-tick:
			// A rescan whose folders look as they did at the last one
			// (the same files, sizes and times) is not worth an update.
			if fp := r.fingerprint(); fp != r.lastPrint || r.rescan {
				r.lastPrint = fp
				r.rescan = true
				if !r.updating {
					r.start(ctx)
				}
			}
		case <-r.timer.C:
			if !r.updating && (len(r.pending) > 0 || r.rescan) {
				r.start(ctx)
			}
		case err := <-r.done:
			r.finish(err)
		}
		w.setStatus(func(s *Status) { s.Pending = r.count() })
	}
}

// newRun is the state of a run that starts, with what each root's
// Obsidian settings leave out now.
func (w *Watcher) newRun() *run {
	r := &run{w: w, cfg: w.cfg, pending: map[string]bool{}, dirs: map[string]bool{}, done: make(chan error, 1), vaults: map[string]*ingest.Vault{}}
	for _, root := range w.cfg.Roots {
		r.vaults[root] = ingest.ReadVault(root, w.cfg.Vault)
	}
	return r
}

// run is the state of one [Watcher.Run], owned by its goroutine.
type run struct {
	w      *Watcher
	cfg    Config
	fsw    *fsnotify.Watcher
	dirs   map[string]bool // the folders watched
	ticker *time.Ticker    // set once polling

	pending      map[string]bool
	rescan       bool
	firstPending time.Time
	lastEvent    time.Time
	timer        *time.Timer

	updating bool
	batch    Batch
	done     chan error
	// lastPrint is the folders' fingerprint at the last rescan.
	lastPrint string
	// vaults are what each root's Obsidian settings leave out.
	vaults map[string]*ingest.Vault
}

// fingerprint sums up the folders as a rescan would see them: every
// folder and relevant file, with its size and time.
func (r *run) fingerprint() string {
	h := fnv.New64a()
	for _, root := range r.cfg.Roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				fmt.Fprintf(h, "%s\x00error\x00", p)
				return nil
			}
			if r.ignored(p) {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.IsDir() && (!relevant(d.Name()) || r.excluded(p)) {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				fmt.Fprintf(h, "%s\x00gone\x00", p)
				return nil
			}
			fmt.Fprintf(h, "%s\x00%d\x00%d\x00", p, fi.Size(), fi.ModTime().UnixNano())
			return nil
		})
		for _, f := range ingest.ObsidianSettingsFiles {
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
				fmt.Fprintf(h, "%s\x00%d\x00%d\x00", f, fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// count is how many changes wait, a rescan counting as one.
func (r *run) count() int {
	n := len(r.pending)
	if r.rescan && n == 0 {
		n = 1
	}
	return n
}

// poll falls back to rescans every PollEvery, keeping whatever watches
// there are; reason is nil when rescans were asked for.
func (r *run) poll(reason error) {
	if r.ticker != nil {
		return
	}
	r.ticker = time.NewTicker(r.cfg.PollEvery)
	warning := ""
	if reason != nil {
		warning = fmt.Sprintf("%v: rescanning the folders every %s instead", reason, r.cfg.PollEvery)
		if r.cfg.OnPolling != nil {
			r.cfg.OnPolling(reason)
		}
	}
	r.w.setStatus(func(s *Status) { s.State, s.Warning = StatePolling, warning })
	// What changed while the watches were being set up is found by a rescan.
	r.lastPrint = r.fingerprint()
	r.rescan = true
	r.schedule(time.Now())
}

// ignored reports whether a path is never reacted to: hidden below its
// root, outside every root, or one of the index's own.
func (r *run) ignored(p string) bool {
	for _, ig := range r.cfg.Ignore {
		if ig != "" && strings.HasPrefix(p, ig) {
			return true
		}
	}
	for _, root := range r.cfg.Roots {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if rel == "." {
			return false
		}
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			if strings.HasPrefix(part, ".") {
				return true
			}
		}
		return false
	}
	return true
}

// relevant reports whether a file's name is one the ingest reads.
func relevant(name string) bool {
	return ingest.IsNoteFile(name) // notes and documents alike
}

// addTree watches dir and every folder under it. Called for a folder that
// appeared (fresh), it also marks the files already in it as changed:
// they may have been written before the watch was in place. Only the
// system's limit is an error; a folder that cannot be read is left out.
func (r *run) addTree(dir string, fresh bool) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && p != dir {
				return fs.SkipDir
			}
			return nil
		}
		if r.ignored(p) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			if fresh && relevant(d.Name()) && !r.excluded(p) {
				r.mark(p)
			}
			return nil
		}
		if r.dirs[p] {
			return nil
		}
		if r.excludedFolder(p) {
			return fs.SkipDir // every note in it is left out: not worth a watch
		}
		if err := r.w.add(r.fsw, p); err != nil {
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
				return fmt.Errorf("%w: watching %q: %w", ErrLimit, p, err)
			}
			return nil
		}
		r.dirs[p] = true
		return nil
	})
}

// event takes one change reported by the system.
func (r *run) event(ev fsnotify.Event) {
	p := filepath.Clean(ev.Name)
	if ev.Op == fsnotify.Chmod || r.settingsChanged(p) || r.ignored(p) {
		return
	}
	switch {
	case ev.Has(fsnotify.Create):
		fi, err := os.Lstat(p)
		if err == nil && fi.IsDir() {
			if r.excludedFolder(p) {
				return
			}
			if r.ticker == nil {
				if err := r.addTree(p, true); err != nil {
					r.poll(err)
				}
			}
			r.mark(p)
			return
		}
		if relevant(p) && !r.excluded(p) {
			r.mark(p)
		}
	case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
		if r.dirs[p] {
			r.forget(p)
			r.mark(p)
			return
		}
		if relevant(p) && !r.excluded(p) {
			r.mark(p)
		}
	case ev.Has(fsnotify.Write):
		if relevant(p) && !r.excluded(p) {
			r.mark(p)
		}
	}
}

// forget stops watching a folder that was removed or renamed, and every
// folder under it.
func (r *run) forget(dir string) {
	prefix := dir + string(filepath.Separator)
	for d := range r.dirs {
		if d == dir || strings.HasPrefix(d, prefix) {
			delete(r.dirs, d)
			// The system drops the watch of a removed or moved folder
			// itself; this is for the folders it does not tell about.
			_ = r.fsw.Remove(d)
		}
	}
}

// mark records a changed path and schedules the update.
func (r *run) mark(p string) {
	now := time.Now()
	r.pending[p] = true
	r.lastEvent = now
	if r.firstPending.IsZero() {
		r.firstPending = now
	}
	r.schedule(now)
}

// schedule sets the timer for the end of the debounce after the last
// change, but no later than ten debounces after the first pending one, so
// that a folder that never stops changing is still updated.
func (r *run) schedule(now time.Time) {
	at := r.lastEvent.Add(r.cfg.Debounce)
	if r.lastEvent.IsZero() {
		at = now
	}
	if !r.firstPending.IsZero() {
		if limit := r.firstPending.Add(10 * r.cfg.Debounce); at.After(limit) {
			at = limit
		}
	}
	r.timer.Reset(max(time.Until(at), 0))
}

// start runs an update of what is pending in its own goroutine.
func (r *run) start(ctx context.Context) {
	b := Batch{Rescan: r.rescan}
	for p := range r.pending {
		b.Paths = append(b.Paths, p)
	}
	sort.Strings(b.Paths)
	r.batch = b
	r.pending, r.rescan, r.firstPending = map[string]bool{}, false, time.Time{}
	r.updating = true
	r.w.setStatus(func(s *Status) { s.Updating = true })
	go func() {
		defer func() {
			if v := recover(); v != nil {
				r.done <- fmt.Errorf("watch: panic in the update: %v", v)
			}
		}()
		r.done <- r.cfg.Update(ctx, b)
	}()
}

// finish records how an update went; a failed one's changes wait for the
// next, which comes at the latest a retry delay later.
func (r *run) finish(err error) {
	r.updating = false
	now := time.Now()
	if err != nil {
		r.lastPrint = ""
		for _, p := range r.batch.Paths {
			r.pending[p] = true
		}
		r.rescan = r.rescan || r.batch.Rescan
		if r.firstPending.IsZero() {
			r.firstPending = now
		}
		r.lastEvent = now.Add(min(max(5*r.cfg.Debounce, time.Second), 30*time.Second) - r.cfg.Debounce)
		r.w.setStatus(func(s *Status) { s.Updating, s.Error = false, err.Error() })
		r.timer.Reset(time.Until(r.lastEvent.Add(r.cfg.Debounce)))
		return
	}
	r.w.setStatus(func(s *Status) { s.Updating, s.Error, s.LastUpdate = false, "", &now; s.Updates++ })
	if len(r.pending) > 0 || r.rescan {
		r.schedule(now)
	}
}

// rootOf is the watched root a path lies in, and the path relative to it
// with forward slashes; ok is false outside every root.
func (r *run) rootOf(p string) (root, rel string, ok bool) {
	for _, root := range r.cfg.Roots {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		return root, filepath.ToSlash(rel), true
	}
	return "", "", false
}

// excluded reports whether the file at p is a note its vault's Obsidian
// settings leave out of an ingest: a change to it changes nothing.
func (r *run) excluded(p string) bool {
	root, rel, ok := r.rootOf(p)
	if !ok {
		return false
	}
	_, _, ex := r.vaults[root].Excludes(rel)
	return ex
}

// excludedFolder reports whether every note under the folder at p is
// left out by its vault's Obsidian settings (see [ingest.Vault.ExcludesFolder]).
func (r *run) excludedFolder(p string) bool {
	root, rel, ok := r.rootOf(p)
	return ok && r.vaults[root].ExcludesFolder(rel)
}

// watchSettings watches the folders of root's Obsidian settings files
// (when root is a vault), so that a change to them is seen.
func (r *run) watchSettings(root string) {
	for _, f := range ingest.ObsidianSettingsFiles {
		dir := filepath.Dir(filepath.Join(root, filepath.FromSlash(f)))
		if r.dirs[dir] {
			continue
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		if err := r.w.add(r.fsw, dir); err == nil {
			r.dirs[dir] = true
		}
	}
}

// settingsChanged takes a change to one of a vault's Obsidian settings
// files: what the vault leaves out is read again, and the next update
// reads the folders whole (notes now excluded leave the index, notes no
// longer excluded enter it). It reports whether p was one.
func (r *run) settingsChanged(p string) bool {
	root, rel, ok := r.rootOf(p)
	if !ok || !slices.Contains(ingest.ObsidianSettingsFiles, rel) {
		return false
	}
	r.vaults[root] = ingest.ReadVault(root, r.cfg.Vault)
	// The folders no longer left out are watched now.
	if r.fsw != nil && r.ticker == nil {
		if err := r.addTree(root, false); err != nil {
			r.poll(err)
		}
	}
	r.rescan = true
	now := time.Now()
	r.lastEvent = now
	if r.firstPending.IsZero() {
		r.firstPending = now
	}
	r.schedule(now)
	return true
}
