package oraculo_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/text"
)

// TestPlayerReadsNoLinkToAHiddenNote: what the engine hands a player of a
// note's text (search hits, a chunk, a note, an answer's candidates)
// writes each wikilink whose target is no note the player may see as the
// text it shows: a DM-only note's link reads exactly as a link to no
// note, or to two; a link to a note the player sees, or to a heading of
// the note itself, stays as written; what a reader sees of the text
// (text.Render) is the DM's. The DM reads the text as written.
func TestPlayerReadsNoLinkToAHiddenNote(t *testing.T) {
	dir := t.TempDir()
	const asWritten = "[[DM/Plan secreto|el viejo]] habló en la posada con [[Nadie|nadie]], con [[NPCs/Harbin|Harbin]] y con [[Kleb|el gnomo]] ![[DM/mapa del plan.png]] ![[DM/Plan secreto#Fase 2|la fase]] [[#Arriba|arriba]]."
	write(t, filepath.Join(dir, "Lugares/Posada.md"), "# La posada de [[DM/Plan secreto|el viejo]]\n\n"+asWritten+"\n")
	write(t, filepath.Join(dir, "NPCs/Harbin.md"), "# Harbin\n\nEl alcalde.\n")
	write(t, filepath.Join(dir, "NPCs/Kleb.md"), "# Kleb\n\nUn mago.\n")
	write(t, filepath.Join(dir, "Otros/Kleb.md"), "# Kleb\n\nOtro mago.\n")
	write(t, filepath.Join(dir, "DM/Plan secreto.md"), "# Plan secreto\n\nEl archiduque es un dragón.\n")
	eng, _ := openEngine(t)
	ctx := context.Background()
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	const want = "el viejo habló en la posada con nadie, con [[NPCs/Harbin|Harbin]] y con el gnomo  la fase [[#Arriba|arriba]]."
	const q = "¿Quién habló en la posada?"
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	for role, ctx := range map[string]context.Context{"player": player, "dm": oraculo.WithRole(ctx, oraculo.RoleDM)} {
		wantText, wantHead := want, "La posada de el viejo"
		if role == "dm" {
			wantText, wantHead = asWritten, "La posada de [[DM/Plan secreto|el viejo]]"
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
		if err != nil || len(a.Candidates) == 0 {
			t.Fatalf("%s: ask: %v", role, err)
		}
		for what, got := range map[string]struct{ text, head string }{
			"search":    {hits[0].Text, strings.Join(hits[0].Headings, "|")},
			"chunk":     {c.Text, strings.Join(c.Headings, "|") + "|" + c.Title + "|" + c.FirstLine},
			"note":      {n.Chunks[0].Text, n.Title + "|" + strings.Join(n.Chunks[0].Headings, "|")},
			"candidate": {a.Candidates[0].Text, strings.Join(a.Candidates[0].Headings, "|")},
		} {
			if !strings.Contains(got.text, wantText) || !strings.Contains(got.head, wantHead) {
				t.Errorf("%s's %s reads\n%q\n%q\nwant %q in the first, %q in the second", role, what, got.text, got.head, wantText, wantHead)
			}
			if role == "player" && (strings.Contains(got.text+got.head, "DM/") || strings.Contains(got.text+got.head, "Plan secreto") || strings.Contains(got.text, "mapa")) {
				t.Errorf("the player's %s names the DM-only note: %q %q", what, got.text, got.head)
			}
		}
		if text.Render(c.Text) != text.Render(strings.Replace(c.Text, wantText, asWritten, 1)) {
			t.Errorf("%s: the chunk shows %q, the note as written %q", role, text.Render(c.Text), text.Render(asWritten))
		}
	}
}
