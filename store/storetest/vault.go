package storetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/store"
)

// VaultNotes makes an Obsidian vault in a fresh folder: one session note
// ("aldea"), a template that would answer a question about the
// "zarzamora", an archived note ("quimera") and a draft ("basilisco"),
// with settings that leave out the templates folder, the archive and the
// drafts. It returns the vault's folder.
func VaultNotes(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	for rel, text := range map[string]string{
		"Sesiones/Sesión 1.md":     "# Sesión 1\n\nEl grupo llega a la aldea y habla con el herrero.\n",
		"Plantillas/Sesión.md":     "# {{title}}\n\n¿Dónde está la zarzamora? La zarzamora está en la cripta.\n",
		"Archivo/Campaña vieja.md": "# Campaña vieja\n\nLa quimera vivía en la torre.\n",
		"Sesiones/Borrador 2.md":   "# Borrador\n\nEl basilisco duerme.\n",
		".obsidian/templates.json": `{"folder": "Plantillas"}`,
		".obsidian/app.json":       `{"userIgnoreFilters": ["Archivo/", "/borrador/"], "alwaysUpdateLinks": true}`,
	} {
		WriteFile(t, root, rel, text)
	}
	return root
}

// WriteFile writes text to the file rel of root, making its folders.
func WriteFile(t testing.TB, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// obsidianVault ingests a vault written by [VaultNotes] through the
// engine over s and checks what enters the index as the vault's settings
// and the ingest's options change: its templates folder and its
// "Excluded files" stay out (a search for a word only they hold finds
// nothing, the index counts only the other notes), --include-templates
// lets the templates in and leaving it out removes them again, a filter
// removed in Obsidian lets its notes in, and malformed settings are a
// warning naming the file, the ingest going on without them.
func obsidianVault(t *testing.T, s store.Store) {
	ctx := context.Background()
	eng, err := oraculo.OpenStore(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	root := VaultNotes(t)
	ingestVault := func(opts oraculo.IngestOptions, docs int) *oraculo.IngestReport {
		t.Helper()
		rep, err := eng.Ingest(ctx, []string{root}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stats.Documents != docs {
			t.Errorf("%d notes in the index, want %d: %+v", rep.Stats.Documents, docs, rep)
		}
		return rep
	}
	rep := ingestVault(oraculo.IngestOptions{}, 1)
	if len(rep.Excluded) != 3 || rep.Files != 1 {
		t.Errorf("excluded %+v of %d files", rep.Excluded, rep.Files)
	}
	found(t, eng, "aldea", "Sesiones/Sesión 1.md")
	found(t, eng, "zarzamora", "")
	found(t, eng, "quimera", "")
	found(t, eng, "basilisco", "")

	// The templates included, then left out again.
	ingestVault(oraculo.IngestOptions{IncludeTemplates: true}, 2)
	found(t, eng, "zarzamora", "Plantillas/Sesión.md")
	if rep = ingestVault(oraculo.IngestOptions{}, 1); rep.Deleted != 1 {
		t.Errorf("the template left out again: %d removed, want 1", rep.Deleted)
	}
	found(t, eng, "zarzamora", "")

	// A filter removed in Obsidian: its notes enter the index.
	WriteFile(t, root, ".obsidian/app.json", `{"userIgnoreFilters": ["/borrador/"]}`)
	ingestVault(oraculo.IngestOptions{}, 2)
	found(t, eng, "quimera", "Archivo/Campaña vieja.md")
	found(t, eng, "basilisco", "")

	// Malformed settings: a warning naming the file, and no filter.
	WriteFile(t, root, ".obsidian/app.json", `{"userIgnoreFilters": ["Archivo/"`)
	rep = ingestVault(oraculo.IngestOptions{}, 3)
	warned := false
	for _, w := range rep.Warnings {
		warned = warned || (w.Path == ".obsidian/app.json" && w.Reason == ingest.ReasonObsidianSettings && strings.Contains(w.Detail, "malformed JSON"))
	}
	if !warned {
		t.Errorf("no warning about the malformed app.json: %+v", rep.Warnings)
	}
	found(t, eng, "basilisco", "Sesiones/Borrador 2.md")
	found(t, eng, "zarzamora", "")
}

// found checks that searching eng for word finds it only in the note
// file ("" for none): a hit elsewhere that holds the word fails.
func found(t *testing.T, eng *oraculo.Engine, word, file string) {
	t.Helper()
	hits, err := eng.Search(context.Background(), word, oraculo.SearchOptions{K: 10})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range hits {
		holds := strings.Contains(strings.ToLower(h.Text), word)
		switch {
		case h.File == file && holds:
			found = true
		case holds:
			t.Errorf("searching %q found %s: %q", word, h.File, h.Text)
		}
	}
	if file != "" && !found {
		t.Errorf("searching %q did not find %s: %+v", word, file, hits)
	}
}
