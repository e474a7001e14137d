package index

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

func testIndex(t *testing.T) *Index {
	t.Helper()
	ix, err := Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// doc builds a document whose chunks hold the given paragraphs' terms.
func doc(path string, chunks ...[]string) *store.DocumentRecord {
	d := &store.DocumentRecord{Root: "/r", Path: path, SHA256: "h-" + path, Title: path, Stamp: "s"}
	for i, paras := range chunks {
		c := store.ChunkRecord{ChunkData: store.ChunkData{UID: path + "#" + string(rune('a'+i)), Hash: "x", Ordinal: i, Label: path, Text: "t"}, HeadingTerms: "titul"}
		for j, p := range paras {
			c.Children = append(c.Children, store.ChildRecord{Ordinal: j, Terms: p})
		}
		d.Chunks = append(d.Chunks, c)
	}
	return d
}

func TestSmallToBig(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	// Chunk a has two paragraphs that both match; chunk b one weaker match.
	if err := ix.ReplaceDocument(ctx, doc("a.md", []string{"cancel reserv", "cancel recepcion"}, []string{"horari lun"})); err != nil {
		t.Fatal(err)
	}
	if err := ix.ReplaceDocument(ctx, doc("b.md", []string{"reserv sal grand otra cos mas palabr"})); err != nil {
		t.Fatal(err)
	}
	m, err := retrieve.SearchBM25(ctx, ix, []string{"cancel", "reserv"}, 10, store.BM25Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m[0].Chunk.UID != "a.md#a" || m[0].Child != 0 || m[1].Chunk.UID != "b.md#a" {
		t.Fatalf("matches: %+v", m)
	}
	if m[0].Score <= m[1].Score || m[1].Score <= 0 {
		t.Fatalf("scores not descending and positive: %v, %v", m[0].Score, m[1].Score)
	}
	// n limits distinct parents, not paragraphs.
	if m, _ := retrieve.SearchBM25(ctx, ix, []string{"cancel", "reserv"}, 1, store.BM25Options{}); len(m) != 1 || m[0].Chunk.UID != "a.md#a" {
		t.Fatalf("n=1: %+v", m)
	}
	// No matching term: nothing, not zero-score rows.
	if m, _ := retrieve.SearchBM25(ctx, ix, []string{"inexistent"}, 5, store.BM25Options{}); len(m) != 0 {
		t.Fatalf("unmatched: %+v", m)
	}
	// Replacing a document replaces its paragraphs in the full-text index.
	if err := ix.ReplaceDocument(ctx, doc("a.md", []string{"nuev text"})); err != nil {
		t.Fatal(err)
	}
	if m, _ := retrieve.SearchBM25(ctx, ix, []string{"cancel"}, 5, store.BM25Options{}); len(m) != 0 {
		t.Fatalf("old paragraphs still match: %+v", m)
	}
	if err := ix.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if err := ix.DeleteDocument(ctx, "/r", "b.md"); err != nil {
		t.Fatal(err)
	}
	st, _ := ix.Stats(ctx)
	if st.Documents != 1 || st.Chunks != 1 || st.Children != 1 {
		t.Fatalf("stats after delete: %+v", st)
	}
	if err := ix.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestMissingParentIsAnError(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	if err := ix.ReplaceDocument(ctx, doc("a.md", []string{"galern tormenta"})); err != nil {
		t.Fatal(err)
	}
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Break the index behind the foreign keys' back.
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `DELETE FROM chunks`); err != nil {
		t.Fatal(err)
	}
	conn.ExecContext(ctx, `PRAGMA foreign_keys = ON`)
	conn.Close()
	if _, err := retrieve.SearchBM25(ctx, ix, []string{"galern"}, 5, store.BM25Options{}); !errors.Is(err, store.ErrMissingParent) {
		t.Fatalf("err = %v, want ErrMissingParent", err)
	}
	if err := ix.Check(ctx); err == nil {
		t.Fatal("Check accepted an orphan paragraph")
	}
}

func TestMatchQuery(t *testing.T) {
	if got := MatchQuery([]string{"a", "b", "a", "", `x"y`}); got != `"a" OR "b" OR "x""y"` {
		t.Errorf("MatchQuery = %s", got)
	}
	if MatchQuery(nil) != "" {
		t.Error("empty terms should give an empty query")
	}
}

func TestMeta(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	if v, err := ix.Meta(ctx, "lang"); err != nil || v != "" {
		t.Fatalf("unset: %q %v", v, err)
	}
	ix.SetMeta(ctx, "lang", "es")
	ix.SetMeta(ctx, "lang", "en")
	if v, _ := ix.Meta(ctx, "lang"); v != "en" {
		t.Fatalf("lang = %q", v)
	}
}

// The FTS5 tokenizer must keep analysed terms whole: "año" is not "ano",
// and terms in scripts with combining marks are not cut apart.
func TestTermsStayWhole(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	ix.ReplaceDocument(ctx, doc("a.md", []string{"año"}))
	ix.ReplaceDocument(ctx, doc("b.md", []string{"ano"}))
	ix.ReplaceDocument(ctx, doc("c.md", []string{"हिन्दी"}))
	for term, want := range map[string]string{"año": "a.md#a", "ano": "b.md#a", "हिन्दी": "c.md#a"} {
		m, err := retrieve.SearchBM25(ctx, ix, []string{term}, 5, store.BM25Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(m) != 1 || m[0].Chunk.UID != want {
			t.Errorf("%q: %+v, want only %s", term, m, want)
		}
	}
	if m, _ := retrieve.SearchBM25(ctx, ix, []string{"ह"}, 5, store.BM25Options{}); len(m) != 0 {
		t.Errorf("a fragment of a term matched: %+v", m)
	}
}

// Equal scores are ordered by id, so that rankings (and the metrics
// computed from them) are the same on every run.
func TestTiesAreDeterministic(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	for _, p := range []string{"c.md", "a.md", "b.md"} {
		ix.ReplaceDocument(ctx, doc(p, []string{"galern tormenta"}))
	}
	var first []string
	for i := range 5 {
		m, err := retrieve.SearchBM25(ctx, ix, []string{"galern"}, 3, store.BM25Options{})
		if err != nil || len(m) != 3 {
			t.Fatalf("%v %d", err, len(m))
		}
		if m[0].Score != m[1].Score || m[1].Score != m[2].Score {
			t.Fatalf("identical paragraphs scored differently: %v %v %v", m[0].Score, m[1].Score, m[2].Score)
		}
		var got []string
		for _, x := range m {
			got = append(got, x.Chunk.Path)
		}
		if i == 0 {
			first = got
			// Insertion order: c, a, b.
			if got[0] != "c.md" || got[1] != "a.md" || got[2] != "b.md" {
				t.Fatalf("tie order %v, want insertion order", got)
			}
		} else if strings.Join(got, ",") != strings.Join(first, ",") {
			t.Fatalf("tie order changed: %v then %v", first, got)
		}
	}
}

// A chunk whose several paragraphs match gains on one whose single short
// paragraph matches slightly better; with the sibling share off, the best
// paragraph alone decides.
func TestSiblingParagraphsCount(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	ix.ReplaceDocument(ctx, doc("npc.md", []string{"archiduqu"}))
	ix.ReplaceDocument(ctx, doc("sesion.md", []string{"archiduqu mur dorm", "archiduqu antidot", "archiduqu funeral"}))
	m, err := retrieve.SearchBM25(ctx, ix, []string{"archiduqu"}, 2, store.BM25Options{})
	if err != nil || len(m) != 2 || m[0].Chunk.Path != "sesion.md" {
		t.Fatalf("default: %+v %v", m, err)
	}
	m, _ = retrieve.SearchBM25(ctx, ix, []string{"archiduqu"}, 2, store.BM25Options{SiblingWeight: -1})
	if len(m) != 2 || m[0].Chunk.Path != "npc.md" {
		t.Fatalf("best paragraph alone: %+v", m)
	}
}
