package weaviate_test

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/store/weaviate"
	"github.com/oraculo/oraculo/vector"
)

// vectorCounter is a Weaviate store that counts what the engine reads of
// its vectors: loads of every vector, listings of the chunks that have
// one, and searches of the cluster's index (it keeps no graph for the
// engine to read: no [store.GraphStore]).
type vectorCounter struct {
	*weaviate.Store
	loads, listings, searches atomic.Int32
}

func (c *vectorCounter) LoadVectors(ctx context.Context, model string) (*store.Vectors, int, error) {
	c.loads.Add(1)
	return c.Store.LoadVectors(ctx, model)
}

func (c *vectorCounter) VectorIDs(ctx context.Context, model string) ([]int64, int, error) {
	c.listings.Add(1)
	return c.Store.VectorIDs(ctx, model)
}

func (c *vectorCounter) SearchVectors(ctx context.Context, model string, q []float32, k int, public bool, f store.Filter) ([]vector.Hit, error) {
	c.searches.Add(1)
	return c.Store.SearchVectors(ctx, model, q, k, public, f)
}

// reads returns the loads and listings since the last call.
func (c *vectorCounter) reads() (loads, listings int32) {
	return c.loads.Swap(0), c.listings.Swap(0)
}

// TestEngineDense opens the engine on Weaviate and on SQLite with the
// hashing embedder and ingests the sample campaign with each: the dense
// path alone gives the same Recall@8 and MRR@50 on the golden questions
// (within parity), for the DM and for players, and nearly the same top
// 10 per question; a player's never holds a DM-only chunk. The Weaviate
// engine asks the cluster's index on every dense search and never loads
// a vector, lists the chunks that have one or reads a graph, neither
// when it ingests nor when it searches.
func TestEngineDense(t *testing.T) {
	t.Parallel() // its own node (see "Parallel tests" in contract_test.go)
	c := weaviatetest.Start(t, 1)
	ctx := context.Background()
	hashing := oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing})
	wc := &vectorCounter{Store: open(t, c.Nodes[0], "engine")}
	we, err := oraculo.OpenStore(ctx, wc, hashing)
	if err != nil {
		t.Fatal(err)
	}
	defer we.Close()
	ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	se, err := oraculo.OpenStore(ctx, ix, hashing)
	if err != nil {
		t.Fatal(err)
	}
	defer se.Close()
	sample, err := filepath.Abs("../../examples/campaign")
	if err != nil {
		t.Fatal(err)
	}
	ingestBoth(t, sample, we, se)
	if l, n := wc.reads(); l != 0 || n != 0 {
		t.Errorf("the Weaviate engine's ingest loaded the vectors %d times, listed them %d times", l, n)
	}
	st, err := we.Stats(ctx)
	if err != nil || !slices.Contains(st.Retrieval.Paths, retrieve.PathDense) {
		t.Fatalf("the Weaviate engine's paths: %+v, %v", st.Retrieval, err)
	}

	qs, err := eval.Load("../../examples/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	restricted, err := ix.RestrictedChunks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	chunks := snapshot(t, ix)
	dmOnly := map[string]bool{}
	for _, c := range chunks {
		if restricted[c.ID] {
			dmOnly[c.UID] = true
		}
	}
	if len(dmOnly) == 0 {
		t.Fatal("the sample has no DM-only chunk: the test proves nothing")
	}
	for _, role := range []string{oraculo.RoleDM, oraculo.RolePlayer} {
		rctx := oraculo.WithRole(ctx, role)
		run := func(name string, eng *oraculo.Engine) *eval.Result {
			res, err := eval.Run(rctx, qs, eval.Config{Name: name, Paths: []string{retrieve.PathDense},
				Search: eval.EngineSearcher(eng, store.Filter{}, retrieve.PathDense)}, 50)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		sq, wq := run("sqlite", se), run("weaviate", we)
		t.Logf("dense path as %s, %d questions: Recall@8 SQLite %.3f Weaviate %.3f; MRR@50 SQLite %.3f Weaviate %.3f",
			role, sq.Chunk.Questions, sq.Chunk.Recall[8], wq.Chunk.Recall[8], sq.Chunk.MRR, wq.Chunk.MRR)
		sl, wl := sq.Latency["retrieve:dense"], wq.Latency["retrieve:dense"]
		t.Logf("dense path as %s, time per search: SQLite median %.1f ms p95 %.1f ms; Weaviate median %.1f ms p95 %.1f ms",
			role, sl.MedianMS, sl.P95MS, wl.MedianMS, wl.P95MS)
		if sq.Chunk.Questions == 0 || sq.Chunk.Recall[8] == 0 {
			t.Fatalf("as %s the dense path finds nothing on SQLite: the test proves nothing", role)
		}
		if d := math.Abs(sq.Chunk.Recall[8] - wq.Chunk.Recall[8]); d > parity {
			t.Errorf("as %s Recall@8 differs by %.3f", role, d)
		}
		if d := math.Abs(sq.Chunk.MRR - wq.Chunk.MRR); d > parity {
			t.Errorf("as %s MRR@50 differs by %.3f", role, d)
		}
		overlap, sawDM := 0.0, false
		for _, q := range qs {
			opts := oraculo.SearchOptions{K: 10, Paths: []string{retrieve.PathDense}}
			want, err := se.Search(rctx, q.Question, opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := we.Search(rctx, q.Question, opts)
			if err != nil {
				t.Fatal(err)
			}
			in := map[string]bool{}
			for _, h := range got {
				in[h.ID] = true
				sawDM = sawDM || dmOnly[h.ID]
				if role == oraculo.RolePlayer && dmOnly[h.ID] {
					t.Fatalf("%s: a player got DM-only %s %s", q.ID, h.File, h.Label)
				}
			}
			same := 0
			for _, h := range want {
				if in[h.ID] {
					same++
				}
			}
			if len(want) > 0 {
				overlap += float64(same) / float64(len(want))
			}
		}
		overlap /= float64(len(qs))
		t.Logf("as %s, the top 10s share %.3f of SQLite's hits on average", role, overlap)
		if overlap < 1-parity {
			t.Errorf("as %s the top 10s share %.3f of SQLite's hits, want ≥ %.2f", role, overlap, 1-parity)
		}
		if role == oraculo.RoleDM && !sawDM {
			t.Error("the DM's dense searches found no DM-only chunk: the player's check proves nothing")
		}
	}
	if l, n := wc.reads(); l != 0 || n != 0 {
		t.Errorf("the Weaviate engine's searches loaded the vectors %d times, listed them %d times", l, n)
	}
	// Every dense search asked the cluster: one pass of the questions per
	// role, besides the evaluations.
	if n := wc.searches.Load(); n < int32(2*len(qs)) {
		t.Errorf("the cluster's index was searched %d times for %d questions", n, len(qs))
	}
}
