package notelink

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// TestNoteDirectoryResolves: a wikilink's target names a note as
// Obsidian resolves it: by path or file name, without ".md", whatever
// the case; by an alias when no file has the name; a name two notes
// share at the first level that has it, and a name no note has, resolve
// to nothing.
func TestNoteDirectoryResolves(t *testing.T) {
	d := NewDirectory([]Name{
		{Path: "NPCs/Harbin.md"},
		{Path: "NPCs/Ser Morcant the Gloomy.md", Aliases: []string{"Ser Morcant", "El Sombrío"}},
		{Path: "Lugares/Phandalin.md"},
		{Path: "Mapas/Phandalin.md"},
		{Path: "Campaña/Sesiones/Sesión 3.md"},
		{Path: "Kleb.md", Aliases: []string{"Harbin"}}, // an alias never beats a file name
		{Path: "Otra/Kleb.md"},
	})
	for _, tc := range []struct{ target, want string }{
		{"Harbin", "NPCs/Harbin.md"},
		{"harbin", "NPCs/Harbin.md"},
		{"Harbin.md", "NPCs/Harbin.md"},
		{"NPCs/Harbin", "NPCs/Harbin.md"},
		{"npcs/harbin.MD", "NPCs/Harbin.md"},
		{"/NPCs/Harbin", "NPCs/Harbin.md"},
		{"Ser Morcant", "NPCs/Ser Morcant the Gloomy.md"},
		{"el sombrío", "NPCs/Ser Morcant the Gloomy.md"},
		{"Sesiones/Sesión 3", "Campaña/Sesiones/Sesión 3.md"},
		{"Sesión 3", "Campaña/Sesiones/Sesión 3.md"},
		{"Lugares/Phandalin", "Lugares/Phandalin.md"},
		{"Phandalin", ""}, // two notes
		{"Kleb", ""},      // two notes
		{"Vermitrax", ""}, // none
		{"iones/Sesión 3", ""},
		{"", ""},
	} {
		got, ok := d.Resolve(tc.target)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.target, got, ok, tc.want)
		}
	}
}

func TestFrontAliases(t *testing.T) {
	for _, tc := range []struct {
		meta string
		want int
	}{
		{`{"aliases": ["a", "b", 3]}`, 2},
		{`{"aliases": "a"}`, 1},
		{`{}`, 0},
		{``, 0},
	} {
		if got := frontAliases(json.RawMessage(tc.meta)); len(got) != tc.want {
			t.Errorf("frontAliases(%s) = %q", tc.meta, got)
		}
	}
}

// TestLoadLeavesOutWhatPlayersMayNotSee: a players' directory holds no
// DM-only note, by path or alias; the DM's holds every note.
func TestLoadLeavesOutWhatPlayersMayNotSee(t *testing.T) {
	s := factsOf{
		{Path: "NPCs/Harbin.md", Metadata: json.RawMessage(`{"aliases": ["el alcalde"]}`)},
		{Path: "DM/Plan secreto.md", Metadata: json.RawMessage(`{"aliases": ["el plan"]}`), Restricted: true},
	}
	for _, public := range []bool{false, true} {
		d, err := Load(context.Background(), s, public)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range []string{"Harbin", "el alcalde", "Plan secreto", "el plan"} {
			_, ok := d.Resolve(target)
			if want := !public || !strings.Contains(strings.ToLower(target), "plan"); ok != want {
				t.Errorf("public %v: Resolve(%q) = %v, want %v", public, target, ok, want)
			}
		}
	}
}

// factsOf is a store of note facts.
type factsOf []store.NoteFacts

func (s factsOf) EachNoteFacts(_ context.Context, fn func(store.NoteFacts) error) error {
	for _, f := range s {
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}
