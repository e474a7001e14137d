package rerank

// Positions maps an order returned by a [Reranker] onto the candidates it
// was given: the position in cands of each id of order, in order. When
// order is not an order of cands (it holds fewer or more ids, or an id of
// no candidate) it returns nil and the reason, to be reported as a
// fallback to the fused order.
func Positions(cands []Candidate, order []int64) ([]int, string) {
	if len(order) != len(cands) {
		return nil, "reranker returned a partial order"
	}
	at := make(map[int64]int, len(cands))
	for i, c := range cands {
		at[c.ID] = i
	}
	out := make([]int, len(order))
	for i, id := range order {
		p, ok := at[id]
		if !ok {
			return nil, "reranker returned an unknown id"
		}
		out[i] = p
	}
	return out, ""
}
