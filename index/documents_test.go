package index

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// TestReplaceDocuments: a batch stores its notes in order, each whole; a
// note that fails does not undo the notes before it, and those after it
// are not written.
func TestReplaceDocuments(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	if err := ix.ReplaceDocument(ctx, doc("a.md", []string{"viej text"})); err != nil {
		t.Fatal(err)
	}
	clash := doc("c.md", []string{"tercer"})
	clash.Chunks[0].UID = "b.md#a" // a chunk id taken by b.md: the insert fails
	batch := []*store.DocumentRecord{
		doc("a.md", []string{"nuev text"}),
		doc("b.md", []string{"segund"}),
		clash,
		doc("d.md", []string{"cuart"}),
	}
	n, err := ix.ReplaceDocuments(ctx, batch)
	if n != 2 || err == nil || !strings.Contains(err.Error(), `"c.md"`) {
		t.Fatalf("ReplaceDocuments = %d, %v; want 2 stored and the error of c.md", n, err)
	}
	states, err := ix.DocumentStates(ctx, "/r")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for p := range states {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	if !slices.Equal(paths, []string{"a.md", "b.md"}) {
		t.Errorf("stored %q, want a.md and b.md", paths)
	}
	for term, want := range map[string]int{"nuev": 1, "viej": 0, "segund": 1, "tercer": 0, "cuart": 0} {
		if m, err := retrieve.SearchBM25(ctx, ix, []string{term}, 5, store.BM25Options{}); err != nil || len(m) != want {
			t.Errorf("%q matches %d chunks (%v), want %d", term, len(m), err, want)
		}
	}
	if err := ix.Check(ctx); err != nil {
		t.Fatal(err)
	}

	// The same note twice in a batch: the later version is kept.
	if n, err := ix.ReplaceDocuments(ctx, []*store.DocumentRecord{doc("e.md", []string{"primer"}), doc("e.md", []string{"ultim"})}); n != 2 || err != nil {
		t.Fatalf("ReplaceDocuments = %d, %v", n, err)
	}
	if m, _ := retrieve.SearchBM25(ctx, ix, []string{"primer"}, 5, store.BM25Options{}); len(m) != 0 {
		t.Errorf("the first version of e.md still matches: %+v", m)
	}
	if n, err := ix.ReplaceDocuments(ctx, nil); n != 0 || err != nil {
		t.Errorf("an empty batch: %d, %v", n, err)
	}
	// A cancelled write stores nothing.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if n, err := ix.ReplaceDocuments(cctx, []*store.DocumentRecord{doc("f.md", []string{"sext"})}); n != 0 || err == nil {
		t.Errorf("a cancelled write: %d, %v", n, err)
	}
	if err := ix.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestParagraphIDs checks the ids the paragraphs and their keyword rows
// get, given by the writer: those SQLite gives a row without an id (one
// more than the largest), also after a note replaced in the same batch
// lowered the largest, and each keyword row on its paragraph.
func TestParagraphIDs(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	// note builds a note of chunks of n paragraphs, each with the one
	// term "<path><chunk>p<paragraph>".
	note := func(path string, sizes ...int) *store.DocumentRecord {
		var chunks [][]string
		for c, n := range sizes {
			var paras []string
			for p := range n {
				paras = append(paras, fmt.Sprintf("%s%dp%d", path, c, p))
			}
			chunks = append(chunks, paras)
		}
		return doc(path+".md", chunks...)
	}
	steps := []struct {
		batch []*store.DocumentRecord
		path  string // a note of the batch
		first int64  // the id of its first paragraph
	}{
		{[]*store.DocumentRecord{note("a", 3, 70), note("b", 65)}, "b.md", 74},
		// z has no paragraph; b is replaced after it: its paragraphs
		// 74-138 go, and 74 is given again; c's are 76-203.
		{[]*store.DocumentRecord{note("z"), note("b", 2), note("c", 1, 127)}, "b.md", 74},
		// a is replaced: the largest id is still c's.
		{[]*store.DocumentRecord{note("a", 1)}, "a.md", 204},
		// The same note twice in a batch: the second takes the ids of
		// the first again.
		{[]*store.DocumentRecord{note("e", 3), note("e", 2)}, "e.md", 205},
	}
	for i, s := range steps {
		if n, err := ix.ReplaceDocuments(ctx, s.batch); n != len(s.batch) || err != nil {
			t.Fatalf("step %d: ReplaceDocuments = %d, %v", i, n, err)
		}
		var first int64
		if err := ix.db.QueryRowContext(ctx, `SELECT min(c.id) FROM children c JOIN chunks k ON k.id = c.chunk_id JOIN documents d ON d.id = k.doc_id WHERE d.path = ?`,
			s.path).Scan(&first); err != nil || first != s.first {
			t.Errorf("step %d: %s's first paragraph has id %d (%v), want %d", i, s.path, first, err, s.first)
		}
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT c.id, d.path, k.ordinal, c.ordinal FROM children c
		JOIN chunks k ON k.id = c.chunk_id JOIN documents d ON d.id = k.doc_id ORDER BY c.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id int64
		var path string
		var chunkOrd, ord int
		if err := rows.Scan(&id, &path, &chunkOrd, &ord); err != nil {
			t.Fatal(err)
		}
		n++
		term := fmt.Sprintf("%s%dp%d", strings.TrimSuffix(path, ".md"), chunkOrd, ord)
		var got int64
		if err := ix.db.QueryRowContext(ctx, `SELECT rowid FROM children_fts WHERE children_fts MATCH ?`, term).Scan(&got); err != nil || got != id {
			t.Errorf("%q: keyword row %d (%v), want %d", term, got, err, id)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 2+128+1+2 {
		t.Errorf("%d paragraphs stored, want %d", n, 2+128+1+2)
	}
	if err := ix.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestKeywordRowsOneSegment: a batch of notes writes its keyword rows to
// FTS5 as one segment. A row of another table that opens a savepoint
// (a chunk's, whose triggers write note_sessions) written after a keyword
// row makes FTS5 write what it holds to a new segment: before, each chunk
// made one, and a fresh ingest spent more merging them than indexing.
func TestKeywordRowsOneSegment(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	var batch []*store.DocumentRecord
	for n := range 30 {
		batch = append(batch, doc(fmt.Sprintf("n%d.md", n), []string{"uno dos", "tres"}, []string{"cuatr"}, []string{"cinc seis", "siet"}))
	}
	if n, err := ix.ReplaceDocuments(ctx, batch); n != len(batch) || err != nil {
		t.Fatalf("ReplaceDocuments = %d, %v", n, err)
	}
	if got := ftsSegmentsWritten(t, ix); got != 1 {
		t.Errorf("a batch of %d notes wrote %d FTS5 segments, want 1", len(batch), got)
	}
	if m, err := retrieve.SearchBM25(ctx, ix, []string{"cuatr"}, 50, store.BM25Options{}); err != nil || len(m) != len(batch) {
		t.Errorf("cuatr matches %d chunks (%v), want %d", len(m), err, len(batch))
	}
}

// ftsSegmentsWritten reads from the FTS5 structure record how many
// segments were ever written to children_fts (its write counter).
func ftsSegmentsWritten(t *testing.T, ix *Index) uint64 {
	t.Helper()
	var rec []byte
	if err := ix.db.QueryRow(`SELECT block FROM children_fts_data WHERE id = 10`).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	i := 4 // the cookie
	if len(rec) >= 8 && string(rec[4:8]) == "\xff\x00\x00\x01" {
		i += 4 // structure version 2
	}
	varint := func() uint64 {
		var v uint64
		for k := 0; k < 9 && i < len(rec); k++ {
			b := rec[i]
			i++
			if k == 8 {
				return v<<8 | uint64(b)
			}
			v = v<<7 | uint64(b&0x7f)
			if b < 0x80 {
				break
			}
		}
		return v
	}
	varint() // levels
	varint() // segments
	return varint()
}
