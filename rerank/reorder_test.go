package rerank

import (
	"context"
	"slices"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
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

// seenAnnotations is a reranker that keeps the annotations it was given
// and reverses the order.
type seenAnnotations struct{ got []string }

func (*seenAnnotations) Name() string { return "seen" }

func (s *seenAnnotations) Rerank(_ context.Context, _ string, cands []Candidate, _ int) Result {
	var order []int64
	for i := len(cands) - 1; i >= 0; i-- {
		s.got = append(s.got, cands[i].Annotation)
		order = append(order, cands[i].ID)
	}
	return Result{Order: order, Reranked: true}
}

// TestReorderHits: the hits are reordered as themselves, ranks numbered
// anew, each read with its chunk's annotation; without a reranker they
// come back as they were.
func TestReorderHits(t *testing.T) {
	hits := []retrieve.Hit{{Rank: 1, ID: "a", Chunk: 7}, {Rank: 2, ID: "b", Chunk: 9}}
	notes := map[int64]string{7: "siete", 9: "nueve"}
	r := &seenAnnotations{}
	got, info := Reorder(context.Background(), r, "¿qué pasó?", hits, notes, 2)
	if len(got) != 2 || got[0].ID != "b" || got[0].Rank != 1 || got[1].ID != "a" || got[1].Rank != 2 || !info.Reranked {
		t.Errorf("Reorder = %+v, %+v", got, info)
	}
	if !slices.Equal(r.got, []string{"nueve", "siete"}) || hits[0].ID != "a" {
		t.Errorf("annotations seen %q; hits %+v", r.got, hits)
	}
	if got, info := Reorder(context.Background(), nil, "¿qué pasó?", hits, notes, 2); &got[0] != &hits[0] || info.Reranker != "none" {
		t.Errorf("no reranker: %+v, %+v", got, info)
	}
}

// TestChoose: the reranker set wins; else the chat model's; else none.
func TestChoose(t *testing.T) {
	set := None{}
	if r := Choose(set, nil, "es"); r != set {
		t.Errorf("Choose(set) = %v", r)
	}
	if r := Choose(nil, nil, "es"); r != nil {
		t.Errorf("Choose(nil, nil) = %v", r)
	}
}
