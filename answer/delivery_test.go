package answer

import (
	"testing"

	"github.com/oraculo/oraculo/retrieve"
)

// TestDeliverHits: each hit is read as a candidate with its chunk's
// annotation, its session when it has one, and its public id, which the
// evidence lists.
func TestDeliverHits(t *testing.T) {
	s := 4
	hits := []retrieve.Hit{
		{ID: "c7", Chunk: 7, Label: "Sesión 4", File: "S4.md", Session: &s, Headings: []string{"Puerto"}, Text: "Garrik confesó el robo.", Passage: "confesó"},
		{ID: "c9", Chunk: 9, Label: "NPCs: Nix", File: "Nix.md", Text: "Nix vende mapas."},
	}
	cs := candidates(hits, map[int64]string{9: "Nix, cartógrafa."})
	if c := cs[0]; c.ID != 7 || c.Ref != "c7" || !c.InSession || c.Session != 4 || c.Passage != "confesó" || c.Headings[0] != "Puerto" || c.Annotation != "" {
		t.Errorf("session hit = %+v", c)
	}
	if c := cs[1]; c.ID != 9 || c.Ref != "c9" || c.InSession || c.Annotation != "Nix, cartógrafa." {
		t.Errorf("note hit = %+v", c)
	}
	got := Deliver(hits, nil, AssembleOptions{}).Evidence()
	if len(got) != 2 || got[0].ID != "c7" || got[1].ID != "c9" {
		t.Errorf("Evidence() = %+v", got)
	}
}

// TestCited: the evidence valid citations name, each once, in the order
// of its first citation.
func TestCited(t *testing.T) {
	ev := []Evidence{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	id := func(s string) *string { return &s }
	cs := []PublicCitation{{Valid: true, Evidence: id("b")}, {Valid: false, Evidence: id("c")}, {Valid: true, Evidence: id("a")},
		{Valid: true, Evidence: id("b")}, {Valid: true}, {Valid: true, Evidence: id("zz")}}
	got := Cited(ev, cs)
	if len(got) != 2 || got[0].ID != "b" || got[1].ID != "a" {
		t.Errorf("Cited = %+v", got)
	}
}
