package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/visibility"
)

// memWriter is an in-memory store.DocumentWriter that records its writes.
type memWriter struct {
	mu   sync.Mutex
	docs map[string]*store.DocumentRecord // by root and path
	// log lists the writes: "put PATH" and "del PATH", in order.
	log []string
	// failOn names the path whose write fails.
	failOn string
	// batches are the sizes of the writes of ReplaceDocuments.
	batches []int
}

var _ store.DocumentWriter = (*memWriter)(nil)

func newMemWriter() *memWriter { return &memWriter{docs: map[string]*store.DocumentRecord{}} }

func (w *memWriter) DocumentStates(ctx context.Context, root string) (map[string]store.DocumentState, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]store.DocumentState{}
	for _, d := range w.docs {
		if d.Root == root {
			out[d.Path] = store.DocumentState{SHA256: d.SHA256, Stamp: d.Stamp}
		}
	}
	return out, nil
}

func (w *memWriter) ReplaceDocument(ctx context.Context, d *store.DocumentRecord) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	if d.Path == w.failOn {
		return fmt.Errorf("storing %q: %w", d.Path, errDiskFull)
	}
	w.docs[d.Root+"\x00"+d.Path] = d
	w.log = append(w.log, "put "+d.Path)
	return nil
}

func (w *memWriter) ReplaceDocuments(ctx context.Context, ds []*store.DocumentRecord) (int, error) {
	w.mu.Lock()
	w.batches = append(w.batches, len(ds))
	w.mu.Unlock()
	for i, d := range ds {
		if err := w.ReplaceDocument(ctx, d); err != nil {
			return i, err
		}
	}
	return len(ds), nil
}

func (w *memWriter) DeleteDocument(ctx context.Context, root, path string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.docs, root+"\x00"+path)
	w.log = append(w.log, "del "+path)
	return nil
}

func (w *memWriter) Redecide(ctx context.Context, decide store.Decider, meta map[string]string) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	changed := 0
	for _, d := range w.docs {
		dm, reason, detail := decide(store.VisibilityRecord{Root: d.Root, Path: d.Path, Link: d.Link, Metadata: d.Metadata, FrontRaw: d.FrontRaw})
		if dm != d.DMOnly {
			changed++
		}
		d.DMOnly, d.DMReason, d.DMDetail = dm, reason, detail
	}
	return changed, nil
}

func (w *memWriter) has(root, path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.docs[root+"\x00"+path]
	return ok
}

func (w *memWriter) takeLog() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.log
	w.log = nil
	return l
}

var errDiskFull = errors.New("disk full")

// testConfig cuts small chunks, keeps words as terms and makes the notes
// under DM/ DM-only, as the engine's rules do.
func testConfig() Config {
	rules := visibility.NewRules([]string{"DM"})
	return Config{
		Stamp:    "test-v1",
		Chunking: chunk.Options{MaxWords: 50, OverlapWords: 5, Lang: "es"},
		Terms:    strings.Fields,
		Decide: func(r store.VisibilityRecord) visibility.Decision {
			return rules.Decide(visibility.Note{Path: r.Path, Link: r.Link, RawFrontMatter: r.FrontRaw})
		},
		Workers: 4,
	}
}

// notesFolder writes a folder of n session notes and one DM note.
func notesFolder(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	for i := range n {
		writeNote(t, root, fmt.Sprintf("Sesiones/Sesion %03d.md", i+1), fmt.Sprintf("# Sesión %d\n\nEl grupo llega a la aldea %d y habla con Garrik.\n", i+1, i))
	}
	writeNote(t, root, "DM/secreto.md", "# Secreto\n\nGarrik es el espía.\n")
	writeNote(t, root, "mapa.png", "\x89PNG")
	return root
}

func writeNote(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestUpdate(t *testing.T) {
	ctx := context.Background()
	root := notesFolder(t, 30)
	w := newMemWriter()
	var progress []Progress
	cfg := testConfig()
	cfg.Progress = func(p Progress) { progress = append(progress, p) }
	res, err := Update(ctx, w, root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 31 || res.Indexed != 31 || res.Unchanged != 0 || res.Deleted != 0 || res.NewChunks != 31 {
		t.Errorf("first run: %+v", res)
	}
	if want := []Problem{{Root: root, Path: "mapa.png", Reason: string(ReasonUnsupported)}}; !reflect.DeepEqual(res.Skipped, want) {
		t.Errorf("skipped %+v, want %+v", res.Skipped, want)
	}
	// Written in path order whatever the workers' order.
	log := w.takeLog()
	if !slices.IsSorted(log) || len(log) != 31 || log[0] != "put DM/secreto.md" {
		t.Errorf("writes %q: want every note, in path order", log)
	}
	// The decision is in the note's own write.
	secret := w.docs[root+"\x00DM/secreto.md"]
	if !secret.DMOnly || secret.DMReason == "" || w.docs[root+"\x00Sesiones/Sesion 001.md"].DMOnly {
		t.Errorf("visibility not decided with the note: %+v", secret)
	}
	c := w.docs[root+"\x00Sesiones/Sesion 002.md"].Chunks[0]
	if len(c.UID) != 16 || len(c.Hash) != 64 || len(c.EmbedHash) != 64 || c.Session != 2 || !c.InSession ||
		len(c.Children) == 0 || !strings.Contains(c.Children[0].Terms, "Garrik") || c.HeadingTerms != "Sesion 002 Sesión 2" {
		t.Errorf("chunk record %+v", c)
	}
	if len(progress) != 31 || progress[30].Done != 31 || progress[30].Total != 31 || progress[30].Bytes != res.Bytes || progress[0].Path != "DM/secreto.md" {
		t.Errorf("progress %+v … %+v", progress[0], progress[len(progress)-1])
	}

	// Nothing changed: nothing written.
	res, err = Update(ctx, w, root, testConfig())
	if err != nil || res.Unchanged != 31 || res.Indexed != 0 || len(w.takeLog()) != 0 {
		t.Errorf("second run: %+v, %v", res, err)
	}
	// One note edited, one gone: one write, one removal.
	writeNote(t, root, "Sesiones/Sesion 003.md", "# Sesión 3\n\nOtra cosa.\n")
	if err := os.Remove(filepath.Join(root, "Sesiones", "Sesion 004.md")); err != nil {
		t.Fatal(err)
	}
	res, err = Update(ctx, w, root, testConfig())
	if want := []string{"put Sesiones/Sesion 003.md", "del Sesiones/Sesion 004.md"}; err != nil || !reflect.DeepEqual(w.takeLog(), want) ||
		res.Indexed != 1 || res.Deleted != 1 || res.Unchanged != 29 {
		t.Errorf("after an edit and a removal: %+v, %v", res, err)
	}
	// New settings: every note is redone.
	cfg = testConfig()
	cfg.Stamp = "test-v2"
	if res, err = Update(ctx, w, root, cfg); err != nil || res.Indexed != 30 {
		t.Errorf("new stamp: %+v, %v", res, err)
	}
}

// TestUpdateFailingFile: the error names the file, the notes before it are
// written, none after it, and nothing is removed.
func TestUpdateFailingFile(t *testing.T) {
	ctx := context.Background()
	root := notesFolder(t, 30)
	w := newMemWriter()
	if _, err := Update(ctx, w, root, testConfig()); err != nil {
		t.Fatal(err)
	}
	w.takeLog()
	if err := os.Remove(filepath.Join(root, "Sesiones", "Sesion 030.md")); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.Stamp = "test-v2"
	w.failOn = "Sesiones/Sesion 010.md"
	res, err := Update(ctx, w, root, cfg)
	if !errors.Is(err, errDiskFull) || !strings.Contains(err.Error(), `"Sesiones/Sesion 010.md"`) {
		t.Fatalf("error %v: want the store's error naming the file", err)
	}
	log := w.takeLog()
	if len(log) != 10 || log[9] != "put Sesiones/Sesion 009.md" || res.Indexed != 10 || res.Deleted != 0 {
		t.Errorf("after a failed write: writes %q, %+v", log, res)
	}

	// A file that cannot be cut: the first in path order is named,
	// whatever the workers' order.
	cfg.Stamp = "test-v3"
	cfg.Chunking.MaxWords = 0
	w.failOn = ""
	if _, err := Update(ctx, w, root, cfg); err == nil || !strings.HasPrefix(err.Error(), `chunking "DM/secreto.md": `) {
		t.Errorf("chunking error %v: want the first file named", err)
	}
	if _, err := Update(ctx, w, root, Config{}); err == nil {
		t.Error("a Config without Terms and Decide was accepted")
	}
	if _, err := Update(ctx, w, filepath.Join(root, "missing"), testConfig()); err == nil {
		t.Error("a missing folder was accepted")
	}
}

// TestUpdateCancelled: a cancelled run stops, says so, leaves every note
// either as it was or as it is now, and removes nothing.
func TestUpdateCancelled(t *testing.T) {
	root := notesFolder(t, 40)
	w := newMemWriter()
	w.docs[root+"\x00gone.md"] = &store.DocumentRecord{Root: root, Path: "gone.md"}
	ctx, cfg := cancelledAtFive(t)
	res, err := Update(ctx, w, root, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	log := w.takeLog()
	if len(log) < 5 || len(log) == 41 || res.Indexed != len(log) || res.Deleted != 0 {
		t.Errorf("after cancelling: writes %q, %+v", log, res)
	}
	if _, ok := w.docs[root+"\x00gone.md"]; !ok {
		t.Error("an interrupted run removed a note")
	}
}

// cancelledAtFive is testConfig writing 4 notes a batch, and a context
// it cancels once 5 files are handled.
func cancelledAtFive(t *testing.T) (context.Context, Config) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cfg := testConfig()
	cfg.BatchNotes = 4
	cfg.Progress = func(p Progress) {
		if p.Done == 5 {
			cancel()
		}
	}
	return ctx, cfg
}

// TestUpdateBatches: notes are written in batches within the bounds, in
// path order, and a file is reported only once its note is stored.
func TestUpdateBatches(t *testing.T) {
	ctx := context.Background()
	root := notesFolder(t, 30)
	for _, tc := range []struct {
		name  string
		set   func(*Config)
		sizes []int
	}{
		{"by notes", func(c *Config) { c.BatchNotes = 8 }, []int{8, 8, 8, 7}},
		{"by bytes", func(c *Config) { c.BatchBytes = 1 }, slices.Repeat([]int{1}, 31)},
		{"by time", func(c *Config) { c.BatchTime = time.Nanosecond }, slices.Repeat([]int{1}, 31)},
		{"defaults", func(*Config) {}, []int{31}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newMemWriter()
			cfg := testConfig()
			tc.set(&cfg)
			var unstored []string
			cfg.Progress = func(p Progress) {
				if !w.has(root, p.Path) && p.Path != "mapa.png" {
					unstored = append(unstored, p.Path)
				}
			}
			res, err := Update(ctx, w, root, cfg)
			if err != nil || res.Indexed != 31 {
				t.Fatalf("%+v, %v", res, err)
			}
			if !reflect.DeepEqual(w.batches, tc.sizes) {
				t.Errorf("writes of %v notes, want %v", w.batches, tc.sizes)
			}
			if log := w.takeLog(); !slices.IsSorted(log) || len(log) != 31 {
				t.Errorf("writes %q: want every note, in path order", log)
			}
			if len(unstored) > 0 {
				t.Errorf("reported before they were stored: %q", unstored)
			}
		})
	}
}

// TestUpdateFailingFileInBatch: a note that cannot be stored does not undo
// the notes before it in its batch; those after it are not written.
func TestUpdateFailingFileInBatch(t *testing.T) {
	ctx := context.Background()
	root := notesFolder(t, 30)
	w := newMemWriter()
	w.failOn = "Sesiones/Sesion 006.md"
	cfg := testConfig()
	cfg.BatchNotes = 4
	var done int
	cfg.Progress = func(p Progress) { done = p.Done }
	res, err := Update(ctx, w, root, cfg)
	if !errors.Is(err, errDiskFull) || !strings.Contains(err.Error(), `"Sesiones/Sesion 006.md"`) {
		t.Fatalf("error %v: want the store's error naming the file", err)
	}
	// DM/secreto.md, then Sesion 001 to 005; mapa.png comes after.
	if log := w.takeLog(); len(log) != 6 || log[5] != "put Sesiones/Sesion 005.md" || res.Indexed != 6 || done != 6 {
		t.Errorf("writes %q, %+v, %d reported", log, res, done)
	}
}
