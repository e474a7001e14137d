package vector

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestHNSWErrors(t *testing.T) {
	testErrors(t, func(d int) Searcher { return NewHNSW(d, HNSWOptions{}) })
}

// minHNSWRecall is the recall@50 each set must reach at the default
// EfSearch (64). Measured with these seeds: uniform 0.698 (built by Add,
// deterministic; 0.628 / 0.881 / 0.976 at EfSearch 32 / 128 / 256),
// clustered 0.995 (built by the parallel AddBatch, whose graph depends on
// scheduling; 0.992 / 0.999 / 0.999). Uniform data on the sphere is the
// worst case of any graph index: hnswlib 0.6 with the same M and
// EfConstruction measures the same on it (0.73 at ef 64, 10,000×128).
var minHNSWRecall = map[string]float64{"uniform": 0.67, "clustered": 0.97}

var (
	builtOnce sync.Once
	built     map[string]*HNSW
)

// builtHNSW builds the recall sets' graphs once: uniform with sequential
// Add (deterministic), clustered with the parallel AddBatch.
func builtHNSW(t *testing.T) map[string]*HNSW {
	builtOnce.Do(func() {
		built = map[string]*HNSW{}
		for _, s := range recallSets(t) {
			h := NewHNSW(s.dims, HNSWOptions{})
			if s.name == "uniform" {
				fill(t, h, s.data, s.ids)
			} else if err := h.AddBatch(s.ids, s.vecs()); err != nil {
				t.Fatal(err)
			}
			built[s.name] = h
		}
	})
	if len(built) != 2 {
		t.Fatal("building the graphs failed")
	}
	return built
}

func TestHNSWRecall(t *testing.T) {
	graphs := builtHNSW(t)
	for _, s := range recallSets(t) {
		h := graphs[s.name]
		if h.Len() != len(s.ids) {
			t.Fatalf("%s: Len = %d", s.name, h.Len())
		}
		var line string
		for _, ef := range []int{32, 64, 128, 256} {
			h.SetEfSearch(ef)
			got := searchAll(t, h, s.queries, setK)
			for _, hits := range got {
				checkSorted(t, hits)
				if len(hits) != setK {
					t.Fatalf("%s: %d hits, want %d", s.name, len(hits), setK)
				}
			}
			rec := Recall(s.exact, got, setK)
			line += fmt.Sprintf(" ef%d=%.3f", ef, rec)
			if ef == DefaultEfSearch && rec < minHNSWRecall[s.name] {
				t.Errorf("%s: recall@50 at EfSearch %d = %.3f, want ≥ %.2f", s.name, ef, rec, minHNSWRecall[s.name])
			}
		}
		h.SetEfSearch(0)
		t.Logf("%s (%d×%d): recall@50%s", s.name, len(s.ids), s.dims, line)
	}
}

// TestHNSWScores checks that HNSW hits carry exact scores (Dot of the
// stored vector), i.e. candidates are rescored.
func TestHNSWScores(t *testing.T) {
	s := recallSets(t)[1]
	h := builtHNSW(t)[s.name]
	e, _ := NewExactFromMatrix(s.dims, s.ids, s.data)
	q := row(s.queries, s.dims, 0)
	hits, _ := h.Search(q, 10)
	for _, x := range hits {
		v, _ := e.Vector(x.ID)
		if Dot(q, v) != x.Score {
			t.Fatalf("id %d: score %v, exact %v", x.ID, x.Score, Dot(q, v))
		}
	}
}

// TestHNSWSelf checks that stored vectors find themselves.
func TestHNSWSelf(t *testing.T) {
	for _, s := range recallSets(t) {
		h := builtHNSW(t)[s.name]
		miss := 0
		for i := 0; i < len(s.ids); i += 25 {
			hits, _ := h.Search(row(s.data, s.dims, i), 1)
			if len(hits) != 1 || hits[0].ID != s.ids[i] {
				miss++
			}
		}
		if miss > 2 {
			t.Errorf("%s: %d of %d stored vectors are not their own nearest", s.name, miss, len(s.ids)/25)
		}
	}
}

// TestHNSWSmall covers indexes no larger than the candidate list, and
// k ≥ Len: Search must then equal the exact reference.
func TestHNSWSmall(t *testing.T) {
	r := rng(30)
	for _, n := range []int{1, 2, 17, 64, 65, 300} {
		const dims = 7
		m := unitVecs(r, n, dims)
		ids := seqIDs(n, 50, 3)
		h := NewHNSW(dims, HNSWOptions{M: 4})
		fill(t, h, m, ids)
		q := unitVecs(r, 1, dims)
		for _, k := range []int{1, 10, 50, n, n + 5} {
			got, err := h.Search(q, k)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != min(k, n) {
				t.Fatalf("n %d k %d: %d hits", n, k, len(got))
			}
			checkSorted(t, got)
			if k >= 64 || n <= 64 { // scan path
				if want := naiveSearch(m, ids, dims, q, k); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("n %d k %d: differs from the exact reference", n, k)
				}
			}
		}
	}
}

// TestHNSWTies stores groups of identical vectors: returned hits must be
// ordered by id within equal scores, and the best group found first.
func TestHNSWTies(t *testing.T) {
	r := rng(31)
	const dims, distinct, copies = 16, 20, 30
	base := unitVecs(r, distinct, dims)
	h := NewHNSW(dims, HNSWOptions{EfSearch: 16})
	for _, p := range r.Perm(distinct * copies) {
		if err := h.Add(int64(p), row(base, dims, p%distinct)); err != nil {
			t.Fatal(err)
		}
	}
	hits, err := h.Search(row(base, dims, 3), 10)
	if err != nil {
		t.Fatal(err)
	}
	checkSorted(t, hits)
	for i, x := range hits {
		if x.ID%distinct != 3 {
			t.Fatalf("hit %d is id %d, not a copy of vector 3", i, x.ID)
		}
	}
}

func TestHNSWSaveLoad(t *testing.T) {
	for _, s := range recallSets(t) {
		h := builtHNSW(t)[s.name]
		var buf bytes.Buffer
		if err := h.Save(&buf); err != nil {
			t.Fatal(err)
		}
		saved := bytes.Clone(buf.Bytes())
		g, err := LoadHNSW(&buf)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if g.Len() != h.Len() || g.Dims() != h.Dims() || g.M() != h.M() || g.EfSearch() != h.EfSearch() || g.EfConstruction() != h.EfConstruction() {
			t.Fatalf("%s: loaded index differs in size or options", s.name)
		}
		for _, k := range []int{1, 10, 50, 200} {
			a := searchAll(t, h, s.queries, k)
			b := searchAll(t, g, s.queries, k)
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("%s k %d: loaded index returns different results", s.name, k)
			}
		}
		var again bytes.Buffer
		if err := g.Save(&again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(saved, again.Bytes()) {
			t.Errorf("%s: re-saving a loaded index gives different bytes", s.name)
		}
		t.Logf("%s: saved %d vectors in %d bytes", s.name, h.Len(), len(saved))
	}
}

// TestHNSWDeterministic builds twice with sequential Add, saves, loads,
// adds more to both the loaded and the original: all bytes must match.
func TestHNSWDeterministic(t *testing.T) {
	r := rng(32)
	const dims, n = 24, 1500
	m := unitVecs(r, n, dims)
	ids := seqIDs(n, 0, 1)
	build := func() *HNSW {
		h := NewHNSW(dims, HNSWOptions{M: 8, EfConstruction: 40, Seed: 9})
		fill(t, h, m[:1000*dims], ids[:1000])
		return h
	}
	save := func(h *HNSW) []byte {
		var b bytes.Buffer
		if err := h.Save(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	a, b := build(), build()
	if !bytes.Equal(save(a), save(b)) {
		t.Fatal("two builds from the same input differ")
	}
	c, err := LoadHNSW(bytes.NewReader(save(a)))
	if err != nil {
		t.Fatal(err)
	}
	fill(t, a, m[1000*dims:], ids[1000:])
	fill(t, c, m[1000*dims:], ids[1000:])
	if !bytes.Equal(save(a), save(c)) {
		t.Fatal("adding to a loaded index differs from adding to the original")
	}
}

func TestHNSWLoadCorrupt(t *testing.T) {
	r := rng(33)
	const dims, n = 8, 300
	m := unitVecs(r, n, dims)
	h := NewHNSW(dims, HNSWOptions{M: 4})
	fill(t, h, m, seqIDs(n, 0, 1))
	var buf bytes.Buffer
	if err := h.Save(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	if _, err := LoadHNSW(bytes.NewReader(good)); err != nil {
		t.Fatal(err)
	}
	bad := func(what string, b []byte) {
		t.Helper()
		g, err := LoadHNSW(bytes.NewReader(b))
		if err == nil {
			t.Fatalf("%s: loaded without error (%d vectors)", what, g.Len())
		}
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s: error %v does not wrap ErrCorrupt", what, err)
		}
	}
	bad("empty", nil)
	bad("garbage", []byte("not a graph at all, just some text"))
	for cut := 0; cut < len(good); cut += 1 + cut/7 {
		bad(fmt.Sprintf("truncated at %d", cut), good[:cut])
	}
	bad("truncated by one", good[:len(good)-1])
	for pos := 0; pos < len(good); pos += 1 + pos/5 {
		c := bytes.Clone(good)
		c[pos] ^= 0x40
		bad(fmt.Sprintf("bit flipped at %d", pos), c)
	}
	// A header claiming a huge index must fail on the short data, not
	// allocate for the claim.
	c := bytes.Clone(good)
	copy(c[8+4+5*4+8+8:], []byte{0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0})
	bad("huge count", c)
	var empty bytes.Buffer
	if err := NewHNSW(3, HNSWOptions{}).Save(&empty); err != nil {
		t.Fatal(err)
	}
	e, err := LoadHNSW(&empty)
	if err != nil || e.Len() != 0 || e.Dims() != 3 {
		t.Fatalf("empty index round trip: %v", err)
	}
	if err := e.Add(1, []float32{1, 0, 0}); err != nil {
		t.Fatal(err)
	}
}

func TestHNSWAddBatch(t *testing.T) {
	r := rng(34)
	const dims = 16
	m := unitVecs(r, 600, dims)
	vs := make([][]float32, 600)
	for i := range vs {
		vs[i] = row(m, dims, i)
	}
	ids := seqIDs(600, 0, 1)
	h := NewHNSW(dims, HNSWOptions{Workers: 3})
	if err := h.AddBatch(ids[:1], vs[:1]); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ids  []int64
		vs   [][]float32
		want error
	}{
		{"length mismatch", ids[1:3], vs[1:2], nil},
		{"duplicate in batch", []int64{5, 6, 5}, vs[5:8], ErrDuplicateID},
		{"duplicate of stored", []int64{7, 0}, vs[7:9], ErrDuplicateID},
		{"wrong dims", []int64{8, 9}, [][]float32{vs[8], vs[9][:3]}, ErrDims},
	} {
		err := h.AddBatch(c.ids, c.vs)
		if err == nil || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
		if h.Len() != 1 {
			t.Fatalf("%s: a failed batch inserted vectors (Len %d)", c.name, h.Len())
		}
	}
	if err := h.AddBatch(nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.AddBatch(ids[1:], vs[1:]); err != nil {
		t.Fatal(err)
	}
	e := NewExact(dims)
	fill(t, e, m, ids)
	qs := unitVecs(r, 50, dims)
	if rec := Recall(searchAll(t, e, qs, 10), searchAll(t, h, qs, 10), 10); rec < 0.95 {
		t.Errorf("recall@10 after a parallel batch = %.3f", rec)
	}
}

// TestHNSWAddBatchCodes covers the graph's int8 codes: a first build, then
// a large batch added to the saved and loaded graph, of dimensions that are
// not a multiple of the kernel's 32. Every node keeps the codes of its
// vector (zero padded), through Save and Load, and searches keep finding
// the exact neighbours.
func TestHNSWAddBatchCodes(t *testing.T) {
	r := rng(35)
	const dims = 40
	mx := newMixture(r, dims, 30, 0.8)
	m := mx.sample(r, 3000)
	vs := make([][]float32, 3000)
	for i := range vs {
		vs[i] = row(m, dims, i)
	}
	ids := seqIDs(3000, 0, 1)
	h := NewHNSW(dims, HNSWOptions{Workers: 2})
	if err := h.AddBatch(ids[:1800], vs[:1800]); err != nil {
		t.Fatal(err)
	}
	checkCodes(t, h)
	var buf bytes.Buffer
	if err := h.Save(&buf); err != nil {
		t.Fatal(err)
	}
	h, err := LoadHNSW(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.AddBatch(ids[1800:], vs[1800:]); err != nil { // 1,200 ≥ 3,000/8
		t.Fatal(err)
	}
	checkCodes(t, h)
	if h.Len() != 3000 {
		t.Fatalf("after the second batch: Len %d", h.Len())
	}
	e := NewExact(dims)
	fill(t, e, m, ids)
	qs := mx.sample(r, 100)
	if rec := Recall(searchAll(t, e, qs, 10), searchAll(t, h, qs, 10), 10); rec < 0.95 {
		t.Errorf("recall@10 after batches on codes = %.3f", rec)
	}
}

// TestHNSWSearchScoresExact checks that a search, which walks the graph
// on int8 codes, returns the exact Dot scores of the hits it keeps, in
// order.
func TestHNSWSearchScoresExact(t *testing.T) {
	for _, s := range recallSets(t) {
		h := builtHNSW(t)[s.name]
		ids, data := h.Matrix()
		row0 := make(map[int64]int, len(ids))
		for i, id := range ids {
			row0[id] = i
		}
		for qi, hits := range searchAll(t, h, s.queries, 20) {
			q := row(s.queries, s.dims, qi)
			for _, hit := range hits {
				if want := Dot(q, row(data, s.dims, row0[hit.ID])); hit.Score != want {
					t.Fatalf("%s query %d: id %d scored %v, Dot %v", s.name, qi, hit.ID, hit.Score, want)
				}
			}
			checkSorted(t, hits)
		}
	}
}

// checkCodes fails unless every node of h holds the codes and scale of
// its vector, zero padded to the stride.
func checkCodes(t *testing.T, h *HNSW) {
	t.Helper()
	n := h.Len()
	if h.cstride != codeStride(h.dims) || len(h.codes) != n*h.cstride || len(h.cscale) != n {
		t.Fatalf("codes: stride %d, %d codes, %d scales for %d nodes", h.cstride, len(h.codes), len(h.cscale), n)
	}
	want := make([]int8, h.cstride)
	for i := range n {
		clear(want)
		scale := quantizeI8(want[:h.dims], h.vec(uint32(i)))
		if !slices.Equal(want, h.codes[i*h.cstride:(i+1)*h.cstride]) || scale != h.cscale[i] {
			t.Fatalf("node %d: codes or scale differ from its vector's", i)
		}
	}
}

// TestHNSWConcurrentSearch runs searches in parallel (meaningful under
// -race).
func TestHNSWConcurrentSearch(t *testing.T) {
	s := recallSets(t)[0]
	h := builtHNSW(t)[s.name]
	want := searchAll(t, h, s.queries, 10)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(want); i += 4 {
				got, err := h.Search(row(s.queries, s.dims, i), 10)
				if err != nil || fmt.Sprint(got) != fmt.Sprint(want[i]) {
					t.Errorf("query %d: concurrent search differs", i)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestHNSWScanCodes checks the graph-free scan of the codes: on the
// uniform set, which defeats the graph, and the clustered one, in memory
// and mapped from a file, it finds the exact neighbours (recall@10 at
// least 0.99) with their exact scores, and k ≥ Len returns every vector.
func TestHNSWScanCodes(t *testing.T) {
	for _, s := range recallSets(t) {
		h := builtHNSW(t)[s.name]
		path := filepath.Join(t.TempDir(), "g.hnsw")
		saveTo(t, h, path)
		g, err := MapHNSW(path, false)
		if err != nil {
			t.Fatal(err)
		}
		ids, data := h.Matrix()
		rowOf := make(map[int64]int, len(ids))
		for i, id := range ids {
			rowOf[id] = i
		}
		for name, x := range map[string]*HNSW{"memory": h, "mapped": g} {
			got := make([][]Hit, 0, setQueries)
			for qi := range setQueries {
				q := row(s.queries, s.dims, qi)
				hits, err := x.ScanCodes(q, 10)
				if err != nil {
					t.Fatal(err)
				}
				for _, hit := range hits {
					if want := Dot(q, row(data, s.dims, rowOf[hit.ID])); hit.Score != want {
						t.Fatalf("%s %s: id %d scored %v, Dot %v", s.name, name, hit.ID, hit.Score, want)
					}
				}
				checkSorted(t, hits)
				got = append(got, hits)
			}
			if rec := Recall(s.exact, got, 10); rec < 0.99 {
				t.Errorf("%s %s: recall@10 of the codes scan %.3f", s.name, name, rec)
			}
		}
		all, err := g.ScanCodes(row(s.queries, s.dims, 0), h.Len()+5)
		if err != nil || len(all) != h.Len() {
			t.Fatalf("%s: k above Len: %d hits, %v", s.name, len(all), err)
		}
	}
}
