//go:build unix || windows

package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Two descriptors of one file are two holders: the second is refused
// while the first holds the lock, and takes it once it is released or
// its descriptor closed.
func TestTryLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "o.db.ingest-lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if err := TryLock(a); err != nil {
		t.Fatalf("first lock: %v", err)
	}
	if err := TryLock(b); !errors.Is(err, ErrLocked) {
		t.Fatalf("second holder while the first holds it: %v, want ErrLocked", err)
	}
	if err := Unlock(a); err != nil {
		t.Fatalf("unlock: %v", err)
	}
	if err := TryLock(b); err != nil {
		t.Fatalf("second holder after the unlock: %v", err)
	}
	if err := TryLock(a); !errors.Is(err, ErrLocked) {
		t.Fatalf("first holder while the second holds it: %v, want ErrLocked", err)
	}
	b.Close()
	if err := TryLock(a); err != nil {
		t.Fatalf("after the holder's descriptor closed: %v", err)
	}
}
