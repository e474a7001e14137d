package retrieve_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// vectorIndex is a store's own vector index, as a fake: it answers with
// fixed hits and records what it was asked.
type vectorIndex struct {
	hits []vector.Hit
	err  error
	// asked records the last search: its model, k, public and filter.
	model  string
	k      int
	public bool
	filter store.Filter
	calls  int
}

func (v *vectorIndex) SearchVectors(_ context.Context, model string, q []float32, k int, public bool, f store.Filter) ([]vector.Hit, error) {
	v.calls++
	v.model, v.k, v.public, v.filter = model, k, public, f
	if len(q) == 0 {
		return nil, errors.New("no query vector")
	}
	return v.hits[:min(k, len(v.hits))], v.err
}

// TestDenseOnStoreIndex: with a store that searches its vectors itself,
// the dense path asks it (the embedder's model, n, visibility and the
// filter) and never its Searcher, keeps its order and scores, leaves out
// a chunk gone since, and still drops, for a player, a DM-only chunk the
// store let through.
func TestDenseOnStoreIndex(t *testing.T) {
	ctx := context.Background()
	a := spanish(t)
	chunks := []store.Chunk{
		sessionChunk(1, 1, "El dragón rojo atacó Puertogris al alba.", false),
		sessionChunk(2, 2, "El dragón rojo atacó Puertogris de noche.", true),
		sessionChunk(3, 3, "La posada estaba vacía y fría.", false),
	}
	s := newMemStore(t, a, chunks)
	em := embed.NewHashing(embed.DefaultHashingDims)
	vi := &vectorIndex{hits: []vector.Hit{{ID: 3, Score: 0.9}, {ID: 9, Score: 0.8}, {ID: 2, Score: 0.7}, {ID: 1, Score: 0.6}}}
	f := store.Filter{Sessions: []int{1, 2, 3}}
	for _, tc := range []struct {
		name   string
		public bool
		want   []int64
	}{
		{"dm", false, []int64{3, 2, 1}},
		{"player", true, []int64{3, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := retrieve.Dense{Embedder: em, Store: vi, Index: s, Public: tc.public, Filter: f}
			res, err := p.Retrieve(ctx, "dragón", 4)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(res); !slices.Equal(got, tc.want) {
				t.Errorf("chunks %v, want %v (chunk 9 is gone, 2 DM-only)", got, tc.want)
			}
			if len(res) > 0 && res[0].Score != float64(float32(0.9)) {
				t.Errorf("first score %v, want the store's 0.9", res[0].Score)
			}
			if vi.model != em.ID() || vi.k != 4 || vi.public != tc.public || !slices.Equal(vi.filter.Sessions, f.Sessions) {
				t.Errorf("the store was asked model %q, k %d, public %v, filter %+v", vi.model, vi.k, vi.public, vi.filter)
			}
		})
	}
	vi.err = errors.New("cluster down")
	if _, err := (retrieve.Dense{Embedder: em, Store: vi, Index: s}).Retrieve(ctx, "dragón", 2); err == nil || !errors.Is(err, vi.err) {
		t.Errorf("a failing store index: %v", err)
	}
}
