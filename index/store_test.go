package index

import (
	"context"
	"errors"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// TestStoreErrors: through the store interface, the index's errors are the
// store's sentinels, so code written against package store tells them
// apart.
func TestStoreErrors(t *testing.T) {
	ctx := context.Background()
	var s store.Store = testIndex(t)
	if err := s.ReplaceDocument(ctx, doc("a.md", []string{"galern"})); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChunkByUID(ctx, "nope"); !errors.Is(err, store.ErrNoChunk) {
		t.Errorf("ChunkByUID of an unknown id: %v, want store.ErrNoChunk", err)
	}
	if _, err := s.Chunks(ctx, []int64{424242}); !errors.Is(err, store.ErrMissingParent) {
		t.Errorf("Chunks of an unknown id: %v, want store.ErrMissingParent", err)
	}
	ms, err := retrieve.SearchBM25(ctx, s, []string{"galern"}, 5, store.BM25Options{})
	if err != nil || len(ms) != 1 || ms[0].Chunk.UID != "a.md#a" {
		t.Fatalf("SearchBM25 through the interface: %+v, %v", ms, err)
	}
	if c, err := s.ChunkByUID(ctx, "a.md#a"); err != nil || c.ID != ms[0].Chunk.ID {
		t.Errorf("ChunkByUID: %+v, %v", c, err)
	}
}
