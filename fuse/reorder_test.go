package fuse

import (
	"math"
	"testing"
)

// Reorder lets the entity list pass a lead smaller than the margin, never
// a larger one, and puts what only it found after every base candidate.
func TestReorderWithinMargin(t *testing.T) {
	base := []Candidate{
		{ID: 1, Score: 10, Ranks: map[string]int{"bm25": 1}},  // 1.00
		{ID: 2, Score: 9.5, Ranks: map[string]int{"bm25": 2}}, // 0.95: passes 1 with a full lift
		{ID: 3, Score: 8, Ranks: map[string]int{"bm25": 3}},   // 0.80: may not pass 1
		{ID: 4, Score: 0.5, Ranks: map[string]int{"bm25": 4}}, // 0.05
	}
	ent := List{Path: "entity", IDs: []int64{2, 3, 9}}
	got := Reorder(base, ent, []float64{4, 4, 2}, 0.1, 0)
	want := []struct {
		id    int64
		score float64
		ranks map[string]int
	}{
		{2, 0.95 + 0.1, map[string]int{"bm25": 2, "entity": 1}},
		{1, 1, map[string]int{"bm25": 1}},
		{3, 0.8 + 0.1, map[string]int{"bm25": 3, "entity": 2}},
		{4, 0.05, map[string]int{"bm25": 4}},
		// Only the entity list found it: after every base candidate,
		// even one whose score is lower.
		{9, 0.05, map[string]int{"entity": 3}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d candidates, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.id || math.Abs(g.Score-w.score) > 1e-12 || len(g.Ranks) != len(w.ranks) {
			t.Errorf("#%d: got %+v, want id %d score %v ranks %v", i, g, w.id, w.score, w.ranks)
			continue
		}
		for p, r := range w.ranks {
			if g.Ranks[p] != r {
				t.Errorf("#%d: rank in %s %d, want %d", i, p, g.Ranks[p], r)
			}
		}
	}
	if l := got[0].Lift; math.Abs(l-0.1) > 1e-12 {
		t.Errorf("lift of the first: %v, want 0.1", l)
	}
	// The base is not changed, and limit cuts.
	if base[0].Score != 10 || len(base[1].Ranks) != 1 {
		t.Errorf("the base was modified: %+v", base)
	}
	if got := Reorder(base, ent, []float64{4, 4, 2}, 0.1, 2); len(got) != 2 || got[0].ID != 2 || got[1].ID != 1 {
		t.Errorf("limit 2: %+v", got)
	}
	// No entity evidence: the base order, as shares of its best.
	got = Reorder(base, List{Path: "entity"}, nil, 0.1, 0)
	for i, c := range got {
		if c.ID != base[i].ID || math.Abs(c.Score-base[i].Score/10) > 1e-12 {
			t.Errorf("#%d without evidence: %+v", i, c)
		}
	}
}
