package fuse

import "slices"

// StateMargin is how close two fused scores must be for [Latest] to treat
// them as equal: within 1% of the better one. Fused by reciprocal rank
// (k = 60), one rank step near the top is worth 1.6% (1/61 against
// 1/62), so the margin reorders only candidates the fusion told apart by
// less than a rank step of any path: "first in one path, third in the
// other" against "second in both". On one path's own scores (BM25) it
// is a near-tie.
const StateMargin = 0.01

// Latest reorders the candidates of a state question ("¿sigue vivo
// Harbin?", "who leads the guild?"), whose answer is the latest account:
// within each run of candidates whose scores lie within StateMargin of
// the run's first, the session chunks take the run's session slots from
// the latest session down. A candidate outside sessions (session says
// false) keeps its slot; the order is otherwise kept, and scores are not
// changed.
func Latest(cands []Candidate, session func(id int64) (int, bool)) []Candidate {
	out := slices.Clone(cands)
	for start := 0; start < len(out); {
		end := start + 1
		for end < len(out) && out[end].Score >= out[start].Score*(1-StateMargin) {
			end++
		}
		latestFirst(out[start:end], session)
		start = end
	}
	return out
}

// latestFirst sorts the session candidates of run among their own slots,
// latest session first, keeping the order of candidates of one session.
func latestFirst(run []Candidate, session func(id int64) (int, bool)) {
	var slots []int
	var in []Candidate
	for i, c := range run {
		if _, ok := session(c.ID); ok {
			slots, in = append(slots, i), append(in, c)
		}
	}
	slices.SortStableFunc(in, func(a, b Candidate) int {
		sa, _ := session(a.ID)
		sb, _ := session(b.ID)
		return sb - sa
	})
	for j, i := range slots {
		run[i] = in[j]
	}
}
