package oraculo_test

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// A note's title is its file name when its first H1 is a section of it
// ("# Acciones Notables" atop two character sheets): each character is its
// own entity with its own aliases, named as its file, and nothing is
// named after the section; a first H1 that says the file name's words
// stays the title.
func TestTitleIsTheFileNameNotASection(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, dir+"/NPCs/Katerina Emberdusk.md", "---\naliases: [Kat, la herrera]\n---\n# Acciones Notables\n\nForjó la espada del rey en la sesión 2.\n")
	write(t, dir+"/NPCs/Ulfgar.md", "---\naliases: [el enano]\n---\n# Acciones Notables\n\nDefendió el puente de Galerna.\n")
	write(t, dir+"/NPCs/harbin-wester.md", "---\naliases: [el tabernero]\n---\n# Harbin Wester\n\nVende mapas falsos en Puertogris.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	all, err := eng.Compendium(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]oraculo.CompendiumEntry{}
	for _, e := range all {
		byName[e.Name] = e
	}
	if e, ok := byName["Acciones Notables"]; ok {
		t.Errorf("an entity is named after a section: %+v", e)
	}
	for name, aliases := range map[string][]string{
		"Katerina Emberdusk": {"Kat", "la herrera"},
		"Ulfgar":             {"el enano"},
		"Harbin Wester":      {"el tabernero"},
	} {
		e, ok := byName[name]
		if !ok {
			t.Errorf("no entity %q in %+v", name, all)
			continue
		}
		got := slices.Clone(e.Aliases)
		slices.Sort(got)
		if !slices.Equal(got, aliases) {
			t.Errorf("%q has aliases %q, want %q", name, got, aliases)
		}
	}
	n, err := eng.Note(ctx, "NPCs/Katerina Emberdusk.md")
	if err != nil || n.Title != "Katerina Emberdusk" {
		t.Errorf("the note's title is %q (%v), want its file name", n.Title, err)
	}
}

// An index whose notes were chunked before titles came from file names
// (stamp chunk=v2, the H1 as title) is chunked again by its next ingest,
// although no note changed: the title is corrected.
func TestTitleFixedOnReingestOfAnOlderIndex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, dir+"/NPCs/Ulfgar.md", "---\naliases: [el enano]\n---\n# Acciones Notables\n\nDefendió el puente de Galerna.\n")
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	var stamp string
	if err := raw.QueryRow(`SELECT stamp FROM documents`).Scan(&stamp); err != nil || !strings.HasPrefix(stamp, "chunk=v3 ") {
		t.Fatalf("stored stamp %q (%v), want chunk=v3", stamp, err)
	}
	old := strings.Replace(stamp, "chunk=v3 ", "chunk=v2 ", 1)
	if _, err := raw.Exec(`UPDATE documents SET stamp = ?, title = 'Acciones Notables'`, old); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	res, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Indexed != 1 || res.Unchanged != 0 {
		t.Errorf("the re-ingest indexed %d and left %d unchanged, want the note chunked again", res.Indexed, res.Unchanged)
	}
	if n, err := eng.Note(ctx, "NPCs/Ulfgar.md"); err != nil || n.Title != "Ulfgar" {
		t.Errorf("the note's title is %q (%v) after the re-ingest, want Ulfgar", n.Title, err)
	}
}
