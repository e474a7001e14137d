package rerank

import (
	"context"
	"time"
)

// Fused returns the candidates in the order given (the fused order), not
// reranked and with no fallback reason: what every reranker returns when
// it cannot or need not do better.
func Fused(cands []Candidate) Result {
	order := make([]int64, len(cands))
	for i, c := range cands {
		order[i] = c.ID
	}
	return Result{Order: order}
}

// fallback is [Fused] with a reason and the time spent since start.
func fallback(cands []Candidate, reason string, start time.Time) Result {
	r := Fused(cands)
	r.Fallback = reason
	r.Took = time.Since(start)
	return r
}

var _ Reranker = None{}

// None is the reranker that keeps the fused order: reranking switched off.
type None struct{}

// Name implements [Reranker].
func (None) Name() string { return "none" }

// Rerank implements [Reranker]: it returns [Fused] of cands.
func (None) Rerank(_ context.Context, _ string, cands []Candidate, _ int) Result {
	return Fused(cands)
}
