package weaviate

import (
	"context"
	"testing"

	"github.com/weaviate/weaviate/entities/models"

	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/store"
)

// TestFailClosed writes a chunk and its paragraph without their
// visibility, as a writer that crashed half-way or an older program might
// leave them: players never find them, and read back they are DM-only.
func TestFailClosed(t *testing.T) {
	node := weaviatetest.Start(t, 1).Nodes[0]
	ctx := context.Background()
	s, err := Open(ctx, Config{URL: node.URL()})
	if err != nil {
		t.Fatal(err)
	}
	uid := "undecided"
	id := idText(ChunkID(uid))
	err = s.put(ctx, []*models.Object{
		{Class: chunkClass, ID: chunkUUID(uid), Tenant: s.tenant, Properties: map[string]any{
			propChunkID: id, propUID: uid, propPath: "x.md", propHeadings: "[]", propText: "el secreto del abad",
			propByteStart: 0, propByteEnd: 19,
		}},
		{Class: paragraphClass, ID: paragraphUUID(uid, 0), Tenant: s.tenant, Properties: map[string]any{
			propChunkID: id, propPath: "x.md", propAllTerms: "secret abad", propTerms: "secret abad", propByteEnd: 19,
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := s.SearchBM25(ctx, []string{"abad"}, 8, store.BM25Options{Public: true})
	if err != nil || len(ms) != 0 {
		t.Errorf("a player's search found %d (%v)", len(ms), err)
	}
	ms, err = s.SearchBM25(ctx, []string{"abad"}, 8, store.BM25Options{})
	if err != nil || len(ms) != 1 || !ms[0].Chunk.Restricted || ms[0].Passage != "el secreto del abad" {
		t.Errorf("the DM's search found %+v (%v), want the chunk, DM-only", ms, err)
	}
	if used, err := s.TermUsed(ctx, "abad", true); err != nil || used {
		t.Errorf("TermUsed for players = %v, %v", used, err)
	}
	if used, err := s.TermUsed(ctx, "abad", false); err != nil || !used {
		t.Errorf("TermUsed for the DM = %v, %v", used, err)
	}
}
