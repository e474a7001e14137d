package rerank

import "context"

// Info says how the candidates were reordered (the engine's RerankInfo,
// `ask --json`).
type Info struct {
	Reranker string `json:"reranker"`
	Reranked bool   `json:"reranked"`
	// Fallback says why the fused order was kept, when it was.
	Fallback string `json:"fallback,omitempty"`
}

// Reorder reranks cands, in fused order, with r for the question, the
// best n first (see [Reranker]), and returns the new order as positions
// in cands, with how it was made. It returns nil positions when the
// fused order is kept because there is no reranker (r is nil: none set
// and no chat model) or r's order is not an order of cands (see
// [Positions]); a reranker's own fallback is an order like any other.
func Reorder(ctx context.Context, r Reranker, question string, cands []Candidate, n int) ([]int, Info) {
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
