package dense

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// testStore is a real SQLite index in t.TempDir().
func testStore(t *testing.T) *index.Index {
	t.Helper()
	ix, err := index.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// addNotes stores notes number from..to-1, one chunk each, each with a
// text of its own to embed.
func addNotes(t *testing.T, st *index.Index, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		path := fmt.Sprintf("nota%02d.md", i)
		text := fmt.Sprintf("La nota %d habla del dragón %d y de la torre%d.", i, i, i)
		d := &store.DocumentRecord{Root: "/r", Path: path, SHA256: "h-" + path, Title: path, Stamp: "s",
			Chunks: []store.ChunkRecord{{
				ChunkData: store.ChunkData{UID: store.ChunkUID(path, 0, text), Hash: "x" + path, Label: path, Text: text},
				EmbedHash: "e-" + path,
				Children:  []store.ChildRecord{{Terms: "dragon"}},
			}}}
		if err := st.ReplaceDocument(context.Background(), d); err != nil {
			t.Fatalf("storing %s: %v", path, err)
		}
	}
}

// deleteNotes removes the given notes.
func deleteNotes(t *testing.T, st *index.Index, numbers ...int) {
	t.Helper()
	for _, i := range numbers {
		if err := st.DeleteDocument(context.Background(), "/r", fmt.Sprintf("nota%02d.md", i)); err != nil {
			t.Fatal(err)
		}
	}
}

// update runs Update and fails the test on an error or a warning.
func update(t *testing.T, st Store, em embed.Embedder, opts Options) Result {
	t.Helper()
	r, err := Update(context.Background(), st, em, opts, nil)
	if err != nil || r.Warning != "" {
		t.Fatalf("update: %+v, %v", r, err)
	}
	return r
}

// load runs Load and fails the test on an error or no index.
func load(t *testing.T, st Store, em embed.Embedder, opts Options) (*Index, []string) {
	t.Helper()
	ix, warnings, err := Load(context.Background(), st, em, opts)
	if err != nil || ix == nil {
		t.Fatalf("load: %v, %v", ix, err)
	}
	return ix, warnings
}

// TestUpdateBuildsTheGraphAndLoadWalksIt: at or above the threshold,
// ingest stores a graph over every vector and a load walks it, with no
// warning; an unchanged re-ingest does nothing; below the threshold the
// vectors are scanned exactly and no graph is stored.
func TestUpdateBuildsTheGraphAndLoadWalksIt(t *testing.T) {
	ctx := context.Background()
	st, em := testStore(t), embed.NewHashing(64)
	addNotes(t, st, 0, 30)
	var stages []string
	r, err := Update(ctx, st, em, Options{Threshold: 10}, func(stage string, done, total int) {
		stages = append(stages, fmt.Sprintf("%s %d/%d", stage, done, total))
	})
	if err != nil || !r.Built || r.Embed == nil || r.Embed.Embedded != 30 || r.Embed.Pending != 0 {
		t.Fatalf("first update: %+v %+v, %v; want 30 embedded and a graph built", r, r.Embed, err)
	}
	if got := strings.Join(stages, ", "); !strings.Contains(got, "embed 30/30") || !strings.HasSuffix(got, "graph 0/30, graph 30/30") {
		t.Errorf("progress %q: want the embed stage, then the graph's from 0 to 30", got)
	}
	ix, warnings := load(t, st, em, Options{Threshold: 10})
	if h, ok := ix.search.(*vector.HNSW); !ok || h.Len() != 30 || ix.gone != 0 || len(warnings) != 0 {
		t.Fatalf("loaded %T (gone %d), warnings %q: want the stored graph of 30, no warning", ix.search, ix.gone, warnings)
	}
	if r = update(t, st, em, Options{Threshold: 10}); r.Built || r.Embed.Embedded != 0 {
		t.Errorf("unchanged re-ingest: %+v: want nothing done", r)
	}

	r = update(t, st, em, Options{Threshold: 100})
	if rc, err := st.GraphReader(ctx, em.ID()); err != nil || rc != nil || r.Built {
		t.Fatalf("below the threshold: graph reader %v, %v, built %v: want the graph dropped", rc, err, r.Built)
	}
	if ix, _ := load(t, st, em, Options{Threshold: 100}); ix.search != ix.exact {
		t.Errorf("below the threshold the search is %T, want the exact scan", ix.search)
	}
}

// TestUpdateAddsToTheGraphWithinTombstones: a note removed and one added
// are added to the stored graph, which keeps the removed chunk as a
// tombstone that search knows of; more changes than a tenth of the chunks
// build the graph anew, without tombstones.
func TestUpdateAddsToTheGraphWithinTombstones(t *testing.T) {
	st, em, opts := testStore(t), embed.NewHashing(64), Options{Threshold: 10}
	addNotes(t, st, 0, 30)
	update(t, st, em, opts)
	deleteNotes(t, st, 5)
	addNotes(t, st, 30, 31)
	if r := update(t, st, em, opts); !r.Built {
		t.Fatalf("%+v: want the graph added to", r)
	}
	ix, warnings := load(t, st, em, opts)
	if h, ok := ix.search.(*vector.HNSW); !ok || h.Len() != 31 || ix.gone != 1 || len(warnings) != 0 {
		t.Fatalf("loaded %T (gone %d), warnings %q: want the graph of 31 with 1 tombstone", ix.search, ix.gone, warnings)
	}
	deleteNotes(t, st, 1, 2, 3, 4)
	update(t, st, em, opts)
	ix, _ = load(t, st, em, opts)
	if h, ok := ix.search.(*vector.HNSW); !ok || h.Len() != 26 || ix.gone != 0 {
		t.Fatalf("loaded %T (gone %d): want a graph of the 26 live chunks built anew", ix.search, ix.gone)
	}
}

// TestLoadWarns: a graph missing at or above the threshold, and chunks
// without a vector, are said in warnings, and the vectors are scanned
// exactly.
func TestLoadWarns(t *testing.T) {
	st, em := testStore(t), embed.NewHashing(64)
	addNotes(t, st, 0, 30)
	update(t, st, em, Options{Threshold: 100}) // no graph
	addNotes(t, st, 30, 32)                    // not embedded
	ix, warnings := load(t, st, em, Options{Threshold: 10})
	want := []string{
		fmt.Sprintf("the vector graph of %q is missing or out of date: searching exactly until the next oraculo ingest rebuilds it", em.ID()),
		fmt.Sprintf("2 chunks have no vector for %q yet: run oraculo ingest to embed them", em.ID()),
	}
	if fmt.Sprint(warnings) != fmt.Sprint(want) || ix.search != ix.exact || ix.missing != 2 {
		t.Fatalf("warnings %q, search %T: want %q and the exact scan", warnings, ix.search, want)
	}
	if ix, warnings, err := Load(context.Background(), st, nil, Options{}); ix != nil || warnings != nil || err != nil {
		t.Errorf("no embedder: %v, %q, %v; want nothing", ix, warnings, err)
	}
}

// TestSearchModes: the exact mode scans, the approximate one walks a graph
// built on first use and kept; Path gives the scope's chunks to the
// loaded vectors' search.
func TestSearchModes(t *testing.T) {
	ctx := context.Background()
	st, em := testStore(t), embed.NewHashing(64)
	addNotes(t, st, 0, 12)
	update(t, st, em, Options{Threshold: 100})
	ix, _ := load(t, st, em, Options{Threshold: 100})
	d, err := ix.Exact(ctx, retrieve.Dense{}, nil)
	if err != nil || d.Searcher != vector.Searcher(ix.exact) {
		t.Fatalf("exact: %T, %v", d.Searcher, err)
	}
	a, err := ix.Approx(ctx, retrieve.Dense{})
	h, ok := a.Searcher.(*vector.HNSW)
	if err != nil || !ok || h.Len() != 12 {
		t.Fatalf("approx: %T, %v; want a graph of 12", a.Searcher, err)
	}
	if b, _ := ix.Approx(ctx, retrieve.Dense{}); b.Searcher != a.Searcher {
		t.Error("the approximate graph was built twice")
	}
	scope := Scope{
		Allow:      func() (map[int64]bool, error) { return map[int64]bool{1: true}, nil },
		Restricted: func() (map[int64]bool, error) { return map[int64]bool{2: true}, nil },
	}
	p, err := ix.Path(retrieve.Dense{Public: true}, store.Filter{}, scope)
	if err != nil || !p.Allow[1] || !p.Exclude[2] || p.Searcher != ix.search || p.Store != nil {
		t.Fatalf("path: %+v, %v: want the scope's chunks on the loaded search", p, err)
	}
	if p, _ = ix.Path(retrieve.Dense{}, store.Filter{}, scope); p.Exclude != nil {
		t.Errorf("a DM's path excludes %v, want nothing", p.Exclude)
	}
}

// TestGraphHoldsAndSignature: a graph serves while it holds every live id
// and at most a tenth more; the signature of ids depends on their order
// and on the chunks' version.
func TestGraphHoldsAndSignature(t *testing.T) {
	h := vector.NewHNSW(2, vector.HNSWOptions{})
	var ids []int64
	var rows [][]float32
	for i := range 22 {
		ids, rows = append(ids, int64(i+1)), append(rows, []float32{float32(i + 1), 1})
	}
	if err := h.AddBatch(ids, rows); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		live []int64
		want bool
	}{
		{ids, true},
		{ids[:20], true},                 // 2 tombstones of 20
		{ids[:19], false},                // 3 of 19: more than a tenth
		{append(ids[:21:21], 99), false}, // 99 is not in it
	} {
		if got := graphHolds(h, c.live); got != c.want {
			t.Errorf("graphHolds over %d live ids: %v, want %v", len(c.live), got, c.want)
		}
	}
	if idsSignature([]int64{1, 2}) == idsSignature([]int64{2, 1}) || graphSignature("a", ids) == graphSignature("b", ids) {
		t.Error("the signature does not tell orders or versions apart")
	}
	if maxTombstones(5) != 1 || maxTombstones(30) != 3 {
		t.Errorf("maxTombstones(5), (30) = %d, %d; want 1, 3", maxTombstones(5), maxTombstones(30))
	}
}
