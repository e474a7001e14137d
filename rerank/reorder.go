package rerank

import (
	"context"

	"github.com/oraculo/oraculo/retrieve"
)

// Info says how the candidates were reordered (the engine's RerankInfo,
// `ask --json`).
type Info struct {
	Reranker string `json:"reranker"`
	Reranked bool   `json:"reranked"`
	// Fallback says why the fused order was kept, when it was.
	Fallback string `json:"fallback,omitempty"`
}

// Reorder reranks the hits, in fused order, with r for the question,
// each read with its annotation in notes (by [retrieve.Hit.Chunk]), the
// best n first, and returns them in the new order, ranks numbered anew,
// with how it was made (see [reorder]). The fused order is returned as
// it is when it is kept.
func Reorder(ctx context.Context, r Reranker, question string, hits []retrieve.Hit, notes map[int64]string, n int) ([]retrieve.Hit, Info) {
	cands := make([]Candidate, len(hits))
	for i, h := range hits {
		cands[i] = Candidate{ID: h.Chunk, Label: h.Label, Annotation: notes[h.Chunk], Text: h.Text}
	}
	order, info := reorder(ctx, r, question, cands, n)
	if order == nil {
		return hits, info
	}
	out := make([]retrieve.Hit, len(order))
	for i, p := range order {
		out[i] = hits[p]
		out[i].Rank = i + 1
	}
	return out, info
}

// reorder reranks cands, in fused order, with r for the question, the
// best n first (see [Reranker]), and returns the new order as positions
// in cands, with how it was made. It returns nil positions when the
// fused order is kept because there is no reranker (r is nil: none set
// and no chat model) or r's order is not an order of cands (see
// [Positions]); a reranker's own fallback is an order like any other.
func reorder(ctx context.Context, r Reranker, question string, cands []Candidate, n int) ([]int, Info) {
	if r == nil {
		return nil, Info{Reranker: "none", Fallback: "no chat model"}
	}
	res := r.Rerank(ctx, question, cands, n)
	order, fallback := Positions(cands, res.Order)
	if fallback != "" {
		return nil, Info{Reranker: r.Name(), Fallback: fallback}
	}
	return order, Info{Reranker: r.Name(), Reranked: res.Reranked, Fallback: res.Fallback}
}
