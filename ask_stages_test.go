package oraculo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/rerank"
)

// orderReranker returns the order its function makes of the candidates'
// ids.
type orderReranker func(ids []int64) []int64

func (orderReranker) Name() string { return "test" }

func (r orderReranker) Rerank(_ context.Context, _ string, cands []rerank.Candidate, _ int) rerank.Result {
	ids := make([]int64, len(cands))
	for i, c := range cands {
		ids[i] = c.ID
	}
	return rerank.Result{Order: r(ids), Reranked: true}
}

// TestAskRerankStage: Ask applies a reranker's order to the candidates
// and ranks them anew, and keeps the fused order, saying why, when the
// order is not one of the candidates.
func TestAskRerankStage(t *testing.T) {
	ctx := context.Background()
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{askNotes(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	ids := func(hits []oraculo.Hit) []string {
		out := make([]string, len(hits))
		for i, h := range hits {
			out[i] = h.ID
		}
		return out
	}
	tests := []struct {
		name     string
		order    func([]int64) []int64
		reversed bool
		fallback string
	}{
		{"reversed", func(ids []int64) []int64 { slices.Reverse(ids); return ids }, true, ""},
		{"partial", func(ids []int64) []int64 { return ids[1:] }, false, "reranker returned a partial order"},
		{"unknown id", func(ids []int64) []int64 { return append(ids[1:], -1) }, false, "reranker returned an unknown id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng := reopen(t, db, oraculo.WithRerankerModel(orderReranker(tt.order)))
			a, err := eng.Ask(ctx, "¿Qué confiesa Garrik en el puerto?", oraculo.AskOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Fused) < 2 {
				t.Fatalf("%d candidates: too few to reorder", len(a.Fused))
			}
			want := ids(a.Fused)
			if tt.reversed {
				slices.Reverse(want)
			}
			if got := ids(a.Candidates); !slices.Equal(got, want) {
				t.Errorf("candidates %v, want %v", got, want)
			}
			if a.Rerank.Reranker != "test" || a.Rerank.Reranked != tt.reversed || a.Rerank.Fallback != tt.fallback {
				t.Errorf("rerank info %+v, want reranked %v, fallback %q", a.Rerank, tt.reversed, tt.fallback)
			}
			for i, h := range a.Candidates {
				if tt.reversed && h.Rank != i+1 {
					t.Errorf("candidate %d has rank %d", i, h.Rank)
				}
			}
		})
	}
}
