package index

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// writtenIndex is an index file in its own folder holding one note, closed.
func writtenIndex(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "idx", "t.db")
	ix, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.ReplaceDocument(ctx, doc("a.md", []string{"cancel reserv"})); err != nil {
		t.Fatal(err)
	}
	if err := ix.SetMeta(ctx, "lang", "es"); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// simulateUnwritable makes Open see every existing index as on a
// read-only mount: tests run as root, whom permissions do not stop.
func simulateUnwritable(t *testing.T) {
	t.Helper()
	old := unwritable
	unwritable = func(path string) string {
		if _, err := os.Stat(path); err != nil {
			return ""
		}
		return "it is on a read-only file system"
	}
	t.Cleanup(func() { unwritable = old })
}

// checkReadOnly checks that ix reads as written and that every write is
// refused, by SQLite itself, leaving the file as it was.
func checkReadOnly(t *testing.T, ix *Index, path string, before []byte) {
	t.Helper()
	ctx := context.Background()
	err := ix.ReadOnly()
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), `the index "`+path+`" is read-only: `) {
		t.Fatalf("ReadOnly() = %v", err)
	}
	if v, err := ix.Meta(ctx, "lang"); err != nil || v != "es" {
		t.Fatalf("reading a setting: %q, %v", v, err)
	}
	m, err := retrieve.SearchBM25(ctx, ix, []string{"cancel"}, 5, store.BM25Options{})
	if err != nil || len(m) != 1 || m[0].Chunk.UID != "a.md#a" {
		t.Fatalf("searching: %+v, %v", m, err)
	}
	if err := ix.SetMeta(ctx, "lang", "en"); err == nil {
		t.Error("a setting was written to a read-only index")
	}
	if err := ix.ReplaceDocument(ctx, doc("b.md", []string{"otra"})); err == nil {
		t.Error("a note was written to a read-only index")
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the read-only index file changed")
	}
}

// An index that cannot be written opens read-only: it is read, writes are
// refused and say why.
func TestOpenUnwritableIsReadOnly(t *testing.T) {
	path := writtenIndex(t)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	simulateUnwritable(t)
	ix, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	checkReadOnly(t, ix, path, before)
}

// With no folder to keep SQLite's shared memory in, the file opens as
// immutable, creating nothing beside it.
func TestOpenReadOnlyImmutable(t *testing.T) {
	path := writtenIndex(t)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := openReadOnly(context.Background(), path, "simulated", false)
	if err != nil {
		t.Fatal(err)
	}
	checkReadOnly(t, ix, path, before)
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("files beside an immutable index: %v", entries)
	}
}

// A read-only index whose schema is older than this program's cannot be
// brought up to date: the error says so, rather than failing on a write.
func TestOpenReadOnlyOldSchema(t *testing.T) {
	ctx := context.Background()
	path := writtenIndex(t)
	ix, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.DB().ExecContext(ctx, `PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	simulateUnwritable(t)
	_, err = Open(ctx, path)
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "schema (3)") {
		t.Fatalf("opening an old read-only index: %v", err)
	}
}

// roMount mounts dir read-only at a new folder (a bind mount: root on
// Linux) and returns it, or skips the test where mounting is not allowed.
func roMount(t *testing.T, dir string) string {
	t.Helper()
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "--bind", dir, mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot bind-mount here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	if out, err := exec.Command("mount", "-o", "remount,ro,bind", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only here: %v: %s", err, out)
	}
	return mnt
}

// A real read-only mount: Open finds it out by itself.
func TestOpenOnReadOnlyMount(t *testing.T) {
	path := writtenIndex(t)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mnt := roMount(t, filepath.Dir(path))
	ro := filepath.Join(mnt, filepath.Base(path))
	if err := os.WriteFile(filepath.Join(mnt, "probe"), nil, 0o644); err == nil {
		t.Fatal("the mount is writable")
	}
	ix, err := Open(context.Background(), ro)
	if err != nil {
		t.Fatalf("opening an index on a read-only mount: %v", err)
	}
	if err := ix.ReadOnly(); err == nil || !strings.Contains(err.Error(), "read-only file system") {
		t.Errorf("ReadOnly() = %v, want the read-only file system named", err)
	}
	checkReadOnly(t, ix, ro, before)
}
