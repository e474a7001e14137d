package index

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// A long-running reader (serve) whose connections map the file into
// memory sees every write another handle (an ingest) commits: new text is
// found, and a note that became DM-only is gone from a player's search at
// once, from the pages mapped before the write as from those after.
func TestSearchSeesAnotherHandlesWrites(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	reader, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	writer, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	found := func(term string, public bool) []string {
		t.Helper()
		ms, err := retrieve.SearchBM25(ctx, reader, []string{term}, 10, store.BM25Options{Public: public})
		if err != nil {
			t.Fatal(err)
		}
		var uids []string
		for _, m := range ms {
			uids = append(uids, m.Chunk.UID)
		}
		return uids
	}
	for _, path := range []string{"a.md", "b.md"} {
		if err := writer.ReplaceDocument(ctx, doc(path, []string{"dragon rojo"})); err != nil {
			t.Fatal(err)
		}
	}
	if got := found("dragon", true); len(got) != 2 {
		t.Fatalf("before the write a player finds %v, want both notes", got)
	}
	secret := doc("b.md", []string{"dragon verde"})
	secret.SHA256, secret.DMOnly = "h-b2", true
	if err := writer.ReplaceDocument(ctx, secret); err != nil {
		t.Fatal(err)
	}
	if got := found("dragon", true); len(got) != 1 || got[0] != "a.md#a" {
		t.Errorf("after b.md became DM-only a player finds %v, want only a.md#a", got)
	}
	if got := found("verde", true); len(got) != 0 {
		t.Errorf("a player finds the DM-only note's new word in %v", got)
	}
	if got := found("verde", false); len(got) != 1 || got[0] != "b.md#a" {
		t.Errorf("the DM finds the new word in %v, want b.md#a", got)
	}
	if got := found("rojo", false); len(got) != 1 || got[0] != "a.md#a" {
		t.Errorf("the DM finds the replaced word in %v, want only a.md#a", got)
	}
}
