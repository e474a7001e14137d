// Package fuse merges the ranked lists of several retrieval paths into one
// by reciprocal rank fusion: only positions count, never the paths' scores,
// which are not comparable (a cosine, a BM25 score, a mention count).
// [Combine] is a search's whole ranking: fusion, the narrative prior and
// the entity path's reordering, with the constants measured for them.
package fuse

import (
	"slices"
	"sort"
)

// DefaultK is the RRF constant from the design (seed 000): 60.
const DefaultK = 60

// MaxCandidates is how many fused candidates go on to reranking.
const MaxCandidates = 40

// List is one path's results, best first.
type List struct {
	Path string
	IDs  []int64
	// Scores are the path's own scores, parallel to IDs, when it has
	// them (RRF does not read them; Reorder does).
	Scores []float64
	// Weight multiplies the list's contributions, 1/(k + rank); 0 means 1.
	// A weight low enough (below k/(k + depth)) makes the list reorder
	// what the others found rather than add candidates before theirs.
	Weight float64
}

// Candidate is one fused result.
type Candidate struct {
	ID int64
	// Score is Σ weight/(k + rank) over the paths that found the candidate.
	Score float64
	// Ranks maps each path that found the candidate to its 1-based rank there.
	Ranks map[string]int
	// Explanation says how the fusion arrived at Score.
	Explanation
}

// Explanation is how a candidate's score was made, recorded by the
// functions that made it (in the manner of bleve's fusion/rrf.go): what
// each path contributed, the factor [Boost] applied, and what [Reorder]
// did. Before Reorder, Score is the sum of the Parts' scores times Boost
// (when Boost is not 0); after it, Score is Share + Lift.
type Explanation struct {
	// Parts are the contributions of the paths fused, one per path that
	// found the candidate, in the order of the lists.
	Parts []Part
	// Boost is the factor [Boost] multiplied the score by; 0 when it did not.
	Boost float64
	// ReorderedBy names the list [Reorder] reordered the candidates by
	// ("" when it did not); Share is then the score the candidate had
	// before, as a share of the best one, and Lift what that list added.
	ReorderedBy string
	Share       float64
	Lift        float64
}

// Part is what one path contributed to a candidate's score.
type Part struct {
	Path string
	// Rank is the candidate's 1-based rank in the path.
	Rank int
	// K is the rank constant when Score is Weight/(K + Rank); 0 when
	// Score is the path's own score (see [Single]).
	K      int
	Weight float64
	Score  float64
}

// Total is the sum of the parts' scores: the candidate's score before
// [Boost] and [Reorder].
func (x Explanation) Total() float64 {
	t := 0.0
	for _, p := range x.Parts {
		t += p.Score
	}
	return t
}

// RRF fuses the lists with constant k (DefaultK when k <= 0) and returns at
// most limit candidates (all when limit <= 0), best first. Ties go to the
// candidate found by more paths, then to the better best rank, then to the
// smaller id, so the order is deterministic. An empty list contributes
// nothing; an id repeated within one list counts at its first rank only.
func RRF(lists []List, k, limit int) []Candidate {
	if k <= 0 {
		k = DefaultK
	}
	byID := map[int64]*Candidate{}
	var order []*Candidate
	for _, l := range lists {
		for i, id := range l.IDs {
			c, ok := byID[id]
			if !ok {
				c = &Candidate{ID: id, Ranks: map[string]int{}}
				byID[id] = c
				order = append(order, c)
			}
			if _, seen := c.Ranks[l.Path]; seen {
				continue
			}
			c.Ranks[l.Path] = i + 1
			w := l.Weight
			if w == 0 {
				w = 1
			}
			part := Part{Path: l.Path, Rank: i + 1, K: k, Weight: w, Score: w / float64(k+i+1)}
			c.Parts = append(c.Parts, part)
			c.Score += part.Score
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if len(a.Ranks) != len(b.Ranks) {
			return len(a.Ranks) > len(b.Ranks)
		}
		if ba, bb := bestRank(a), bestRank(b); ba != bb {
			return ba < bb
		}
		return a.ID < b.ID
	})
	if limit > 0 && len(order) > limit {
		order = order[:limit]
	}
	out := make([]Candidate, len(order))
	for i, c := range order {
		out[i] = *c
	}
	return out
}

func bestRank(c *Candidate) int {
	best := 1 << 30
	for _, r := range c.Ranks {
		best = min(best, r)
	}
	return best
}

// Single ranks one path's list by its own scores, which say more than
// 1/(k + rank) when there is nothing to fuse. The path's order is kept
// (BM25's later tiers follow its first whatever their scores): a score
// never exceeds the one before it.
func Single(l List) []Candidate {
	out := make([]Candidate, len(l.IDs))
	for i, id := range l.IDs {
		score := 0.0
		if i < len(l.Scores) {
			score = l.Scores[i]
		}
		if i > 0 {
			score = min(score, out[i-1].Score)
		}
		out[i] = Candidate{ID: id, Score: score, Ranks: map[string]int{l.Path: i + 1},
			Explanation: Explanation{Parts: []Part{{Path: l.Path, Rank: i + 1, Weight: 1, Score: score}}}}
	}
	return out
}

// ByRank returns one path's candidates, as [Single] ranks them, scored
// by rank as RRF scores them: the i-th gets 1/(k + i) (k is DefaultK when
// k <= 0), so that a [Boost] acts on them as it does on a fusion.
func ByRank(cands []Candidate, k int) []Candidate {
	if k <= 0 {
		k = DefaultK
	}
	out := make([]Candidate, len(cands))
	for i, c := range cands {
		c.Score = 1 / float64(k+i+1)
		part := Part{Rank: i + 1, K: k, Weight: 1, Score: c.Score}
		if len(c.Parts) > 0 {
			part.Path = c.Parts[0].Path
		}
		c.Parts = []Part{part}
		out[i] = c
	}
	return out
}

// Boost returns the candidates with the score of those boosted says yes
// to multiplied by factor, best first (ties keep their order).
func Boost(cands []Candidate, factor float64, boosted func(id int64) bool) []Candidate {
	out := slices.Clone(cands)
	for i := range out {
		if boosted(out[i].ID) {
			out[i].Score *= factor
			out[i].Boost = factor
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}
