package rerank

import (
	"context"
	"slices"
	"testing"
)

// fixedOrder is a reranker that returns its order, reranked.
type fixedOrder []int64

func (fixedOrder) Name() string { return "fixed" }

func (o fixedOrder) Rerank(context.Context, string, []Candidate, int) Result {
	return Result{Order: o, Reranked: true}
}

// TestReorder: a reranker's order comes back as positions; no reranker,
// or an order that is not one of the candidates, keeps the fused order
// and says why; None's order is applied, not reranked.
func TestReorder(t *testing.T) {
	cands := candidates(3) // ids 101, 102, 103
	tests := []struct {
		name string
		r    Reranker
		want []int
		info Info
	}{
		{"no reranker", nil, nil, Info{Reranker: "none", Fallback: "no chat model"}},
		{"reranked", fixedOrder{103, 101, 102}, []int{2, 0, 1}, Info{Reranker: "fixed", Reranked: true}},
		{"partial", fixedOrder{103}, nil, Info{Reranker: "fixed", Fallback: "reranker returned a partial order"}},
		{"none", None{}, []int{0, 1, 2}, Info{Reranker: "none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, info := reorder(context.Background(), tt.r, "¿qué pasó?", cands, 2)
			if !slices.Equal(got, tt.want) || info != tt.info {
				t.Errorf("reorder = %v, %+v; want %v, %+v", got, info, tt.want, tt.info)
			}
		})
	}
}
