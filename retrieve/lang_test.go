package retrieve_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// TestBM25PathByLang: with notes in two languages, the question is
// analysed in each and each language's notes matched with its own terms;
// the lists are merged by score, and the first n are those of a longer
// search.
func TestBM25PathByLang(t *testing.T) {
	ctx := context.Background()
	ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	es, _ := analysis.New("es")
	en, _ := analysis.New("en")
	notes := []struct{ path, lang, text string }{
		{"a.md", "en", "The caravan was ambushed at the bridge."},
		{"b.md", "en", "The party rested at the inn."},
		{"c.md", "es", "Los aventureros negociaron con los trasgos en el puente."},
		{"d.md", "es", "El grupo descansó en la posada."},
	}
	for i, n := range notes {
		a := es
		if n.lang == "en" {
			a = en
		}
		d := &store.DocumentRecord{Root: "/r", Path: n.path, SHA256: n.path, Title: n.path, Stamp: "s", Lang: n.lang,
			Chunks: []store.ChunkRecord{{
				ChunkData: store.ChunkData{UID: n.path, Hash: n.path, Ordinal: 0, Label: n.path, Text: n.text, ByteEnd: len(n.text)},
				Children:  []store.ChildRecord{{Ordinal: 0, ByteEnd: len(n.text), Terms: strings.Join(a.Terms(n.text), " ")}},
			}}}
		if err := ix.ReplaceDocument(ctx, d); err != nil {
			t.Fatalf("note %d: %v", i, err)
		}
	}
	p := retrieve.BM25{Index: ix, Analyzer: es, Langs: []*analysis.Analyzer{es, en}, ByLang: true}
	// "ambushing" meets "ambushed" only in English, "negoció" meets
	// "negociaron" only in Spanish.
	for q, want := range map[string][]string{
		"Who kept ambushing travellers?": {"a.md"},
		"¿Quién negoció?":                {"c.md"},
		"ambushing negoció":              {"a.md", "c.md"},
	} {
		res, err := p.Retrieve(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i, r := range res {
			got = append(got, r.Chunk.Path)
			if i > 0 && r.Score > res[i-1].Score {
				t.Errorf("%q: scores not descending: %v", q, res)
			}
		}
		if !sameSet(got, want) {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
		if first, err := p.Retrieve(ctx, q, 1); err != nil || len(first) != 1 || first[0].Chunk.Path != got[0] {
			t.Errorf("%q, n = 1: %v, %v; want the first of %v", q, first, err, got)
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]bool{}
	for _, x := range a {
		seen[x] = true
	}
	for _, x := range b {
		if !seen[x] {
			return false
		}
	}
	return true
}
