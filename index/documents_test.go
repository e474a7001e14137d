package index

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// TestReplaceDocuments: a batch stores its notes in order, each whole; a
// note that fails does not undo the notes before it, and those after it
// are not written.
func TestReplaceDocuments(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	if err := ix.ReplaceDocument(ctx, doc("a.md", []string{"viej text"})); err != nil {
		t.Fatal(err)
	}
	clash := doc("c.md", []string{"tercer"})
	clash.Chunks[0].UID = "b.md#a" // a chunk id taken by b.md: the insert fails
	batch := []*store.DocumentRecord{
		doc("a.md", []string{"nuev text"}),
		doc("b.md", []string{"segund"}),
		clash,
		doc("d.md", []string{"cuart"}),
	}
	n, err := ix.ReplaceDocuments(ctx, batch)
	if n != 2 || err == nil || !strings.Contains(err.Error(), `"c.md"`) {
		t.Fatalf("ReplaceDocuments = %d, %v; want 2 stored and the error of c.md", n, err)
	}
	states, err := ix.DocumentStates(ctx, "/r")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for p := range states {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	if !slices.Equal(paths, []string{"a.md", "b.md"}) {
		t.Errorf("stored %q, want a.md and b.md", paths)
	}
	for term, want := range map[string]int{"nuev": 1, "viej": 0, "segund": 1, "tercer": 0, "cuart": 0} {
		if m, err := retrieve.SearchBM25(ctx, ix, []string{term}, 5, store.BM25Options{}); err != nil || len(m) != want {
			t.Errorf("%q matches %d chunks (%v), want %d", term, len(m), err, want)
		}
	}
	if err := ix.Check(ctx); err != nil {
		t.Fatal(err)
	}

	// The same note twice in a batch: the later version is kept.
	if n, err := ix.ReplaceDocuments(ctx, []*store.DocumentRecord{doc("e.md", []string{"primer"}), doc("e.md", []string{"ultim"})}); n != 2 || err != nil {
		t.Fatalf("ReplaceDocuments = %d, %v", n, err)
	}
	if m, _ := retrieve.SearchBM25(ctx, ix, []string{"primer"}, 5, store.BM25Options{}); len(m) != 0 {
		t.Errorf("the first version of e.md still matches: %+v", m)
	}
	if n, err := ix.ReplaceDocuments(ctx, nil); n != 0 || err != nil {
		t.Errorf("an empty batch: %d, %v", n, err)
	}
	// A cancelled write stores nothing.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if n, err := ix.ReplaceDocuments(cctx, []*store.DocumentRecord{doc("f.md", []string{"sext"})}); n != 0 || err == nil {
		t.Errorf("a cancelled write: %d, %v", n, err)
	}
	if err := ix.Check(ctx); err != nil {
		t.Fatal(err)
	}
}
