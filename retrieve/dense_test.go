package retrieve_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

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

// slowSearcher answers after a delay, as a large graph's first search
// under load does.
type slowSearcher struct {
	vector.Searcher
	delay time.Duration
}

func (s slowSearcher) Search(q []float32, k int) ([]vector.Hit, error) {
	time.Sleep(s.delay)
	return s.Searcher.Search(q, k)
}

// ctxReader fails a read whose context is done, as SQLite does.
type ctxReader struct{ store.ChunkReader }

func (r ctxReader) ChunksFound(ctx context.Context, ids []int64) ([]store.Chunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.ChunkReader.ChunksFound(ctx, ids)
}

func (r ctxReader) Chunks(ctx context.Context, ids []int64) ([]store.Chunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.ChunkReader.Chunks(ctx, ids)
}

// TestDenseTimeoutBoundsTheVectorOnly: the wait for the question's vector
// is bounded, not the search after it: a search slower than that bound
// still returns its chunks (it failed reading them, the bound passed).
func TestDenseTimeoutBoundsTheVectorOnly(t *testing.T) {
	defer retrieve.SetQueryTimeout(20 * time.Millisecond)()
	ctx := context.Background()
	a := spanish(t)
	chunks := []store.Chunk{
		sessionChunk(1, 1, "El dragón rojo atacó Puertogris al alba.", false),
		sessionChunk(2, 2, "La posada estaba vacía y fría.", false),
	}
	s := newMemStore(t, a, chunks)
	em := embed.NewHashing(embed.DefaultHashingDims)
	ex := vector.NewExact(em.Dims())
	for _, c := range chunks {
		v, err := em.Embed(ctx, embed.Passage, []string{c.Text})
		if err != nil {
			t.Fatal(err)
		}
		vector.Normalize(v[0])
		if err := ex.Add(c.ID, v[0]); err != nil {
			t.Fatal(err)
		}
	}
	p := retrieve.Dense{Embedder: em, Searcher: slowSearcher{ex, 80 * time.Millisecond}, Index: ctxReader{s}}
	res, err := p.Retrieve(ctx, "dragón", 2)
	if err != nil {
		t.Fatalf("a search slower than the vector's bound failed: %v", err)
	}
	if len(res) != 2 || res[0].Chunk.ID != 1 {
		t.Errorf("chunks %v, want 2 with chunk 1 first", ids(res))
	}
	// The bound still holds for the vector itself.
	stall := stallingEmbedder{em}
	if _, err := (retrieve.Dense{Embedder: stall, Searcher: ex, Index: s}).Retrieve(ctx, "dragón", 2); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a model that never answers: %v, want the deadline", err)
	}
}

// stallingEmbedder waits for its context to end, as a stalled model
// server does.
type stallingEmbedder struct{ embed.Embedder }

func (stallingEmbedder) Embed(ctx context.Context, _ embed.Kind, _ []string) ([][]float32, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}
