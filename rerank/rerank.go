// Package rerank reorders the fused candidates so that the best few come
// first: the stage between fusion (up to 40 candidates) and the context the
// chat model sees (the best 8).
//
// A reranker never fails the search. When it cannot do its job (a candidate
// without an annotation, a model or server that errs or does not answer in
// time, a reply that does not parse or names unknown candidates) it returns
// the fused order untouched and says why in [Result.Fallback].
package rerank

import (
	"context"
	"time"
)

// Candidate is one fused candidate, as the reranker sees it.
type Candidate struct {
	// ID is the chunk's id, returned in [Result.Order].
	ID int64
	// Label is the citation label, e.g. "Sesión 12".
	Label string
	// Annotation is the chunk's cached one- or two-sentence description,
	// made at ingest. The LLM reranker sees only this.
	Annotation string
	// Text is the chunk's text. The cross-encoder sees a clipped copy.
	Text string
}

// Result is a reranked order of candidates.
type Result struct {
	// Order holds the ids of all the candidates given, each once: the
	// reranked best first, then the rest in fused order. When Reranked is
	// false it is the fused order.
	Order []int64
	// Reranked reports whether the reranker's judgement was applied.
	Reranked bool
	// Fallback says why the fused order was kept ("missing annotations",
	// "timeout", "model error: ...", "unparseable reply", "unknown id 17",
	// ...), or "" when nothing went wrong (including when there was nothing
	// to rerank).
	Fallback string
	// Took is the time the reranking took.
	Took time.Duration
}

// Reranker orders candidates by their use for answering a question.
type Reranker interface {
	// Name names the reranker and its model, for logs and reports.
	Name() string
	// Rerank returns the candidates' ids with the best n for the question
	// first (all of them when n <= 0 or n >= len(cands)), most useful
	// first, followed by the others in the order given, which is taken to
	// be the fused order. It never fails: on any trouble it returns the
	// order given, with the reason in Fallback.
	Rerank(ctx context.Context, question string, cands []Candidate, n int) Result
}

// wanted is how many candidates a reranker must choose when n are asked
// for out of total: all when n <= 0 or n > total.
func wanted(n, total int) int {
	if n <= 0 || n > total {
		return total
	}
	return n
}

// promote returns the ids of cands with the candidates at positions best
// first, in that order, and the others after them in their given order.
// positions must be valid and distinct.
func promote(cands []Candidate, best []int) []int64 {
	order := make([]int64, 0, len(cands))
	taken := make([]bool, len(cands))
	for _, p := range best {
		order = append(order, cands[p].ID)
		taken[p] = true
	}
	for i, c := range cands {
		if !taken[i] {
			order = append(order, c.ID)
		}
	}
	return order
}
