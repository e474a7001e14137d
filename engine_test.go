package oraculo_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
)

const sampleDir = "examples/campaign"

// copyTree copies the sample into a temporary folder the test may change.
func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func openEngine(t testing.TB, opts ...oraculo.Option) (*oraculo.Engine, string) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "idx", "oraculo.db")
	return reopen(t, db, opts...), db
}

// openIndex opens the index file at db directly, beside the engines that
// use it, closed when the test ends.
func openIndex(t testing.TB, db string) *index.Index {
	t.Helper()
	ix, err := index.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// reopen opens the index at db with opts (the models and warning sink a
// test gives it), closed when the test ends.
func reopen(t testing.TB, db string, opts ...oraculo.Option) *oraculo.Engine {
	t.Helper()
	eng, err := oraculo.Open(context.Background(), db, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func labels(hits []oraculo.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Label)
	}
	return out
}

// TestIngestSearchEditDelete walks the life of a notes folder: ingest the
// sample, search it, edit a note, delete another, re-ingest, and check that
// only what changed was touched and the index answers accordingly.
func TestIngestSearchEditDelete(t *testing.T) {
	if _, err := os.Stat(sampleDir); err != nil {
		t.Skip("sample campaign not present")
	}
	ctx := context.Background()
	notes := copyTree(t, sampleDir)
	eng, _ := openEngine(t)

	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Indexed == 0 || rep.Indexed != rep.Files-countSkippedNotes(rep) {
		t.Fatalf("first ingest indexed %d of %d files (skipped %v)", rep.Indexed, rep.Files, rep.Skipped)
	}
	if rep.Stats.Sessions < 40 {
		t.Errorf("sample has %d sessions, want >= 40", rep.Stats.Sessions)
	}
	var binarySkipped bool
	for _, s := range rep.Skipped {
		binarySkipped = binarySkipped || strings.HasSuffix(s.Path, ".png")
	}
	if !binarySkipped {
		t.Errorf("the sample's PNG map was not reported as skipped: %+v", rep.Skipped)
	}

	// A second run with nothing changed touches nothing.
	rep2, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Indexed != 0 || rep2.Deleted != 0 || rep2.Unchanged != rep.Indexed {
		t.Fatalf("unchanged re-run: indexed %d, deleted %d, unchanged %d (want 0, 0, %d)", rep2.Indexed, rep2.Deleted, rep2.Unchanged, rep.Indexed)
	}
	if !reflect.DeepEqual(rep2.Stats, rep.Stats) && rep2.Stats.Chunks != rep.Stats.Chunks {
		t.Fatalf("unchanged re-run changed the counts: %+v vs %+v", rep2.Stats, rep.Stats)
	}

	// Edit: a new invented word appears in one note; delete another note.
	edited := filepath.Join(notes, "Lugares", "Zzyzxburgo.md")
	write(t, edited, "# Zzyzxburgo\n\nUna aldea de pescadores donde vive la bruja Quembilda.\n")
	hits, err := eng.Search(ctx, "Quembilda", oraculo.SearchOptions{K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 0 {
		t.Fatalf("found %v before ingesting the new note", labels(hits))
	}
	var victim string
	chunks, err := eng.Chunks(ctx, []string{"NPCs"})
	if err != nil || len(chunks) == 0 {
		t.Fatalf("listing NPC chunks: %v (%d)", err, len(chunks))
	}
	victim = chunks[0].File
	if err := os.Remove(filepath.Join(notes, filepath.FromSlash(victim))); err != nil {
		t.Fatal(err)
	}
	rep3, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep3.Indexed != 1 || rep3.Deleted != 1 {
		t.Fatalf("after one new note and one deletion: indexed %d, deleted %d", rep3.Indexed, rep3.Deleted)
	}
	hits, err = eng.Search(ctx, "¿Dónde vive Quembilda?", oraculo.SearchOptions{K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].File != "Lugares/Zzyzxburgo.md" || hits[0].Label != "Lugares: Zzyzxburgo" {
		t.Fatalf("new note not found first: %+v", hits)
	}
	if left, _ := eng.Chunks(ctx, []string{victim}); len(left) != 0 {
		t.Fatalf("deleted note %q still has %d chunks", victim, len(left))
	}
	// Change the note's text: the old words go, the new ones come.
	write(t, edited, "# Zzyzxburgo\n\nLa aldea quedó abandonada tras la plaga de Xantorrea.\n")
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if hits, _ := eng.Search(ctx, "Quembilda", oraculo.SearchOptions{K: 5}); len(hits) != 0 {
		t.Fatalf("old text still found after an edit: %v", labels(hits))
	}
	if hits, _ := eng.Search(ctx, "plaga de Xantorrea", oraculo.SearchOptions{K: 5}); len(hits) == 0 || hits[0].File != "Lugares/Zzyzxburgo.md" {
		t.Fatalf("edited text not found: %v", labels(hits))
	}
}

func countSkippedNotes(rep *oraculo.IngestReport) int {
	n := 0
	for _, s := range rep.Skipped {
		if s.Reason != "unsupported-type" {
			n++
		}
	}
	return n
}

// TestBadInputIsReportedNotFatal: binary, oversized, invalid UTF-8, Latin-1,
// broken front matter and hidden folders each get their treatment, and the
// rest of the folder still lands.
func TestBadInputIsReportedNotFatal(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "bien.md"), "# Bien\n\nEl dragón Cryovain duerme bajo la montaña.\n")
	write(t, filepath.Join(notes, "binario.md"), "abc\x00\x01\x02def")
	write(t, filepath.Join(notes, "roto.md"), "# Roto\n\nTexto con un byte malo \xff en medio y acentos válidos: canción.\n")
	write(t, filepath.Join(notes, "latin1.txt"), "Canci\xf3n del Norkiel: el a\xf1o pasado.\n")
	write(t, filepath.Join(notes, "yaml.md"), "---\ntitle: [sin cerrar\n---\n# Yaml\n\nLa Galerna azota la costa.\n")
	write(t, filepath.Join(notes, "grande.md"), strings.Repeat("palabra ", 200000))
	write(t, filepath.Join(notes, ".obsidian", "config.md"), "# Oculto\n\nNo debe indexarse Hiddenword.\n")
	write(t, filepath.Join(notes, "imagen.png"), "\x89PNG\r\n\x1a\n\x00\x00")
	eng, _ := openEngine(t)
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{MaxFileBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, p := range rep.Skipped {
		reasons[p.Path] = p.Reason
	}
	want := map[string]string{"binario.md": "binary", "grande.md": "too-large", "imagen.png": "unsupported-type"}
	for path, reason := range want {
		if reasons[path] != reason {
			t.Errorf("%s: reason %q, want %q (all: %+v)", path, reasons[path], reason, rep.Skipped)
		}
	}
	repaired := map[string]string{}
	for _, p := range rep.Repaired {
		repaired[p.Path] = p.Detail
	}
	if !strings.Contains(repaired["roto.md"], "invalid UTF-8") || !strings.Contains(repaired["latin1.txt"], "Windows-1252") {
		t.Errorf("repairs: %+v", rep.Repaired)
	}
	if len(rep.Warnings) != 1 || rep.Warnings[0].Path != "yaml.md" {
		t.Errorf("warnings: %+v", rep.Warnings)
	}
	for q, file := range map[string]string{"Cryovain": "bien.md", "byte malo": "roto.md", "año Norkiel": "latin1.txt", "Galerna": "yaml.md"} {
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].File != file {
			t.Errorf("%q: want %s first, got %v", q, file, labels(hits))
		}
	}
	if hits, _ := eng.Search(ctx, "Hiddenword", oraculo.SearchOptions{K: 3}); len(hits) != 0 {
		t.Errorf("hidden folder was indexed: %v", labels(hits))
	}
	if hits, _ := eng.Search(ctx, "año", oraculo.SearchOptions{K: 3}); len(hits) == 0 || !strings.Contains(hits[0].Text, "año") {
		t.Errorf("Windows-1252 text was not decoded: %+v", hits)
	}
}

func TestMissingFolderIsAnErrorAndDeletesNothing(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "a.md"), "# A\n\nTexto de Norkiel.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Ingest(ctx, []string{filepath.Join(notes, "nope")}, oraculo.IngestOptions{}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("missing folder: err = %v", err)
	}
	st, _ := eng.Stats(ctx)
	if st.Documents != 1 {
		t.Fatalf("documents = %d after a failed ingest, want 1", st.Documents)
	}
}

func TestSearchPathsAndOptions(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "Mundo", "Dioses.md"), "# Dioses\n\n## Galerna\n\nDiosa de las tormentas.\n\n## Orum\n\nDios de la forja.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Search(ctx, "tormentas", oraculo.SearchOptions{Paths: []string{"bm25"}}); err != nil {
		t.Fatal(err)
	}
	// The gods' sections are entities: the entity path runs.
	if hits, err := eng.Search(ctx, "¿Quién es Galerna?", oraculo.SearchOptions{Paths: []string{"entity"}}); err != nil || len(hits) == 0 || hits[0].Paths["entity"] != 1 {
		t.Fatalf("entity path: %v %+v", err, hits)
	}
	for _, p := range []string{"dense", "magic"} {
		_, err := eng.Search(ctx, "tormentas", oraculo.SearchOptions{Paths: []string{p}})
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("path %q: err = %v", p, err)
		}
	}
	// Only stop words: nothing to search, no error.
	hits, err := eng.Search(ctx, "¿qué es el de la?", oraculo.SearchOptions{})
	if err != nil || len(hits) != 0 {
		t.Fatalf("stop-word question: %v, %v", hits, err)
	}
	hits, err = eng.Search(ctx, "diosa tormenta", oraculo.SearchOptions{K: 1})
	if err != nil || len(hits) != 1 {
		t.Fatalf("k=1: %v, %v", hits, err)
	}
	h := hits[0]
	if h.File != "Mundo/Dioses.md" || h.Paths["bm25"] != 1 || h.Score <= 0 || h.ID == "" || h.Words == 0 || h.Session != nil {
		t.Fatalf("hit fields: %+v", h)
	}
	// The passage is the matching paragraph, with its heading, not the chunk.
	if h.Passage != "# Dioses\n\n## Galerna\n\nDiosa de las tormentas." || !strings.Contains(h.Text, "Orum") {
		t.Fatalf("passage %q of chunk %q", h.Passage, h.Text)
	}
}

func TestOpenExistingAndNewerSchema(t *testing.T) {
	ctx := context.Background()
	missing := filepath.Join(t.TempDir(), "none.db")
	if _, err := oraculo.OpenExisting(ctx, missing); !errors.Is(err, oraculo.ErrNotIndexed) {
		t.Fatalf("missing index: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("OpenExisting created the file")
	}
	notDB := filepath.Join(t.TempDir(), "notes.db")
	write(t, notDB, "esto no es SQLite, es un texto cualquiera lo bastante largo para tener una cabecera")
	if _, err := oraculo.Open(ctx, notDB); err == nil || !strings.Contains(err.Error(), notDB) {
		t.Fatalf("opening a non-SQLite file: %v", err)
	}
	_, db := openEngine(t)
	ix, err := index.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.DB().Exec(`PRAGMA user_version = 999`); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if _, err := oraculo.Open(ctx, db); !errors.Is(err, index.ErrNewerSchema) {
		t.Fatalf("newer schema: %v", err)
	}
}

// TestUTF16NotesAreIndexed: a note saved as "Unicode" by Windows Notepad
// (UTF-16 with a byte-order mark) is decoded and found, accents and all.
func TestUTF16NotesAreIndexed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	text := "# Sesión 3\n\nLa canción del ñandú sonó en la posada de Galerna.\n"
	units := utf16.Encode([]rune(text))
	le := []byte{0xFF, 0xFE}
	for _, u := range units {
		le = append(le, byte(u), byte(u>>8))
	}
	if err := os.WriteFile(filepath.Join(dir, "notepad.md"), le, 0o644); err != nil {
		t.Fatal(err)
	}
	eng, _ := openEngine(t)
	rep, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Indexed != 1 || len(rep.Skipped) != 0 {
		t.Fatalf("UTF-16 note: %d indexed, skipped %+v", rep.Indexed, rep.Skipped)
	}
	hits, err := eng.Search(ctx, "cancion del nandu", oraculo.SearchOptions{K: 1})
	if err != nil || len(hits) != 1 || !strings.Contains(hits[0].Text, "canción del ñandú") {
		t.Fatalf("searching the UTF-16 note: %v %+v", err, hits)
	}
}
