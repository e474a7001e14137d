package rerank

import (
	"context"
	"fmt"
	"slices"
	"testing"

	_ "github.com/oraculo/oraculo/internal/golden" // accepts -update
)

// candidates returns n candidates with ids 101, 102, ... in fused order.
func candidates(n int) []Candidate {
	cands := make([]Candidate, n)
	for i := range cands {
		cands[i] = Candidate{
			ID:         int64(101 + i),
			Label:      fmt.Sprintf("Sesión %d", i+1),
			Annotation: fmt.Sprintf("resumen %d: el grupo cruza el paso %d", i+1, i+1),
			Text:       fmt.Sprintf("TEXTO CRUDO %d: el grupo llegó al paso y discutió durante horas.", i+1),
		}
	}
	return cands
}

// ids returns the ids of the candidates at the given positions.
func ids(cands []Candidate, positions ...int) []int64 {
	out := make([]int64, len(positions))
	for i, p := range positions {
		out[i] = cands[p].ID
	}
	return out
}

// checkPermutation fails t unless r.Order holds every candidate's id once.
func checkPermutation(t *testing.T, r Result, cands []Candidate) {
	t.Helper()
	want := Fused(cands).Order
	got := slices.Clone(r.Order)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("order %v is not a permutation of the candidates' ids %v", r.Order, want)
	}
}

func TestFused(t *testing.T) {
	cands := candidates(4)
	r := Fused(cands)
	if !slices.Equal(r.Order, []int64{101, 102, 103, 104}) || r.Reranked || r.Fallback != "" {
		t.Fatalf("Fused = %+v", r)
	}
	if r := Fused(nil); r.Order == nil || len(r.Order) != 0 {
		t.Fatalf("Fused(nil).Order = %#v, want empty", r.Order)
	}
}

func TestPromote(t *testing.T) {
	cands := candidates(5)
	tests := []struct {
		best []int
		want []int64
	}{
		{nil, []int64{101, 102, 103, 104, 105}},
		{[]int{3}, []int64{104, 101, 102, 103, 105}},
		{[]int{4, 0, 2}, []int64{105, 101, 103, 102, 104}},
		{[]int{4, 3, 2, 1, 0}, []int64{105, 104, 103, 102, 101}},
	}
	for _, tt := range tests {
		if got := promote(cands, tt.best); !slices.Equal(got, tt.want) {
			t.Errorf("promote(%v) = %v, want %v", tt.best, got, tt.want)
		}
	}
}

func TestWanted(t *testing.T) {
	tests := []struct{ n, total, want int }{
		{8, 27, 8}, {8, 5, 5}, {0, 5, 5}, {-1, 5, 5}, {5, 5, 5}, {1, 5, 1},
	}
	for _, tt := range tests {
		if got := wanted(tt.n, tt.total); got != tt.want {
			t.Errorf("wanted(%d, %d) = %d, want %d", tt.n, tt.total, got, tt.want)
		}
	}
}

func TestNone(t *testing.T) {
	var r Reranker = None{}
	cands := candidates(3)
	got := r.Rerank(context.Background(), "¿qué pasó?", cands, 2)
	if !slices.Equal(got.Order, ids(cands, 0, 1, 2)) || got.Reranked || got.Fallback != "" {
		t.Fatalf("None.Rerank = %+v", got)
	}
	if r.Name() != "none" {
		t.Fatalf("Name = %q", r.Name())
	}
}
