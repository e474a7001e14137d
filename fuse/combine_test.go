package fuse

import (
	"fmt"
	"math"
	"testing"
)

func ids(cands []Candidate) []int64 {
	out := make([]int64, len(cands))
	for i, c := range cands {
		out[i] = c.ID
	}
	return out
}

// TestCombine ranks the paths' lists: one list by its own scores, the
// narrative prior on ranks, the entity list reordering within its margin
// (wider for an arc question), and alone the base.
func TestCombine(t *testing.T) {
	bm25 := List{Path: "bm25", IDs: []int64{1, 2, 3}, Scores: []float64{1, 0.95, 0.8}}
	dense := List{Path: "dense", IDs: []int64{3, 1, 2}, Scores: []float64{0.9, 0.8, 0.7}}
	entity := func(ids ...int64) List {
		return List{Path: "entity", IDs: ids, Scores: []float64{1, 0.5, 0.25}[:len(ids)]}
	}
	session := func(id int64) bool { return id == 3 }
	for _, tc := range []struct {
		name  string
		lists []List
		r     Ranking
		want  string
	}{
		{"one list keeps its scores", []List{bm25}, Ranking{Limit: 2}, "[1 2]"},
		{"narrative on ranks", []List{bm25}, Ranking{Narrative: true, InSession: session}, "[3 1 2]"},
		{"entity alone is the base", []List{entity(2, 1)}, Ranking{Reorderer: "entity"}, "[2 1]"},
		{"entity found nothing", []List{bm25, entity()}, Ranking{Reorderer: "entity"}, "[1 2 3]"},
		{"entity lifts a near tie", []List{bm25, entity(2)}, Ranking{Reorderer: "entity"}, "[2 1 3]"},
		{"never over a clear lead", []List{bm25, entity(3)}, Ranking{Reorderer: "entity"}, "[1 2 3]"},
		{"an arc question's wider margin", []List{bm25, entity(3)}, Ranking{Reorderer: "entity", Arc: true}, "[3 1 2]"},
		{"what only it found comes after", []List{bm25, entity(4, 2)}, Ranking{Reorderer: "entity"}, "[1 2 3 4]"},
		{"fused by rank, within a share of a first rank", []List{bm25, dense, entity(2)}, Ranking{Reorderer: "entity"}, "[2 1 3]"},
	} {
		got := Combine(tc.lists, tc.r)
		if fmt.Sprint(ids(got)) != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, ids(got), tc.want)
		}
	}
	got := Combine([]List{bm25}, Ranking{Narrative: true, InSession: session})
	if got[0].Boost != 1+NarrativeBoost || math.Abs(got[0].Score-(1+NarrativeBoost)/63) > 1e-12 {
		t.Errorf("the prior on BM25's third: %+v", got[0])
	}
}
