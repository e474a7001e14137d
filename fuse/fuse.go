// Package fuse merges the ranked lists of several retrieval paths into one
// by reciprocal rank fusion: only positions count, never the paths' scores,
// which are not comparable (a cosine, a BM25 score, a mention count).
package fuse

import "sort"

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
	// Lift is what [Reorder] added to Score (0 from RRF).
	Lift float64
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
			c.Score += w / float64(k+i+1)
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
