package oraculo_test

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// searchingStore is an index that searches its vectors itself, as a
// cluster does ([store.VectorSearcher]): an exact scan of the index's
// vectors, read from the index directly (not counted as loads), restricted
// by its RestrictedChunks and FilterChunks. It counts, as countingStore
// does, what the engine reads, and records each search asked of it.
type searchingStore struct {
	*countingStore
	ix *index.Index
	mu sync.Mutex
	// asked holds one entry per SearchVectors: whether it was a players'
	// search, and its filter.
	asked []searchAsked
}

type searchAsked struct {
	public bool
	filter store.Filter
}

func (s *searchingStore) SearchVectors(ctx context.Context, model string, q []float32, k int, public bool, f store.Filter) ([]vector.Hit, error) {
	s.mu.Lock()
	s.asked = append(s.asked, searchAsked{public, f})
	s.mu.Unlock()
	vs, _, err := s.ix.LoadVectors(ctx, model)
	if err != nil {
		return nil, err
	}
	restricted, err := s.ix.RestrictedChunks(ctx)
	if err != nil {
		return nil, err
	}
	var allowed map[int64]bool
	if !f.IsZero() {
		if allowed, err = s.ix.FilterChunks(ctx, f); err != nil {
			return nil, err
		}
	}
	ex := vector.NewExact(vs.Dims)
	for i, id := range vs.IDs {
		if (public && restricted[id]) || (allowed != nil && !allowed[id]) {
			continue
		}
		if err := ex.Add(id, vs.Data[i*vs.Dims:(i+1)*vs.Dims]); err != nil {
			return nil, err
		}
	}
	return ex.Search(q, k)
}

func (s *searchingStore) searches() []searchAsked {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.asked
	s.asked = nil
	return out
}

// TestDenseOnVectorSearcher: on a store that searches its vectors itself,
// the engine's dense path asks the store, for the DM and for players, with
// the search's filter, and gives the hits the in-process exact scan gives
// on the same notes; neither ingest nor any search loads a vector, lists
// the chunks that have one or reads a graph. VectorsExact alone loads the
// vectors, once, and finds the same.
func TestDenseOnVectorSearcher(t *testing.T) {
	ctx := context.Background()
	hashing := oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing})
	local, _ := openEngine(t, hashing)
	ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	ss := &searchingStore{countingStore: &countingStore{Store: ix}, ix: ix}
	remote, err := oraculo.OpenStore(ctx, ss, hashing)
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	for _, eng := range []*oraculo.Engine{local, remote} {
		if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if v, g := ss.reads(); v != 0 || g != 0 || ss.ids.Load() != 0 {
		t.Errorf("ingest read the vectors %d times and the graph %d times, and listed the chunks with one %d times, on a store that searches them", v, g, ss.ids.Load())
	}
	st, err := remote.Stats(ctx)
	if err != nil || !slices.Contains(st.Retrieval.Paths, "dense") || !st.Retrieval.Graph {
		t.Fatalf("stats: %+v, %v; want the dense path on the store's own index", st.Retrieval, err)
	}
	qs, err := eval.Load(sampleGolden)
	if err != nil {
		t.Fatal(err)
	}
	filter := store.Filter{Sessions: []int{1, 2, 3, 4, 5}}
	for _, role := range []string{oraculo.RoleDM, oraculo.RolePlayer} {
		rctx := oraculo.WithRole(ctx, role)
		for _, f := range []store.Filter{{}, filter} {
			same, hits := 0, 0
			for _, q := range qs {
				opts := oraculo.SearchOptions{K: 10, Paths: []string{"dense"}, Filter: f, NoPrior: true, NoAnalysis: true}
				want, err := local.Search(rctx, q.Question, opts)
				if err != nil {
					t.Fatal(err)
				}
				got, err := remote.Search(rctx, q.Question, opts)
				if err != nil {
					t.Fatal(err)
				}
				if slices.Equal(hitIDs(got), hitIDs(want)) {
					same++
				}
				hits += len(got)
				asked := ss.searches()
				if len(asked) != 1 || asked[0].public != (role == oraculo.RolePlayer) || !slices.Equal(asked[0].filter.Sessions, f.Sessions) {
					t.Fatalf("%s as %s with %+v: the store was asked %+v", q.ID, role, f, asked)
				}
			}
			if same != len(qs) || hits == 0 {
				t.Errorf("as %s with %+v: %d of %d questions have the in-process scan's hits (%d hits)", role, f, same, len(qs), hits)
			}
		}
	}
	if v, g := ss.reads(); v != 0 || g != 0 {
		t.Errorf("searches read the vectors %d times and the graph %d times", v, g)
	}
	if n := ss.ids.Load(); n != 0 {
		t.Errorf("searches listed the chunks with vectors %d times", n)
	}

	// VectorsExact scans here, to measure the store's index: the vectors
	// are loaded once for the view, and the filter and visibility applied
	// to the scan.
	pctx := oraculo.WithRole(ctx, oraculo.RolePlayer)
	for range 2 {
		opts := oraculo.SearchOptions{K: 10, Paths: []string{"dense"}, Filter: filter, NoPrior: true, NoAnalysis: true, Vectors: oraculo.VectorsExact}
		want, err := local.Search(pctx, qs[0].Question, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := remote.Search(pctx, qs[0].Question, opts)
		if err != nil || !slices.Equal(hitIDs(got), hitIDs(want)) || len(got) == 0 {
			t.Fatalf("VectorsExact: %v, %v; the in-process scan %v", hitIDs(got), err, hitIDs(want))
		}
	}
	if v, _ := ss.reads(); v != 1 {
		t.Errorf("two exact searches loaded the vectors %d times, want once", v)
	}
	if asked := ss.searches(); len(asked) != 0 {
		t.Errorf("an exact search asked the store's index %d times", len(asked))
	}
}
