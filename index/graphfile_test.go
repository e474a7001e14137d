package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/oraculo/oraculo/vector"
)

func testGraph(t *testing.T, n int, seed uint64) (*vector.HNSW, []byte) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	h := vector.NewHNSW(16, vector.HNSWOptions{M: 4})
	for i := range n {
		v := make([]float32, 16)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		vector.Normalize(v)
		if err := h.Add(int64(i+1), v); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := h.Save(&buf); err != nil {
		t.Fatal(err)
	}
	return h, buf.Bytes()
}

func graphFiles(t *testing.T, ix *Index) []string {
	t.Helper()
	ents, err := os.ReadDir(ix.GraphDir())
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestGraphFile: saving a graph writes the file searches map, with the
// index's permissions; a mapped graph searches as the saved one; a
// missing, damaged or older-format file is written again from the index;
// a new graph replaces the file; deleting the graph removes it.
func TestGraphFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "g.db")
	ix, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if h, err := ix.MapGraph(ctx, "m"); err != nil || h != nil {
		t.Fatalf("no graph stored: %v %v", h, err)
	}
	h, saved := testGraph(t, 300, 1)
	if err := ix.SaveGraph(ctx, "m", h.Len(), saved); err != nil {
		t.Fatal(err)
	}
	files := graphFiles(t, ix)
	if len(files) != 1 {
		t.Fatalf("files after saving: %v", files)
	}
	file := filepath.Join(ix.GraphDir(), files[0])
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the graph file's mode: %v %v, want the index's 0600", fi.Mode(), err)
	}
	check := func(what string) {
		t.Helper()
		g, err := ix.MapGraph(ctx, "m")
		if err != nil || g == nil {
			t.Fatalf("%s: mapping: %v", what, err)
		}
		q := make([]float32, 16)
		q[3] = 1
		a, _ := h.Search(q, 10)
		b, err := g.Search(q, 10)
		if err != nil || len(a) != 10 || !equalHits(a, b) {
			t.Fatalf("%s: the mapped graph finds %v (%v), the saved one %v", what, b, err, a)
		}
		got, err := os.ReadFile(file)
		if err != nil || !bytes.Equal(got, saved) {
			t.Fatalf("%s: the file holds %d bytes (%v), not the %d saved", what, len(got), err, len(saved))
		}
		if files := graphFiles(t, ix); len(files) != 1 {
			t.Fatalf("%s: files %v", what, files)
		}
	}
	check("as saved")
	os.Remove(file)
	check("removed")
	if err := os.WriteFile(file, saved[:len(saved)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	check("truncated")
	// A graph stored in the second format, without codes (an index built
	// before them), is decoded and written in the mappable one.
	if err := ix.SaveGraph(ctx, "m", h.Len(), toVersion2(t, saved)); err != nil {
		t.Fatal(err)
	}
	if files := graphFiles(t, ix); len(files) != 0 {
		t.Fatalf("a second-format graph was written as a file: %v", files)
	}
	g2, err := ix.MapGraph(ctx, "m")
	if err != nil || g2 == nil || g2.Len() != h.Len() {
		t.Fatalf("mapping a second-format graph: %v", err)
	}
	if files := graphFiles(t, ix); len(files) != 1 {
		t.Fatalf("files: %v", files)
	}
	// So is one in the first format.
	if err := ix.SaveGraph(ctx, "m", h.Len(), toVersion1(t, saved)); err != nil {
		t.Fatal(err)
	}
	if files := graphFiles(t, ix); len(files) != 0 {
		t.Fatalf("a first-format graph was written as a file: %v", files)
	}
	files = nil
	g, err := ix.MapGraph(ctx, "m")
	if err != nil || g == nil || g.Len() != h.Len() {
		t.Fatalf("mapping a first-format graph: %v", err)
	}
	files = graphFiles(t, ix)
	if len(files) != 1 {
		t.Fatalf("files: %v", files)
	}
	file = filepath.Join(ix.GraphDir(), files[0])
	check("converted")
	// Concurrent first searches each write or map the file; all agree.
	os.Remove(file)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if g, err := ix.MapGraph(ctx, "m"); err != nil || g == nil || g.Len() != h.Len() {
				t.Errorf("concurrent mapping: %v", err)
			}
		})
	}
	wg.Wait()
	check("after concurrent mapping")
	// A new graph replaces the file, and a temporary file left by a
	// killed process goes once it is old.
	stale := filepath.Join(ix.GraphDir(), ".tmp-123.hnsw")
	fresh := filepath.Join(ix.GraphDir(), ".tmp-456.hnsw")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("half a graph"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	h, saved = testGraph(t, 200, 2)
	if err := ix.SaveGraph(ctx, "m", h.Len(), saved); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("an old temporary file was kept: %v", err)
	}
	if err := os.Remove(fresh); err != nil {
		t.Fatalf("a recent temporary file was removed: %v", err)
	}
	files = graphFiles(t, ix)
	if len(files) != 1 || filepath.Join(ix.GraphDir(), files[0]) == file {
		t.Fatalf("files after a new graph: %v", files)
	}
	file = filepath.Join(ix.GraphDir(), files[0])
	check("new graph")
	// SaveHNSW writes the file first and fills the index from it: the
	// same bytes in both.
	h, saved = testGraph(t, 250, 3)
	if err := ix.SaveHNSW(ctx, "m", h); err != nil {
		t.Fatal(err)
	}
	if got, err := ix.LoadGraph(ctx, "m"); err != nil || !bytes.Equal(got, saved) {
		t.Fatalf("SaveHNSW stored %d bytes (%v), want the %d Save writes", len(got), err, len(saved))
	}
	files = graphFiles(t, ix)
	if len(files) != 1 {
		t.Fatalf("files after SaveHNSW: %v", files)
	}
	file = filepath.Join(ix.GraphDir(), files[0])
	check("SaveHNSW")
	if err := ix.DeleteGraph(ctx, "m"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ix.GraphDir()); !os.IsNotExist(err) {
		t.Fatalf("the graph folder outlived the graph: %v", err)
	}
	// Where no file can be written, mapping fails and the graph can still
	// be streamed.
	if err := os.WriteFile(ix.GraphDir(), []byte("in the way"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ix.SaveGraph(ctx, "m", h.Len(), saved); err != nil {
		t.Fatalf("saving where no file can be written: %v", err)
	}
	if g, err := ix.MapGraph(ctx, "m"); err == nil || g != nil {
		t.Fatalf("mapping where no file can be written: %v", err)
	}
	if got, err := ix.LoadGraph(ctx, "m"); err != nil || !bytes.Equal(got, saved) {
		t.Fatalf("streaming: %v", err)
	}
	h, saved = testGraph(t, 100, 4)
	if err := ix.SaveHNSW(ctx, "m", h); err != nil {
		t.Fatalf("SaveHNSW where no file can be written: %v", err)
	}
	if got, err := ix.LoadGraph(ctx, "m"); err != nil || !bytes.Equal(got, saved) {
		t.Fatalf("SaveHNSW where no file can be written stored %d bytes (%v)", len(got), err)
	}
}

func equalHits(a, b []vector.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// toVersion2 rewrites a saved graph (version 3) in the second format: the
// same without the codes and their scales.
func toVersion2(t *testing.T, v3 []byte) []byte {
	t.Helper()
	le := binary.LittleEndian
	if le.Uint32(v3[8:]) != 3 {
		t.Fatal("not a version 3 graph")
	}
	dims := int(le.Uint32(v3[12:]))
	n := int(le.Uint64(v3[8+4+5*4+8+8:]))
	end := len(v3) - 4 - n*((dims+31)&^31) - 4*n
	out := append([]byte(nil), v3[:end]...)
	le.PutUint32(out[8:], 2)
	return le.AppendUint32(out, crc32.Checksum(out, crc32.MakeTable(crc32.Castagnoli)))
}

// toVersion1 rewrites a saved graph in the first format: the same header
// without the upper count and padding, each node's id and level together,
// and no codes.
func toVersion1(t *testing.T, v3 []byte) []byte {
	t.Helper()
	le := binary.LittleEndian
	v2 := toVersion2(t, v3)
	const fixed1 = 8 + 4 + 5*4 + 8 + 8 + 8 + 8 + 4
	n := int(le.Uint64(v2[8+4+5*4+8+8:]))
	out := append([]byte(nil), v2[:fixed1]...)
	le.PutUint32(out[8:], 1)
	ids, levels := v2[128:128+8*n], v2[128+8*n:128+9*n]
	for i := range n {
		out = append(out, ids[8*i:8*i+8]...)
		out = append(out, levels[i])
	}
	rest := 128 + 9*n + (4-n%4)%4
	out = append(out, v2[rest:len(v2)-4]...)
	return le.AppendUint32(out, crc32.Checksum(out, crc32.MakeTable(crc32.Castagnoli)))
}
