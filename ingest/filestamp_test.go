//go:build linux || darwin

package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/store"
)

// stampedIndex is a real index for the stamp tests, with racyWindow set
// to window for the test's length.
func stampedIndex(t *testing.T, window time.Duration) *index.Index {
	t.Helper()
	old := racyWindow
	racyWindow = window
	t.Cleanup(func() { racyWindow = old })
	ix, err := index.Open(context.Background(), filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// updated runs Update and fails the test on an error.
func updated(t *testing.T, w store.DocumentWriter, root string) *Result {
	t.Helper()
	res, err := Update(context.Background(), w, root, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// stampedFolder is notesFolder plus a note reading with a repair and one
// with a visibility warning.
func stampedFolder(t *testing.T, n int) string {
	root := notesFolder(t, n)
	writeNote(t, root, "reparada.md", "# Reparada\n\ncanción \xff fin\n")
	writeNote(t, root, "aviso.md", "---\nvisibility: [dm\n---\n# Aviso\n\nUna nota rara.\n")
	return root
}

func TestStampsLeaveUnchangedFilesUnread(t *testing.T) {
	ix := stampedIndex(t, 0)
	root := stampedFolder(t, 10)
	first := updated(t, ix, root)
	if first.Indexed != 13 || first.Unread != 0 || len(first.Repaired) != 1 || len(first.Warnings) != 2 {
		t.Fatalf("first run: %+v", first)
	}
	second := updated(t, ix, root)
	if second.Indexed != 0 || second.Unchanged != 13 || second.Unread != 13 {
		t.Fatalf("second run: indexed %d, unchanged %d, unread %d; want 0, 13, 13", second.Indexed, second.Unchanged, second.Unread)
	}
	// What reading reported is reported again, unread.
	if !reflect.DeepEqual(second.Repaired, first.Repaired) || !reflect.DeepEqual(second.Warnings, first.Warnings) {
		t.Errorf("unread run reports %v %v, the first %v %v", second.Repaired, second.Warnings, first.Repaired, first.Warnings)
	}
	if second.Bytes != first.Bytes {
		t.Errorf("bytes %d, first run %d", second.Bytes, first.Bytes)
	}
}

func TestStampsCatchSameSizeEditWithOldTime(t *testing.T) {
	ix := stampedIndex(t, 0)
	root := stampedFolder(t, 5)
	updated(t, ix, root)
	p := filepath.Join(root, "Sesiones", "Sesion 002.md")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := []byte("# Sesión 2\n\nEl grupo llega a la aldea 1 y habla con Garrak.\n")
	if len(edited) != len(old) {
		t.Fatalf("the edit must keep the size: %d, was %d", len(edited), len(old))
	}
	if err := os.WriteFile(p, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	// The modification time set back to what was stamped: only the
	// change time (which no one can set) tells the write.
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	res := updated(t, ix, root)
	if res.Indexed != 1 || res.Unread != 7 {
		t.Fatalf("after a same-size edit with its time set back: indexed %d, unread %d; want 1, 7", res.Indexed, res.Unread)
	}
	states, err := ix.DocumentStates(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := states["Sesiones/Sesion 002.md"].SHA256, textHash(string(edited)); got != want {
		t.Errorf("stored %s, want the edit's %s", got, want)
	}
}

func TestStampsTouchedFileNotRewritten(t *testing.T) {
	ix := stampedIndex(t, 0)
	root := stampedFolder(t, 5)
	updated(t, ix, root)
	p := filepath.Join(root, "Sesiones", "Sesion 003.md")
	now := time.Now()
	if err := os.Chtimes(p, now, now); err != nil {
		t.Fatal(err)
	}
	res := updated(t, ix, root)
	if res.Indexed != 0 || res.Unchanged != 8 || res.Unread != 7 {
		t.Fatalf("after a touch: indexed %d, unchanged %d, unread %d; want 0, 8, 7", res.Indexed, res.Unchanged, res.Unread)
	}
	// Read once, stamped anew: the next run reads it no more.
	if res := updated(t, ix, root); res.Unread != 8 {
		t.Fatalf("the run after: unread %d, want 8", res.Unread)
	}
}

func TestStampsNotKeptForRecentFiles(t *testing.T) {
	ix := stampedIndex(t, time.Hour) // every file here was written "just now"
	root := stampedFolder(t, 5)
	updated(t, ix, root)
	if res := updated(t, ix, root); res.Unchanged != 8 || res.Unread != 0 {
		t.Fatalf("recent files: unchanged %d, unread %d; want 8, 0 (read each time)", res.Unchanged, res.Unread)
	}
	stamps, err := ix.FileStamps(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if len(stamps) != 0 {
		t.Errorf("%d stamps kept for files written within the window", len(stamps))
	}
}

func TestStampsAfterInterruptedRun(t *testing.T) {
	ix := stampedIndex(t, 0)
	root := stampedFolder(t, 30)
	ctx, cfg := cancelledAtFive(t)
	if _, err := Update(ctx, ix, root, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	res := updated(t, ix, root)
	if res.Indexed+res.Unchanged != 33 || res.Indexed == 0 {
		t.Fatalf("the run after an interrupted one: %+v", res)
	}
	if res := updated(t, ix, root); res.Unread != 33 {
		t.Fatalf("the run after: unread %d, want 33", res.Unread)
	}
}

func TestStampsGoWithTheirNotes(t *testing.T) {
	ix := stampedIndex(t, 0)
	root := stampedFolder(t, 3)
	updated(t, ix, root)
	if err := os.Remove(filepath.Join(root, "Sesiones", "Sesion 001.md")); err != nil {
		t.Fatal(err)
	}
	if res := updated(t, ix, root); res.Deleted != 1 {
		t.Fatalf("deleted %d, want 1", res.Deleted)
	}
	// A file put back where a note was removed is read, whatever its stamp.
	writeNote(t, root, "Sesiones/Sesion 001.md", "# Sesión 1\n\nOtra vez.\n")
	stamps, err := ix.FileStamps(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := stamps["Sesiones/Sesion 001.md"]; ok || len(stamps) != 5 {
		t.Errorf("stamps after a removal: %d, with the removed note's: %v", len(stamps), ok)
	}
	if res := updated(t, ix, root); res.Indexed != 1 {
		t.Fatalf("indexed %d, want 1", res.Indexed)
	}
}
