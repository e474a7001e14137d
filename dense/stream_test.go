package dense

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/vector"
)

// TestStreamBuildChoosesTheSearch: a graph built anew from the streamed
// vectors holds every vector as stored, the build stores how it is to be
// searched (the walk, whose recall on 30 vectors is 1), and a load
// follows the stored choice: a code scan, whose hits are the exact scan's.
func TestStreamBuildChoosesTheSearch(t *testing.T) {
	ctx := context.Background()
	st, em, opts := testStore(t), embed.NewHashing(64), Options{Threshold: 10}
	addNotes(t, st, 0, 30)
	update(t, st, em, opts)
	if got, err := st.Meta(ctx, searchKey(em.ID())); err != nil || got != "graph recall@10=1.000" {
		t.Fatalf("stored choice %q, %v: want the walk, recall 1", got, err)
	}
	vs, _, err := st.LoadVectors(ctx, em.ID())
	if err != nil {
		t.Fatal(err)
	}
	if c, err := CountOf(ctx, st, em.ID(), opts); err != nil || !c.Graph || c.CodeScan {
		t.Fatalf("count %+v, %v: want the graph walked", c, err)
	}
	ix, _ := load(t, st, em, opts)
	h, ok := ix.search.(*vector.HNSW)
	if !ok {
		t.Fatalf("loaded %T, want the graph walked", ix.search)
	}
	if ids, data := h.Matrix(); !slices.Equal(ids, vs.IDs) || !slices.Equal(data, vs.Data) {
		t.Fatal("the graph's ids or vectors differ from the stored ones")
	}

	if err := st.SetMeta(ctx, searchKey(em.ID()), "scan recall@10=0.200"); err != nil {
		t.Fatal(err)
	}
	if c, err := CountOf(ctx, st, em.ID(), opts); err != nil || !c.Graph || !c.CodeScan {
		t.Fatalf("count %+v, %v: want the graph's codes scanned", c, err)
	}
	ix, _ = load(t, st, em, opts)
	if _, ok := ix.search.(codeScan); !ok {
		t.Fatalf("loaded %T, want the code scan the build chose", ix.search)
	}
	if a, err := ix.Approx(ctx, retrieve.Dense{}); err != nil || a.Searcher != ix.search {
		t.Fatalf("approx: %T, %v: want the code scan search uses", a.Searcher, err)
	}
	for i := range 30 {
		q := vs.Data[i*vs.Dims : (i+1)*vs.Dims]
		got, err := ix.search.Search(q, 5)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := ix.exact.Search(q, 5)
		if !slices.Equal(got, want) {
			t.Fatalf("vector %d: code scan %v, exact %v", vs.IDs[i], got, want)
		}
	}
}

// TestSelfCheck: the check's exact neighbours leave each query's own
// chunk out; an exact search has recall 1 and one that finds only the
// query itself 0; the choice follows the recall, and reads back.
func TestSelfCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	const n, dims = 250, 16
	ids := make([]int64, n)
	data := make([]float32, n*dims)
	for i := range ids {
		ids[i] = int64(1000 + 3*i)
		for j := range dims {
			data[i*dims+j] = float32(r.NormFloat64())
		}
		vector.Normalize(data[i*dims : (i+1)*dims])
	}
	c := newSelfCheck(n)
	for i, id := range ids {
		c.sample(id, data[i*dims:(i+1)*dims])
	}
	for i, id := range ids {
		c.score(id, data[i*dims:(i+1)*dims])
	}
	if len(c.queries) != checkQueries {
		t.Fatalf("%d queries, want %d", len(c.queries), checkQueries)
	}
	ex, err := vector.NewExactFromMatrix(dims, ids, slices.Clone(data))
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range c.queries {
		want, _ := ex.Search(q, checkK+1)
		want = slices.DeleteFunc(want, func(h vector.Hit) bool { return h.ID == c.ids[i] })
		if !slices.Equal(c.exact[i], want[:checkK]) {
			t.Fatalf("query %d: exact %v, want %v", c.ids[i], c.exact[i], want[:checkK])
		}
	}
	if rec, err := c.recall(ex.Search); err != nil || rec != 1 {
		t.Fatalf("exact search: recall %v, %v; want 1", rec, err)
	}
	self := func(q []float32, k int) ([]vector.Hit, error) { return ex.Search(q, 1) }
	if rec, err := c.recall(self); err != nil || rec != 0 {
		t.Fatalf("a search that finds only the query: recall %v, %v; want 0", rec, err)
	}
	if !strings.HasPrefix(choice(0.96), searchWalk+" ") || !strings.HasPrefix(choice(0.94), searchScan+" ") {
		t.Errorf("choice(0.96), (0.94) = %q, %q", choice(0.96), choice(0.94))
	}
	st, ctx := testStore(t), context.Background()
	for v, want := range map[string]string{"": searchWalk, choice(0.2): searchScan, choice(1): searchWalk} {
		if err := st.SetMeta(ctx, searchKey("m"), v); err != nil {
			t.Fatal(err)
		}
		if got, _, err := storedChoice(ctx, st, "m"); err != nil || got != want {
			t.Errorf("stored %q: read %q, %v; want %q", v, got, err, want)
		}
	}
}
