package oraculo

import (
	"fmt"
	"testing"
)

func TestSpreadGivesEachSessionASlotFirst(t *testing.T) {
	s := func(n int) *int { return &n }
	hits := []Hit{
		{ID: "a", Session: s(3)}, {ID: "b", Session: s(3)}, {ID: "c", File: "NPCs/x.md"},
		{ID: "d", Session: s(7)}, {ID: "e", File: "NPCs/x.md"}, {ID: "f", Session: s(3)}, {ID: "g", Session: s(9)},
	}
	got := spread(hits)
	var ids []string
	for i, h := range got {
		ids = append(ids, h.ID)
		if h.Rank != i+1 {
			t.Errorf("%s has rank %d at %d", h.ID, h.Rank, i+1)
		}
	}
	if fmt.Sprint(ids) != "[a c d g b e f]" {
		t.Errorf("spread order %v, want [a c d g b e f]", ids)
	}
}
