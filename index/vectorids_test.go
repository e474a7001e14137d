package index

import (
	"context"
	"slices"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// TestVectorIDs: the chunks with a vector for the model, in id order, as
// LoadVectors reads them, and how many have none (of that model: another
// model's vector does not count).
func TestVectorIDs(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	var ds []*store.DocumentRecord
	for _, p := range []string{"c.md", "a.md", "b.md"} {
		d := doc(p, []string{"uno"}, []string{"dos"}, []string{"tres"})
		for i := range d.Chunks {
			d.Chunks[i].EmbedHash = p + string(rune('0'+i))
		}
		ds = append(ds, d)
	}
	if _, err := ix.ReplaceDocuments(ctx, ds); err != nil {
		t.Fatal(err)
	}
	// Stored out of id order; a.md's second chunk has no vector of "m",
	// only one of another model.
	hashes := []string{"b.md2", "a.md0", "c.md1", "b.md0", "a.md2", "c.md0", "c.md2", "b.md1"}
	vecs := make([][]float32, len(hashes))
	for i := range vecs {
		vecs[i] = []float32{float32(i), 1}
	}
	if err := ix.PutEmbeddings(ctx, "m", hashes, vecs); err != nil {
		t.Fatal(err)
	}
	if err := ix.PutEmbeddings(ctx, "otro", []string{"a.md1"}, [][]float32{{1, 2}}); err != nil {
		t.Fatal(err)
	}
	ids, missing, err := ix.VectorIDs(ctx, "m")
	if err != nil {
		t.Fatal(err)
	}
	v, wantMissing, err := ix.LoadVectors(ctx, "m")
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 8 || !slices.IsSorted(ids) || !slices.Equal(ids, v.IDs) || missing != 1 || missing != wantMissing {
		t.Errorf("VectorIDs = %v, %d missing; LoadVectors read %v, %d missing; want 8 ids in order and 1 missing", ids, missing, v.IDs, wantMissing)
	}
}
