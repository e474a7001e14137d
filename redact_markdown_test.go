package oraculo_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestPlayerReadsNoMarkdownLinkToAHiddenNote: a Markdown link (or image)
// to a DM-only note or file, by any spelling of its path, is its text for
// a player on every engine read, the extractive answer's quote and the
// evidence included; links to URLs, anchors and notes the player sees
// stay as written, and the DM reads everything as written.
func TestPlayerReadsNoMarkdownLinkToAHiddenNote(t *testing.T) {
	dir := t.TempDir()
	const asWritten = "El alcalde habló en la posada con [el viejo](DM/Plan%20secreto.md), con [el otro](<DM/Plan secreto.md>), con [el tercero](../DM/Plan%20secreto.md#Fase%202 \"fase\"), con [Harbin](../NPCs/Harbin.md), con [nadie](Nadie.md), con [el gnomo](kleb.md) y con [la web](https://example.com/plan) ![mapa del plan](DM/mapa%20del%20plan.png) [arriba](#Arriba)."
	write(t, filepath.Join(dir, "Lugares/Posada.md"), "# La posada de [el viejo](DM/Plan%20secreto.md)\n\n"+asWritten+"\n\n[ref]: DM/Plan%20secreto.md\n")
	write(t, filepath.Join(dir, "NPCs/Harbin.md"), "# Harbin\n\nEl alcalde.\n")
	write(t, filepath.Join(dir, "NPCs/Kleb.md"), "# Kleb\n\nUn mago.\n")
	write(t, filepath.Join(dir, "Otros/Kleb.md"), "# Kleb\n\nOtro mago.\n")
	write(t, filepath.Join(dir, "DM/Plan secreto.md"), "# Plan secreto\n\nEl archiduque es un dragón.\n")
	eng, _ := openEngine(t)
	ctx := context.Background()
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	const want = "El alcalde habló en la posada con el viejo, con el otro, con el tercero, con [Harbin](../NPCs/Harbin.md), con nadie, con el gnomo y con [la web](https://example.com/plan)  [arriba](#Arriba)."
	const q = "¿Con quién habló el alcalde en la posada?"
	leaks := []string{"DM/", "DM%2F", "Plan secreto", "Plan%20secreto", "mapa%20", "[ref]"}
	for _, role := range []string{oraculo.RolePlayer, oraculo.RoleDM} {
		ctx := oraculo.WithRole(ctx, role)
		wantText, wantHead := want, "La posada de el viejo"
		if role == oraculo.RoleDM {
			wantText, wantHead = asWritten, "La posada de [el viejo](DM/Plan%20secreto.md)"
		}
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 5})
		if err != nil || len(hits) == 0 || hits[0].File != "Lugares/Posada.md" {
			t.Fatalf("%s: search: %v %+v", role, err, hits)
		}
		c, err := eng.Chunk(ctx, hits[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		n, err := eng.Note(ctx, "Lugares/Posada.md")
		if err != nil {
			t.Fatal(err)
		}
		a, err := eng.Ask(ctx, q, oraculo.AskOptions{Extractive: true})
		if err != nil || len(a.Candidates) == 0 || len(a.Evidence) == 0 {
			t.Fatalf("%s: ask: %v %+v", role, err, a)
		}
		if !strings.Contains(a.Answer, "el viejo") {
			t.Fatalf("%s: the extractive answer quotes no sentence of the link: %q", role, a.Answer)
		}
		var evidence []string
		for _, ev := range a.Evidence {
			evidence = append(evidence, ev.Text)
		}
		for what, got := range map[string]struct{ text, head string }{
			"search": {hits[0].Text, strings.Join(hits[0].Headings, "|")},
			"chunk":  {c.Text, strings.Join(c.Headings, "|") + "|" + c.Title + "|" + c.FirstLine},
			"note": {strings.Join(func() []string {
				var ts []string
				for _, c := range n.Chunks {
					ts = append(ts, c.Text)
				}
				return ts
			}(), "\n"), n.Title + "|" + strings.Join(n.Chunks[0].Headings, "|")},
			"candidate": {a.Candidates[0].Text, strings.Join(a.Candidates[0].Headings, "|")},
		} {
			if !strings.Contains(got.text, wantText) || !strings.Contains(got.head, wantHead) {
				t.Errorf("%s's %s reads\n%q\n%q\nwant %q in the first, %q in the second", role, what, got.text, got.head, wantText, wantHead)
			}
		}
		all := hits[0].Text + hits[0].Passage + strings.Join(hits[0].Headings, "|") + c.Text + c.Title + c.FirstLine +
			strings.Join(c.Headings, "|") + n.Title + a.Candidates[0].Text + a.Answer + strings.Join(evidence, "\n")
		for _, n := range n.Chunks {
			all += n.Text
		}
		for _, leak := range leaks {
			if role == oraculo.RolePlayer && strings.Contains(all, leak) {
				t.Errorf("the player reads %q: answer %q, evidence %q, chunk %q", leak, a.Answer, evidence, c.Text)
			}
		}
		if role == oraculo.RoleDM && !strings.Contains(a.Answer+strings.Join(evidence, "\n"), "DM/Plan%20secreto.md") {
			t.Errorf("the DM's answer and evidence lost the link: %q %q", a.Answer, evidence)
		}
	}
}
