package fuse

import "sort"

// Reorder lets one list's evidence reorder base candidates without
// overturning a clear lead: each base candidate's score becomes its
// share of the best base score plus margin times its share of the best
// score in l,
//
//	score/top + margin × s/sTop
//
// so a candidate l ranks first gains at most margin: it passes one that
// scored ahead of it in the base only when that one's lead is smaller.
// Candidates only l found follow every base candidate, in l's order.
// Scores are l's own, parallel to l.IDs; l.Weight is not used. The
// result is sorted best first (ties keep the base order) and cut to limit
// (all when limit <= 0); each candidate's Ranks gains l.Path, and its
// Explanation records the share it started from and its lift.
func Reorder(base []Candidate, l List, scores []float64, margin float64, limit int) []Candidate {
	top := 0.0
	for _, c := range base {
		top = max(top, c.Score)
	}
	sTop := 0.0
	for _, s := range scores {
		sTop = max(sTop, s)
	}
	share := func(i int) float64 {
		if sTop <= 0 || i >= len(scores) || scores[i] <= 0 {
			return 0
		}
		return scores[i] / sTop
	}
	out := make([]Candidate, len(base), len(base)+len(l.IDs))
	at := make(map[int64]int, len(base))
	for i, c := range base {
		ranks := make(map[string]int, len(c.Ranks)+1)
		for p, r := range c.Ranks {
			ranks[p] = r
		}
		c.Ranks = ranks
		if top > 0 {
			c.Score /= top
		}
		c.ReorderedBy, c.Share = l.Path, c.Score
		out[i] = c
		at[c.ID] = i
	}
	var extra []Candidate
	seen := map[int64]bool{}
	for i, id := range l.IDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		if j, ok := at[id]; ok {
			out[j].Ranks[l.Path] = i + 1
			out[j].Lift = margin * share(i)
			out[j].Score += out[j].Lift
			continue
		}
		lift := margin * share(i)
		extra = append(extra, Candidate{ID: id, Score: lift, Ranks: map[string]int{l.Path: i + 1},
			Explanation: Explanation{ReorderedBy: l.Path, Lift: lift}})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	out = append(out, extra...)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}
