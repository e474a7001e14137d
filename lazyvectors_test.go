package oraculo_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// countingStore counts the reads of vectors and of vector graphs.
type countingStore struct {
	store.Store
	vectors, graphs atomic.Int32
	// maps counts the graphs mapped from their file (mappingStore), also
	// counted in graphs.
	maps atomic.Int32
	// ids counts the listings of the chunks that have a vector.
	ids atomic.Int32
}

func (c *countingStore) VectorIDs(ctx context.Context, model string) ([]int64, int, error) {
	c.ids.Add(1)
	return c.Store.VectorIDs(ctx, model)
}

// mappingStore is a countingStore whose graphs are mapped from files, as
// the index's are.
type mappingStore struct{ *countingStore }

func (m mappingStore) MapGraph(ctx context.Context, model string) (*vector.HNSW, error) {
	m.graphs.Add(1)
	m.maps.Add(1)
	return m.Store.(store.GraphMapper).MapGraph(ctx, model)
}

func (c *countingStore) LoadVectors(ctx context.Context, model string) (*store.Vectors, int, error) {
	c.vectors.Add(1)
	return c.Store.LoadVectors(ctx, model)
}

// The graph role ([store.GraphStore]) of the store counted, its reads
// counted.

func (c *countingStore) LoadGraph(ctx context.Context, model string) ([]byte, error) {
	c.graphs.Add(1)
	return c.Store.(store.GraphStore).LoadGraph(ctx, model)
}

func (c *countingStore) GraphReader(ctx context.Context, model string) (io.ReadCloser, error) {
	c.graphs.Add(1)
	return c.Store.(store.GraphStore).GraphReader(ctx, model)
}

func (c *countingStore) SaveGraph(ctx context.Context, model string, vectors int, graph []byte) error {
	return c.Store.(store.GraphStore).SaveGraph(ctx, model, vectors, graph)
}

func (c *countingStore) SaveHNSW(ctx context.Context, model string, g *vector.HNSW) error {
	return c.Store.(store.GraphStore).SaveHNSW(ctx, model, g)
}

func (c *countingStore) DeleteGraph(ctx context.Context, model string) error {
	return c.Store.(store.GraphStore).DeleteGraph(ctx, model)
}

func (c *countingStore) reads() (vectors, graphs int32) {
	return c.vectors.Swap(0), c.graphs.Swap(0)
}

// TestVectorsLoadedOnlyWhenSearchedDensely: an unchanged re-ingest reads
// no vector and no graph; a BM25-only search, an entity-only one and the
// stats load none either; a search with the dense path walks the stored
// graph without reading the vectors' rows (the graph holds them); an
// edited note makes the next ingest read them once and build again. Run
// on a store that maps its graphs from files (the index) and on one that
// only streams them.
func TestVectorsLoadedOnlyWhenSearchedDensely(t *testing.T) {
	for _, mapped := range []bool{true, false} {
		t.Run(map[bool]string{true: "mapped", false: "streamed"}[mapped], func(t *testing.T) {
			testVectorsLoadedOnlyWhenSearchedDensely(t, mapped)
		})
	}
}

func testVectorsLoadedOnlyWhenSearchedDensely(t *testing.T, mapped bool) {
	ctx := context.Background()
	notes := t.TempDir()
	for i := range 30 {
		who := "El grupo"
		if i%6 == 0 {
			who = "Harbin Wester"
		}
		write(t, filepath.Join(notes, "n", "nota"+strings.Repeat("i", i+1)+".md"),
			"# Nota\n\n"+who+" habla de "+strings.Repeat("dragones ", i%5+1)+strings.Repeat("barcos ", i%7+1)+"y del número "+strings.Repeat("x", i+1)+".\n")
	}
	ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingStore{Store: ix}
	var s store.Store = cs
	if mapped {
		s = mappingStore{cs}
	}
	eng, err := oraculo.OpenStore(ctx, s, oraculo.WithANNThreshold(10),
		oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing, Dims: 64}))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if v, _ := cs.reads(); v != 1 {
		t.Errorf("the first ingest read the vectors %d times, want once (to build the graph)", v)
	}
	cs.ids.Store(0)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if v, g := cs.reads(); v != 0 || g != 0 {
		t.Errorf("an unchanged re-ingest read the vectors %d times and the graph %d times", v, g)
	}
	if n := cs.ids.Swap(0); n != 0 {
		t.Errorf("an unchanged re-ingest listed the chunks with vectors %d times", n)
	}
	for _, paths := range [][]string{{"bm25"}, {"entity"}, {"bm25", "entity"}} {
		hits, err := eng.Search(ctx, "¿Qué dice Harbin Wester de los dragones?", oraculo.SearchOptions{K: 5, Paths: paths})
		if err != nil || len(hits) == 0 {
			t.Fatalf("search %v: %d hits, %v", paths, len(hits), err)
		}
		if v, g := cs.reads(); v != 0 || g != 0 {
			t.Errorf("a search on %v read the vectors %d times and the graph %d times", paths, v, g)
		}
	}
	st, err := eng.Stats(ctx)
	if err != nil || !st.Retrieval.Graph || st.Retrieval.DenseVectors != 30 {
		t.Fatalf("stats: %+v %v", st.Retrieval, err)
	}
	if v, g := cs.reads(); v != 0 || g != 0 {
		t.Errorf("stats read the vectors %d times and the graph %d times", v, g)
	}
	cs.maps.Store(0)
	hits, err := eng.Search(ctx, "dragones y barcos", oraculo.SearchOptions{K: 5})
	if err != nil || len(hits) == 0 || hits[0].Paths["dense"] == 0 {
		t.Fatalf("a fused search: %v %+v", err, hits)
	}
	if v, g := cs.reads(); v != 0 || g != 1 {
		t.Errorf("a dense search read the vectors %d times and the graph %d times, want 0 and 1", v, g)
	}
	if m := cs.maps.Swap(0); mapped != (m == 1) {
		t.Errorf("the graph was mapped %d times, on a store that maps: %v", m, mapped)
	}

	write(t, filepath.Join(notes, "n", "notai.md"), "# Nota\n\nAhora habla de krakens.\n")
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if v, _ := cs.reads(); v != 1 {
		t.Errorf("a re-ingest after an edit read the vectors %d times, want once", v)
	}
	cs.reads()
	cs.maps.Store(0)
	hits, err = eng.Search(ctx, "krakens", oraculo.SearchOptions{K: 1, Paths: []string{"dense"}})
	if err != nil || len(hits) != 1 || hits[0].File != "n/notai.md" {
		t.Fatalf("the rebuilt graph does not find the edit: %v %+v", err, hits)
	}
	if v, g := cs.reads(); v != 0 || g != 1 {
		t.Errorf("after the rebuild, a dense search read the vectors %d times and the graph %d times, want 0 and 1", v, g)
	}
	if m := cs.maps.Swap(0); mapped != (m == 1) {
		t.Errorf("after the rebuild, the graph was mapped %d times, on a store that maps: %v", m, mapped)
	}
	// One note of thirty changed: its new chunk was added to the stored
	// graph, and its old one stays there as a tombstone that no search
	// returns (a rebuild would hold exactly the 30).
	if n := graphSize(t, ix); n != 31 {
		t.Errorf("the graph after one edit holds %d vectors, want 31 (updated, not rebuilt)", n)
	}
	hits, err = eng.Search(ctx, "La nota habla de dragones barcos y del número x", oraculo.SearchOptions{K: 31, Paths: []string{"dense"}})
	if err != nil || len(hits) != 30 {
		t.Fatalf("a search over every vector: %d hits (want the 30 live chunks), %v", len(hits), err)
	}
	// Four more edits: tombstones and additions past a tenth of the
	// graph, so it is built anew.
	for _, n := range []string{"notaii.md", "notaiii.md", "notaiiii.md", "notaiiiii.md"} {
		write(t, filepath.Join(notes, "n", n), "# Nota\n\nAhora habla de "+n+".\n")
	}
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := graphSize(t, ix); n != 30 {
		t.Errorf("the graph after five edits holds %d vectors, want 30 (built anew)", n)
	}
	// A removed note leaves only a tombstone: the stored graph stands,
	// not even saved again.
	before, _ := os.ReadDir(ix.GraphDir())
	if err := os.Remove(filepath.Join(notes, "n", "notaii.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadDir(ix.GraphDir())
	if n := graphSize(t, ix); n != 30 || len(before) != 1 || len(after) != 1 || before[0].Name() != after[0].Name() {
		t.Errorf("after a removal the graph holds %d vectors (want the same 30) and its files went from %v to %v", n, before, after)
	}
	hits, err = eng.Search(ctx, "La nota habla de dragones barcos y del número x", oraculo.SearchOptions{K: 31, Paths: []string{"dense"}})
	if err != nil || len(hits) != 29 {
		t.Fatalf("a search over every vector after a removal: %d hits (want the 29 live chunks), %v", len(hits), err)
	}
}

// graphSize decodes the stored graph and counts its vectors.
func graphSize(t *testing.T, ix *index.Index) int {
	t.Helper()
	ctx := context.Background()
	models, err := ix.EmbeddingCounts(ctx)
	if err != nil || len(models) != 1 {
		t.Fatalf("models %v %v", models, err)
	}
	for m := range models {
		r, err := ix.GraphReader(ctx, m)
		if err != nil || r == nil {
			t.Fatalf("no graph: %v", err)
		}
		defer r.Close()
		h, err := vector.LoadHNSW(r)
		if err != nil {
			t.Fatal(err)
		}
		return h.Len()
	}
	return 0
}
