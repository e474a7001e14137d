package fuse

import (
	"fmt"
	"math"
	"testing"

	_ "github.com/oraculo/oraculo/internal/golden" // accepts -update
)

func TestRRFHandComputed(t *testing.T) {
	lists := []List{
		{Path: "bm25", IDs: []int64{1, 2, 3}},
		{Path: "dense", IDs: []int64{3, 4, 1}},
		{Path: "entity", IDs: nil},
	}
	got := RRF(lists, 60, 0)
	// 1: 1/61 + 1/63; 3: 1/63 + 1/61 (tie with 1: same paths, same best rank → smaller id);
	// 2: 1/62; 4: 1/62 (tie: one path each, best rank 2 → smaller id).
	want := []struct {
		id    int64
		score float64
		ranks map[string]int
	}{
		{1, 1.0/61 + 1.0/63, map[string]int{"bm25": 1, "dense": 3}},
		{3, 1.0/63 + 1.0/61, map[string]int{"bm25": 3, "dense": 1}},
		{2, 1.0 / 62, map[string]int{"bm25": 2}},
		{4, 1.0 / 62, map[string]int{"dense": 2}},
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
				t.Errorf("#%d: rank in %s = %d, want %d", i, p, g.Ranks[p], r)
			}
		}
	}
}

func TestRRFCrossPathBeatsSingleFirst(t *testing.T) {
	// Found 5th by both paths beats first in one path only: 2/65 > 1/61.
	got := RRF([]List{{Path: "a", IDs: []int64{9, 1, 2, 3, 7}}, {Path: "b", IDs: []int64{8, 4, 5, 6, 7}}}, 60, 1)
	if len(got) != 1 || got[0].ID != 7 {
		t.Fatalf("got %+v, want 7 first", got)
	}
}

func TestRRFWeight(t *testing.T) {
	// Weighted below k/(k+depth), a list only reorders the other's: its
	// first alone (0.3/61) ranks below the other's last (1/65), and the
	// other's third, found by both (1/63 + 0.3/62), rises to the top.
	got := RRF([]List{{Path: "a", IDs: []int64{1, 2, 3, 4, 5}}, {Path: "b", IDs: []int64{9, 3}, Weight: 0.3}}, 60, 0)
	var order []int64
	for _, c := range got {
		order = append(order, c.ID)
	}
	want := []int64{3, 1, 2, 4, 5, 9}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	if math.Abs(got[0].Score-(1.0/63+0.3/62)) > 1e-12 {
		t.Fatalf("weighted score %v", got[0].Score)
	}
}

func TestRRFLimitsAndEdges(t *testing.T) {
	if got := RRF(nil, 0, 10); len(got) != 0 {
		t.Fatalf("no lists: %+v", got)
	}
	long := make([]int64, 100)
	for i := range long {
		long[i] = int64(i)
	}
	if got := RRF([]List{{Path: "a", IDs: long}}, 0, MaxCandidates); len(got) != MaxCandidates || got[0].ID != 0 || got[39].ID != 39 {
		t.Fatalf("limit: %d candidates", len(got))
	}
	// A repeated id in one list counts once, at its first rank.
	got := RRF([]List{{Path: "a", IDs: []int64{5, 5, 6}}}, 60, 0)
	if len(got) != 2 || got[0].Ranks["a"] != 1 || math.Abs(got[0].Score-1.0/61) > 1e-12 {
		t.Fatalf("repeat: %+v", got)
	}
}

// Each fusion step records what it did, and the record adds up to the
// score: RRF's parts, Single's own scores, ByRank's, Boost's factor and
// Reorder's share and lift.
func TestExplanation(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	got := RRF([]List{{Path: "bm25", IDs: []int64{1, 2}}, {Path: "dense", IDs: []int64{2}, Weight: 0.5}}, 60, 0)
	if p := got[0].Parts; got[0].ID != 2 || len(p) != 2 || p[0] != (Part{"bm25", 2, 60, 1, 1.0 / 62}) || p[1] != (Part{"dense", 1, 60, 0.5, 0.5 / 61}) {
		t.Fatalf("RRF parts: %+v", got[0])
	}
	if !near(got[0].Total(), got[0].Score) {
		t.Fatalf("RRF total %v, score %v", got[0].Total(), got[0].Score)
	}
	single := Single(List{Path: "bm25", IDs: []int64{7, 8, 9}, Scores: []float64{3, 4, 1}})
	if single[1].Score != 3 || single[1].Parts[0] != (Part{Path: "bm25", Rank: 2, Weight: 1, Score: 3}) {
		t.Fatalf("Single keeps the path's order, scores never rising: %+v", single)
	}
	byRank := ByRank(single, 0)
	if p := byRank[2].Parts[0]; !near(byRank[2].Score, 1.0/63) || p != (Part{"bm25", 3, 60, 1, 1.0 / 63}) || single[2].Score != 1 {
		t.Fatalf("ByRank: %+v (single after: %+v)", byRank, single)
	}
	boosted := Boost(byRank, 1.5, func(id int64) bool { return id == 9 })
	if boosted[0].ID != 9 || boosted[0].Boost != 1.5 || !near(boosted[0].Score, 1.5/63) || boosted[1].Boost != 0 || byRank[2].Boost != 0 {
		t.Fatalf("Boost: %+v", boosted)
	}
	re := Reorder(boosted, List{Path: "entity", IDs: []int64{8, 5}}, []float64{2, 1}, 0.1, 0)
	for _, c := range re {
		if c.ReorderedBy != "entity" || !near(c.Share+c.Lift, c.Score) {
			t.Errorf("Reorder: %+v", c)
		}
	}
	if last := re[len(re)-1]; last.ID != 5 || last.Share != 0 || !near(last.Lift, 0.05) || len(last.Parts) != 0 {
		t.Errorf("only the entity list found it: %+v", last)
	}
}
