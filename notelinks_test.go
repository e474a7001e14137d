package oraculo

import (
	"encoding/json"
	"testing"
)

// TestNoteDirectoryResolves: a wikilink's target names a note as
// Obsidian resolves it: by path or file name, without ".md", whatever
// the case; by an alias when no file has the name; a name two notes
// share at the first level that has it, and a name no note has, resolve
// to nothing.
func TestNoteDirectoryResolves(t *testing.T) {
	d := newNoteDirectory([]noteName{
		{path: "NPCs/Harbin.md"},
		{path: "NPCs/Ser Morcant the Gloomy.md", aliases: []string{"Ser Morcant", "El Sombrío"}},
		{path: "Lugares/Phandalin.md"},
		{path: "Mapas/Phandalin.md"},
		{path: "Campaña/Sesiones/Sesión 3.md"},
		{path: "Kleb.md", aliases: []string{"Harbin"}}, // an alias never beats a file name
		{path: "Otra/Kleb.md"},
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
		got, ok := d.resolve(tc.target)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("resolve(%q) = %q, %v; want %q", tc.target, got, ok, tc.want)
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
