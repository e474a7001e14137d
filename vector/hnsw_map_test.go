package vector

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func saveTo(t *testing.T, h *HNSW, path string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := h.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestMapHNSW maps saved graphs and checks that they search as the
// graphs they were saved from, exactly and approximately, save the same
// bytes, and refuse to be added to.
func TestMapHNSW(t *testing.T) {
	dir := t.TempDir()
	for _, s := range recallSets(t) {
		h := builtHNSW(t)[s.name]
		path := filepath.Join(dir, s.name+".hnsw")
		saved := saveTo(t, h, path)
		if h.SavedSize() != len(saved) {
			t.Fatalf("%s: SavedSize %d, Save wrote %d bytes", s.name, h.SavedSize(), len(saved))
		}
		for _, verify := range []bool{false, true} {
			g, err := MapHNSW(path, verify)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			if g.Len() != h.Len() || g.Dims() != h.Dims() || g.M() != h.M() || g.EfSearch() != h.EfSearch() {
				t.Fatalf("%s: mapped graph differs in size or options", s.name)
			}
			if runtime.GOOS != "windows" && g.file == nil {
				t.Fatalf("%s: the mapped graph rescores through the mapping, not the file", s.name)
			}
			ids, data := h.Matrix()
			ex, err := NewExactFromMatrix(h.Dims(), ids, data)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []int{1, 10, 50} {
				if a, b := searchAll(t, h, s.queries, k), searchAll(t, g, s.queries, k); fmt.Sprint(a) != fmt.Sprint(b) {
					t.Fatalf("%s k %d: the mapped graph returns different results", s.name, k)
				}
				if a, b := searchAll(t, ex, s.queries, k), searchAll(t, g.Exact(), s.queries, k); fmt.Sprint(a) != fmt.Sprint(b) {
					t.Fatalf("%s k %d: the exact index over the mapped vectors returns different results", s.name, k)
				}
			}
			var again bytes.Buffer
			if err := g.Save(&again); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(saved, again.Bytes()) {
				t.Fatalf("%s: re-saving a mapped graph gives different bytes", s.name)
			}
			if err := g.Add(1<<40, row(s.queries, s.dims, 0)); !errors.Is(err, ErrReadOnly) {
				t.Fatalf("%s: Add to a mapped graph: %v", s.name, err)
			}
			if err := g.AddBatch([]int64{1 << 40}, [][]float32{row(s.queries, s.dims, 0)}); !errors.Is(err, ErrReadOnly) {
				t.Fatalf("%s: AddBatch to a mapped graph: %v", s.name, err)
			}
			// A clone is the same graph, in memory of its own, and takes
			// more vectors as the original would.
			c := g.Clone()
			if a, b := searchAll(t, h, s.queries, 10), searchAll(t, c, s.queries, 10); fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("%s: the clone of a mapped graph returns different results", s.name)
			}
			var cb bytes.Buffer
			if err := c.Save(&cb); err != nil || !bytes.Equal(cb.Bytes(), saved) {
				t.Fatalf("%s: the clone saves differently (%v)", s.name, err)
			}
			if err := c.Add(1<<40, row(s.queries, s.dims, 0)); err != nil || c.Len() != g.Len()+1 || !c.Contains(1<<40) || g.Contains(1<<40) {
				t.Fatalf("%s: adding to the clone: %v", s.name, err)
			}
			// The exact index keeps the mapping alive on its own.
			e := g.Exact()
			g = nil
			runtime.GC()
			runtime.GC()
			if _, err := e.Search(row(s.queries, s.dims, 0), 5); err != nil {
				t.Fatal(err)
			}
		}
	}
	empty := filepath.Join(dir, "empty.hnsw")
	saveTo(t, NewHNSW(3, HNSWOptions{}), empty)
	e, err := MapHNSW(empty, true)
	if err != nil || e.Len() != 0 || e.Dims() != 3 {
		t.Fatalf("empty graph: %v", err)
	}
	if hits, err := e.Search([]float32{1, 0, 0}, 3); err != nil || len(hits) != 0 {
		t.Fatalf("searching an empty mapped graph: %v, %v", hits, err)
	}
}

// TestMapHNSWCorrupt: a damaged file is an error wrapping ErrCorrupt,
// never a panic; with verify, every damaged byte is found.
func TestMapHNSWCorrupt(t *testing.T) {
	r := rng(35)
	const dims, n = 8, 300
	h := NewHNSW(dims, HNSWOptions{M: 4})
	fill(t, h, unitVecs(r, n, dims), seqIDs(n, 0, 1))
	dir := t.TempDir()
	path := filepath.Join(dir, "g.hnsw")
	good := saveTo(t, h, path)
	bad := func(what string, b []byte, verify bool) {
		t.Helper()
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := MapHNSW(path, verify)
		if err == nil {
			t.Fatalf("%s: mapped without error (%d vectors)", what, g.Len())
		}
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s: error %v does not wrap ErrCorrupt", what, err)
		}
	}
	bad("empty", nil, false)
	bad("garbage", []byte("not a graph at all, just some text"), false)
	for cut := 0; cut < len(good); cut += 1 + cut/7 {
		bad(fmt.Sprintf("truncated at %d", cut), good[:cut], false)
	}
	bad("one byte more", append(bytes.Clone(good), 0), false)
	for pos := 0; pos < len(good); pos += 1 + pos/5 {
		c := bytes.Clone(good)
		c[pos] ^= 0x40
		bad(fmt.Sprintf("bit flipped at %d", pos), c, true)
		// Without verify the file may map, but a search must not fail.
		if err := os.WriteFile(path, c, 0o644); err != nil {
			t.Fatal(err)
		}
		if g, err := MapHNSW(path, false); err == nil {
			if _, err := g.Search(unitVecs(r, 1, dims), 10); err != nil {
				t.Fatalf("bit flipped at %d: search: %v", pos, err)
			}
		}
	}
	var v1 bytes.Buffer
	if err := h.save(&v1, 1, nil); err != nil {
		t.Fatal(err)
	}
	bad("version 1", v1.Bytes(), false)
}

// TestLoadHNSWVersion1: graphs saved by the first format still load, and
// search as they did.
func TestLoadHNSWVersion1(t *testing.T) {
	s := recallSets(t)[1]
	h := builtHNSW(t)[s.name]
	var v1, v2 bytes.Buffer
	if err := h.save(&v1, 1, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.Save(&v2); err != nil {
		t.Fatal(err)
	}
	g, err := LoadHNSW(&v1)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := searchAll(t, h, s.queries, 20), searchAll(t, g, s.queries, 20); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("a version 1 graph returns different results")
	}
	var again bytes.Buffer
	if err := g.Save(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), v2.Bytes()) {
		t.Fatal("a version 1 graph saves differently from the graph it came from")
	}
}

// TestBuildHNSW: a graph built over a matrix it takes is the graph
// AddBatch builds from copies of the same rows, and uses the matrix's
// memory.
func TestBuildHNSW(t *testing.T) {
	r := rng(36)
	const dims, n = 16, 2000
	m := unitVecs(r, n, dims)
	ids := seqIDs(n, 0, 1)
	rows := make([][]float32, n)
	for i := range rows {
		rows[i] = row(m, dims, i)
	}
	opts := HNSWOptions{Workers: 1, M: 8}
	a := NewHNSW(dims, opts)
	if err := a.AddBatch(ids, rows); err != nil {
		t.Fatal(err)
	}
	owned := append([]float32(nil), m...)
	b, err := BuildHNSW(dims, ids, owned, opts)
	if err != nil {
		t.Fatal(err)
	}
	var sa, sb bytes.Buffer
	if err := a.Save(&sa); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(&sb); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sa.Bytes(), sb.Bytes()) {
		t.Fatal("the graph built over a matrix differs from AddBatch's")
	}
	if _, data := b.Matrix(); &data[0] != &owned[0] {
		t.Fatal("the graph copied the matrix")
	}
	if _, err := BuildHNSW(dims, ids, owned[:len(owned)-1], opts); !errors.Is(err, ErrDims) {
		t.Fatalf("a short matrix: %v", err)
	}
}
