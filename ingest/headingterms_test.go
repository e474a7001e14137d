package ingest

import (
	"strings"
	"testing"
)

// The note's name leads its chunks' heading terms, its words once: an
// Obsidian note named for its subject under a generic heading is found
// by that subject.
func TestHeadingTermsLedByTheNoteName(t *testing.T) {
	words := func(s string) []string { return strings.Fields(strings.ToLower(s)) }
	for _, c := range []struct {
		path     string
		headings []string
		want     string
	}{
		{"legal/Consejo de vigilancia.md", []string{"Definición"}, "consejo de vigilancia definición"},
		{"sessions/session-12.md", []string{"Session 12", "Loot"}, "session 12 loot"},
		{"NPCs/alder_wickwire.md", []string{"Alder Wickwire"}, "alder wickwire"},
		{"Capítulo 25.md", []string{"Capítulo XXV"}, "25 capítulo xxv"},
		{"notes.txt", nil, "notes"},
	} {
		if got := headingTerms(words, c.path, c.headings); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.path, c.headings, got, c.want)
		}
	}
}
