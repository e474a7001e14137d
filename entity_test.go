package oraculo_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// TestEntityPathAndFloodingGuard: a question naming an NPC seen in a few
// sessions reaches all of them; a player character named in every session
// cannot take more than half of the entity path's results.
func TestEntityPathAndFloodingGuard(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "PJs", "Dorn Kazhal.md"), "---\naliases: [Dorn]\n---\n# Dorn Kazhal\n\nEnano guerrero del clan Kazhal.\n")
	write(t, filepath.Join(notes, "NPCs", "Harbin Wester.md"), "---\naliases: [el viejo Harbin]\n---\n# Harbin Wester\n\nTabernero de Puertogris.\n")
	var b strings.Builder
	b.WriteString("# Diario\n\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "## Sesión %d\n\nDorn abrió la marcha hacia el paso %d.", i, i)
		if i == 3 || i == 11 || i == 17 {
			b.WriteString(" En la posada, el viejo Harbin nos habló del camino.")
		}
		b.WriteString("\n\n")
	}
	write(t, filepath.Join(notes, "Sesiones", "Diario.md"), b.String())
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	e, ok, err := eng.FindEntity(ctx, "harbin wester")
	if err != nil || !ok || e.Kind != "npc" || len(e.Sessions) != 3 || e.Note != "NPCs/Harbin Wester.md" {
		t.Fatalf("Harbin in the compendium: %+v %v %v", e, ok, err)
	}
	// All three sessions where Harbin appears, and his own note, come first.
	hits, err := eng.Search(ctx, "¿Qué sabemos de Harbin Wester?", oraculo.SearchOptions{K: 4, Paths: []string{"entity"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, h := range hits {
		got[h.Label] = true
	}
	for _, want := range []string{"NPCs: Harbin Wester", "Sesión 3", "Sesión 11", "Sesión 17"} {
		if !got[want] {
			t.Errorf("entity path for Harbin misses %q: %v", want, labels(hits))
		}
	}
	// Dorn is in all 20 sessions: the guard keeps only his own note, which
	// describes him; Harbin, in 3 of 20, is not cut.
	ix := openIndex(t, db)
	recs, err := ix.Entities(ctx, store.ScopeDM)
	if err != nil {
		t.Fatal(err)
	}
	ents := make([]compendium.Entity, len(recs))
	for i, r := range recs {
		ents[i] = compendium.Entity{Name: r.Name, Kind: compendium.Kind(r.Kind), Aliases: r.Aliases, Note: r.Note}
	}
	path := retrieve.Entity{Index: ix, Matcher: compendium.NewMatcher(ents), Entities: recs, Units: 22}
	res, err := path.Retrieve(ctx, "¿Qué hizo Dorn?", 20)
	if err != nil || len(res) != 1 || res[0].Chunk.Path != "PJs/Dorn Kazhal.md" {
		t.Fatalf("ubiquitous entity: %d results (want his own note only, of his 21 chunks), %v", len(res), err)
	}
	if res, _ := path.Retrieve(ctx, "Harbin Wester", 20); len(res) != 4 {
		t.Errorf("a rare entity was cut: %d results, want 4", len(res))
	}
	// Naming both: the chunks with both come first.
	hits, err = eng.Search(ctx, "¿Qué le dijo Harbin Wester a Dorn?", oraculo.SearchOptions{K: 3, Paths: []string{"entity"}})
	if err != nil || len(hits) < 3 {
		t.Fatal(err, hits)
	}
	for _, h := range hits[:3] {
		if !strings.Contains(h.Text, "Harbin") {
			t.Errorf("%s ranks above the chunks naming both: %v", h.Label, labels(hits))
		}
	}
}

// TestCompendiumFile: editing compendium.yaml alone rebuilds the
// compendium on the next ingest; a broken file is a warning naming it.
func TestCompendiumFile(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "Sesiones", "Diario.md"), "## Sesión 1\n\nLa bruja Quembilda nos vendió hierbas. Quembilda sonreía.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := eng.FindEntity(ctx, "Quembilda"); ok {
		t.Fatal("a name seen in one note only became an entity")
	}
	write(t, filepath.Join(notes, oraculo.CompendiumFile), "entities:\n  - {name: Quembilda, kind: npc, aliases: [la bruja]}\n")
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil || rep.Indexed != 0 {
		t.Fatalf("%v, %d indexed", err, rep.Indexed)
	}
	e, ok, err := eng.FindEntity(ctx, "la bruja")
	if err != nil || !ok || e.Name != "Quembilda" || e.Kind != "npc" || len(e.Sessions) != 1 {
		t.Fatalf("entity from compendium.yaml: %+v %v %v", e, ok, err)
	}
	for _, s := range rep.Skipped {
		if s.Path == oraculo.CompendiumFile {
			t.Errorf("compendium.yaml reported as a skipped file: %+v", s)
		}
	}
	write(t, filepath.Join(notes, oraculo.CompendiumFile), "entities:\n  - {name: Quembilda, colour: green}\n")
	rep, err = eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil || len(rep.Warnings) != 1 || rep.Warnings[0].Path != oraculo.CompendiumFile || !strings.Contains(rep.Warnings[0].Detail, "colour") {
		t.Fatalf("broken compendium.yaml: %v %+v", err, rep.Warnings)
	}
}
