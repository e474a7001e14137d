package index

import (
	"context"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// TestFileStamps: a stamp is kept only for the content its note holds,
// replaced by the next one, and goes with its note.
func TestFileStamps(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	for _, p := range []string{"a.md", "b.md"} {
		if err := ix.ReplaceDocument(ctx, doc(p, []string{"pal"})); err != nil {
			t.Fatal(err)
		}
	}
	stamp := store.FileStamp{Size: 10, ModNS: 1, ChangeNS: 2, Device: 1 << 63, Inode: 7}
	err := ix.PutFileStamps(ctx, "/r", []store.StampedFile{
		{Path: "a.md", SHA256: "h-a.md", Stamp: stamp, Repairs: "fixed", Warnings: []string{"w1", "w2"}},
		{Path: "b.md", SHA256: "another content", Stamp: stamp}, // not the note stored: not kept
		{Path: "c.md", SHA256: "h-c.md", Stamp: stamp},          // no such note
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ix.FileStamps(ctx, "/r")
	if err != nil {
		t.Fatal(err)
	}
	a, ok := got["a.md"]
	if len(got) != 1 || !ok || a.Stamp != stamp || a.SHA256 != "h-a.md" || a.Repairs != "fixed" || len(a.Warnings) != 2 || a.Warnings[1] != "w2" {
		t.Fatalf("stamps %+v, want a.md's alone, as put", got)
	}
	later := stamp
	later.ChangeNS = 3
	if err := ix.PutFileStamps(ctx, "/r", []store.StampedFile{{Path: "a.md", SHA256: "h-a.md", Stamp: later}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := ix.FileStamps(ctx, "/r"); got["a.md"].Stamp != later || len(got["a.md"].Warnings) != 0 {
		t.Fatalf("after a second stamp: %+v", got["a.md"])
	}
	if err := ix.DeleteDocument(ctx, "/r", "a.md"); err != nil {
		t.Fatal(err)
	}
	if got, _ := ix.FileStamps(ctx, "/r"); len(got) != 0 {
		t.Fatalf("stamps of a removed note: %+v", got)
	}
}
