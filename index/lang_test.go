package index

import (
	"context"
	"maps"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// TestSearchBM25ByLang: a search in one language sees only the notes
// analysed in it, scored as in the search of every note (one collection's
// statistics), with the visibility and filter conditions kept.
func TestSearchBM25ByLang(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	notes := map[string]string{"en.md": "en", "es.md": "es", "es2.md": "es"}
	for _, p := range []string{"en.md", "es.md", "es2.md"} {
		d := doc(p, []string{"rar comun " + p})
		d.Lang = notes[p]
		if err := ix.ReplaceDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	all, err := retrieve.SearchBM25(ctx, ix, []string{"rar"}, 10, store.BM25Options{})
	if err != nil || len(all) != 3 {
		t.Fatalf("every note: %+v, %v", all, err)
	}
	score := map[string]float64{}
	for _, m := range all {
		score[m.Chunk.Path] = m.Score
	}
	for lang, want := range map[string][]string{"es": {"es.md", "es2.md"}, "en": {"en.md"}, "fr": nil} {
		ms, err := retrieve.SearchBM25(ctx, ix, []string{"rar"}, 10, store.BM25Options{Lang: lang})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ms {
			got = append(got, m.Chunk.Path)
			if m.Score != score[m.Chunk.Path] {
				t.Errorf("%s: %s scored %v, %v among every note", lang, m.Chunk.Path, m.Score, score[m.Chunk.Path])
			}
		}
		if len(got) != len(want) || (len(want) > 0 && (got[0] != want[0] || got[len(got)-1] != want[len(want)-1])) {
			t.Errorf("lang %q: %v, want %v", lang, got, want)
		}
	}
	if ms, err := retrieve.SearchBM25(ctx, ix, []string{"rar"}, 10, store.BM25Options{Lang: "es", Filter: store.Filter{Folders: []string{"es2.md"}}}); err != nil || len(ms) != 1 || ms[0].Chunk.Path != "es2.md" {
		t.Errorf("lang and filter: %+v, %v", ms, err)
	}
	langs, err := ix.NoteLangs(ctx)
	if want := map[string]int{"en": 1, "es": 2}; err != nil || !maps.Equal(langs, want) {
		t.Errorf("NoteLangs = %v, %v; want %v", langs, err, want)
	}
}

// TestMigrationToV14NoteLangs: the notes of a schema 13 index get the
// language the index analysed them in; a Spanish setting (the old
// default) becomes "auto", a chosen English one stays.
func TestMigrationToV14NoteLangs(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		setting          string // "" for none stored
		wantLang, wantMt string
	}{
		{"", "es", ""},
		{"es", "es", "auto"},
		{"en", "en", "en"},
	} {
		path := filepath.Join(t.TempDir(), "v13.db")
		db := dbAtVersion(t, path, 13)
		if c.setting != "" {
			if _, err := db.Exec(`INSERT INTO meta(key, value) VALUES('lang', ?)`, c.setting); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range []string{"a.md", "b.md"} {
			if _, err := db.Exec(`INSERT INTO documents(root, path, sha256, size, title, metadata, stamp, ingested_at) VALUES('/r', ?, 'h', 1, 't', '{}', 's', 0)`, p); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		ix, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		langs, err := ix.NoteLangs(ctx)
		if want := map[string]int{c.wantLang: 2}; err != nil || !maps.Equal(langs, want) {
			t.Errorf("setting %q: notes by language %v, %v; want %v", c.setting, langs, err, want)
		}
		if got, err := ix.Meta(ctx, "lang"); err != nil || got != c.wantMt {
			t.Errorf("setting %q: after the migration %q, %v; want %q", c.setting, got, err, c.wantMt)
		}
		if st, err := ix.Stats(ctx); err != nil || st.Schema != SchemaVersion || st.Langs[c.wantLang] != 2 {
			t.Errorf("setting %q: stats %+v, %v", c.setting, st, err)
		}
		ix.Close()
	}
}
