package vector

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
)

// matrixRows streams the rows of m (ids[i] the id of row i).
func matrixRows(m []float32, ids []int64, dims int) Rows {
	return func(yield func(int64, []float32) error) error {
		for i, id := range ids {
			if err := yield(id, row(m, dims, i)); err != nil {
				return err
			}
		}
		return nil
	}
}

// savedCodesGraph builds a graph from codes over m and returns it saved
// with SaveRows and loaded back.
func savedCodesGraph(t *testing.T, dims int, m []float32, ids []int64, opts HNSWOptions) *HNSW {
	t.Helper()
	h, err := BuildHNSWCodes(dims, len(ids), matrixRows(m, ids, dims), opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := h.SaveRows(&buf, matrixRows(m, ids, dims)); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != h.SavedSize() {
		t.Fatalf("SaveRows wrote %d bytes, SavedSize says %d", buf.Len(), h.SavedSize())
	}
	g, err := LoadHNSW(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestBuildHNSWCodesRecall checks that a graph built from codes alone
// (neighbours chosen and links pruned on codes), saved with its vectors
// streamed again, finds what the graph built on float32 vectors finds:
// the recall thresholds of TestHNSWRecall, and at most 0.02 below that
// graph's recall at every EfSearch.
func TestBuildHNSWCodesRecall(t *testing.T) {
	graphs := builtHNSW(t)
	for _, s := range recallSets(t) {
		g := savedCodesGraph(t, s.dims, s.data, s.ids, HNSWOptions{})
		if g.Len() != len(s.ids) {
			t.Fatalf("%s: Len = %d", s.name, g.Len())
		}
		var line string
		for _, ef := range []int{32, 64, 128, 256} {
			g.SetEfSearch(ef)
			graphs[s.name].SetEfSearch(ef)
			got := Recall(s.exact, searchAll(t, g, s.queries, setK), setK)
			ref := Recall(s.exact, searchAll(t, graphs[s.name], s.queries, setK), setK)
			line += fmt.Sprintf(" ef%d=%.3f (float build %.3f)", ef, got, ref)
			if got < ref-0.02 {
				t.Errorf("%s: recall@50 at EfSearch %d = %.3f, the float build's %.3f", s.name, ef, got, ref)
			}
			if ef == DefaultEfSearch && got < minHNSWRecall[s.name] {
				t.Errorf("%s: recall@50 at EfSearch %d = %.3f, want ≥ %.2f", s.name, ef, got, minHNSWRecall[s.name])
			}
		}
		graphs[s.name].SetEfSearch(0)
		t.Logf("%s (%d×%d): recall@50%s", s.name, len(s.ids), s.dims, line)
	}
}

// TestBuildHNSWCodes checks what a graph built from codes keeps and
// refuses: it saves as a graph built on vectors saves (one worker: the
// same links as AddBatch's up to the scores it chose them by), its
// vectors exactly as given; it cannot be searched before; SaveRows
// refuses rows that are not the graph's; bad vectors fail the build.
func TestBuildHNSWCodes(t *testing.T) {
	r := rng(41)
	const dims, n = 24, 600
	m := unitVecs(r, n, dims)
	ids := seqIDs(n, 1000, 7)
	opts := HNSWOptions{Workers: 1, M: 6}
	h, err := BuildHNSWCodes(dims, 10, matrixRows(m, ids, dims), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Search(m[:dims], 3); !errors.Is(err, ErrNoVectors) {
		t.Fatalf("Search of a graph without vectors: %v", err)
	}
	if _, err := h.ScanCodes(m[:dims], 3); !errors.Is(err, ErrNoVectors) {
		t.Fatalf("ScanCodes of a graph without vectors: %v", err)
	}
	if err := h.Save(&bytes.Buffer{}); !errors.Is(err, ErrNoVectors) {
		t.Fatalf("Save of a graph without vectors: %v", err)
	}
	g := savedCodesGraph(t, dims, m, ids, opts)
	gids, data := g.Matrix()
	if !slices.Equal(gids, ids) || !slices.Equal(data, m) {
		t.Fatal("the saved graph's ids or vectors differ from those given")
	}
	for i := range 20 {
		hits, err := g.Search(row(m, dims, i*29), 5)
		if err != nil {
			t.Fatal(err)
		}
		if hits[0].ID != ids[i*29] || math.Abs(float64(hits[0].Score)-1) > 1e-5 {
			t.Fatalf("vector %d: best hit %+v, want itself", ids[i*29], hits[0])
		}
	}
	// In parallel (under -race: the codes are read while links are set).
	par := savedCodesGraph(t, dims, m, ids, HNSWOptions{Workers: 4, M: 6})
	for i := range 20 {
		if hits, err := par.Search(row(m, dims, i*29), 1); err != nil || hits[0].ID != ids[i*29] {
			t.Fatalf("parallel build, vector %d: %v, %v; want itself", ids[i*29], hits, err)
		}
	}
	// Rows that are not the graph's.
	wrong := append([]int64(nil), ids...)
	wrong[5], wrong[6] = wrong[6], wrong[5]
	for name, rows := range map[string]Rows{
		"reordered": matrixRows(m, wrong, dims),
		"short":     matrixRows(m, ids[:n-1], dims),
		"long":      matrixRows(append(m, m[:dims]...), append(append([]int64(nil), ids...), 1), dims),
	} {
		if err := h.SaveRows(&bytes.Buffer{}, rows); err == nil {
			t.Errorf("SaveRows with %s rows: no error", name)
		}
	}
	// Bad vectors and ids fail the build.
	bad := append([]float32(nil), m...)
	bad[3*dims+1] = float32(math.NaN())
	if _, err := BuildHNSWCodes(dims, n, matrixRows(bad, ids, dims), opts); !errors.Is(err, ErrNonFinite) {
		t.Fatalf("a NaN: %v", err)
	}
	dup := append([]int64(nil), ids...)
	dup[9] = dup[2]
	if _, err := BuildHNSWCodes(dims, n, matrixRows(m, dup, dims), opts); !errors.Is(err, ErrDuplicateID) {
		t.Fatalf("a repeated id: %v", err)
	}
	if _, err := BuildHNSWCodes(dims+1, n, matrixRows(m, ids, dims), opts); !errors.Is(err, ErrDims) {
		t.Fatalf("short vectors: %v", err)
	}
	stop := errors.New("stop")
	if _, err := BuildHNSWCodes(dims, n, func(func(int64, []float32) error) error { return stop }, opts); !errors.Is(err, stop) {
		t.Fatalf("a failing stream: %v", err)
	}
}
