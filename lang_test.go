package oraculo_test

import (
	"context"
	"maps"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index/indextest"
)

// mixedVault writes a vault of English and Spanish session notes. The
// English note tells of an ambush ("ambushed") and the Spanish one of a
// negotiation ("negociaron"): each is found from a question with another
// inflection only when it is analysed in its own language.
func mixedVault(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "Sessions", "Session 3.md"), "# Session 3\n\nThe party rested at the inn and bought supplies for the road to the north.\n")
	write(t, filepath.Join(dir, "Sessions", "Session 4.md"), "# Session 4\n\nOn the road the caravan was ambushed at the old bridge, and the party drove the raiders into the forest.\n")
	write(t, filepath.Join(dir, "Sesiones", "Sesión 5.md"), "# Sesión 5\n\nEn el puente los aventureros negociaron con los trasgos el paso de la caravana hacia el norte.\n")
	write(t, filepath.Join(dir, "Sesiones", "Sesión 6.md"), "# Sesión 6\n\nEl grupo descansó en la posada y compró provisiones para el camino.\n")
	return dir
}

// topLabel is the label of a search's first hit, "" when there is none.
func topLabel(t *testing.T, eng *oraculo.Engine, question string) string {
	t.Helper()
	hits, err := eng.Search(context.Background(), question, oraculo.SearchOptions{K: 4, Paths: []string{"bm25"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 {
		return ""
	}
	return hits[0].Label
}

// checkMixed: each note is recognised in its language and labelled in it,
// and a question in either language finds the note in that language by
// another inflection of its word.
func checkMixed(t *testing.T, eng *oraculo.Engine, langs map[string]int) {
	t.Helper()
	if want := map[string]int{"en": 2, "es": 2}; !maps.Equal(langs, want) {
		t.Errorf("notes by language = %v, want %v", langs, want)
	}
	for q, want := range map[string]string{
		"Who kept ambushing travellers?": "Session 4",
		"¿Quién negoció?":                "Sesión 5",
	} {
		if got := topLabel(t, eng, q); got != want {
			t.Errorf("%q: first hit %q, want %q", q, got, want)
		}
	}
}

// TestMixedLanguageVault: a vault of English and Spanish notes, ingested
// with no language, is searched in both languages; --lang still analyses
// every note in one.
func TestMixedLanguageVault(t *testing.T) {
	ctx := context.Background()
	notes := mixedVault(t)
	eng, _ := openEngine(t)
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Settings.Lang != oraculo.LangAuto {
		t.Errorf("a new index's language setting is %q, want %q", rep.Settings.Lang, oraculo.LangAuto)
	}
	checkMixed(t, eng, rep.Stats.Langs)

	// Chosen, one language for every note (and its labels).
	rep, err = eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{Lang: "es"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"es": 4}; rep.Indexed != 4 || !maps.Equal(rep.Stats.Langs, want) {
		t.Errorf("--lang es: %d notes indexed again, by language %v; want 4, %v", rep.Indexed, rep.Stats.Langs, want)
	}
	if got := topLabel(t, eng, "caravan ambushed"); got != "Sesión 4" {
		t.Errorf("--lang es: first hit %q, want the English note labelled in Spanish, %q", got, "Sesión 4")
	}

	// Back to each note's own: every note is analysed again.
	rep, err = eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{Lang: oraculo.LangAuto})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Indexed != 4 {
		t.Errorf("auto after --lang es: %d notes indexed again, want 4", rep.Indexed)
	}
	checkMixed(t, eng, rep.Stats.Langs)
	rep, err = eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Indexed != 0 || rep.Unchanged != 4 {
		t.Errorf("unchanged re-run: %d indexed, %d unchanged; want 0, 4", rep.Indexed, rep.Unchanged)
	}
}

// TestUpgradeFromV13ReanalysesNotes: an index written before each note's
// language was kept (schema 13, every note analysed in Spanish, the old
// default) says so after the upgrade, and its next ingest with no
// language recognises each note's and analyses it again.
func TestUpgradeFromV13ReanalysesNotes(t *testing.T) {
	ctx := context.Background()
	notes := mixedVault(t)
	eng, db := openEngine(t)
	// What an older program wrote: every note analysed in Spanish, with
	// the same stamp, and the setting "es".
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	eng.Close()
	ix := openIndex(t, db)
	// The later migrations' objects go too, so that they run again.
	if err := indextest.Undo(ctx, ix.DB(), 14); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP INDEX documents_lang`, `ALTER TABLE documents DROP COLUMN lang`, `DELETE FROM meta WHERE key = 'lang_chosen'`, `PRAGMA user_version = 13`} {
		if _, err := ix.DB().Exec(q); err != nil {
			t.Fatalf("making a schema 13 index: %s: %v", q, err)
		}
	}
	ix.Close()

	eng = reopen(t, db)
	st, err := eng.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"es": 4}; st.Settings.Lang != oraculo.LangAuto || !maps.Equal(st.Langs, want) {
		t.Errorf("after the upgrade: setting %q, notes by language %v; want %q, %v", st.Settings.Lang, st.Langs, oraculo.LangAuto, want)
	}
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Indexed != 4 {
		t.Errorf("first ingest after the upgrade: %d notes indexed again, want 4", rep.Indexed)
	}
	checkMixed(t, eng, rep.Stats.Langs)
}

// TestStoredSpanishWithoutChoiceIsAuto: a store that kept "es" from
// before (Weaviate has no schema migrations) recognises each note's
// language; "es" chosen since stays.
func TestStoredSpanishWithoutChoiceIsAuto(t *testing.T) {
	ctx := context.Background()
	notes := mixedVault(t)
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	if got := eng.Settings().Lang; got != "es" {
		t.Fatalf("chosen Spanish reads %q", got)
	}
	eng.Close()
	if got := reopen(t, db).Settings().Lang; got != "es" {
		t.Errorf("chosen Spanish, reopened, reads %q", got)
	}
	ix := openIndex(t, db)
	if _, err := ix.DB().Exec(`DELETE FROM meta WHERE key = 'lang_chosen'`); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	eng = reopen(t, db)
	if got := eng.Settings().Lang; got != oraculo.LangAuto {
		t.Errorf("Spanish stored by an older program reads %q, want %q", got, oraculo.LangAuto)
	}
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkMixed(t, eng, rep.Stats.Langs)
}

// TestNotesLang: the language of most notes, recognised without a flag
// (what `oraculo bench` writes its questions in), and the forced one.
func TestNotesLang(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "Session 1.md"), "# Session 1\n\nThe party met the old wizard at the tower and he told them about the stolen crown.\n")
	write(t, filepath.Join(notes, "Session 2.md"), "# Session 2\n\nWe followed the thieves into the marsh, where the crown was hidden under a stone.\n")
	write(t, filepath.Join(notes, "Sesión 3.md"), "# Sesión 3\n\nEl grupo volvió a la torre y el mago les dio las gracias por la corona.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := eng.NotesLang(ctx); err != nil || got != "en" {
		t.Errorf("NotesLang of two English notes and one Spanish = %q, %v; want \"en\"", got, err)
	}
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	if got, err := eng.NotesLang(ctx); err != nil || got != "es" {
		t.Errorf("NotesLang with --lang es = %q, %v; want \"es\"", got, err)
	}
}
