package retrieve

import (
	"context"
	"math"
	"slices"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/store"
)

// CoverageWeight is how much the share of the question a chunk's best
// paragraph holds weighs on its keyword score: the score is multiplied by
// that share, each term weighted by its IDF, to this power. BM25 sums
// what each term adds, so a paragraph can win on a few terms repeated
// (a note that keeps naming "sociedad", "tóxico") over the paragraph that
// holds the question's other words too ("consejo de vigilancia", "polvos
// químicos", "comandita"). Measured on the five dev sets, one slot per
// note, default search, questions won/lost at Recall@1 against main
// (pooled): 0.25 → 9/2, 0.5 → 12/2 (Quijote multi coverage@8 .802 →
// .771), 0.65 → 16/3, 0.75 → 16/3, 0.85 → 16/3, 1 → 16/7. The share of
// the best paragraph and its best siblings together, at 0.5 and 1: 6/2
// and 10/8; terms unweighted: 12/6; IDF read from the candidates
// themselves: 16/6.
const CoverageWeight = 0.75

// CoverageBlock is how many chunks of the store's order are reordered
// among themselves by coverage: the first block, then the next, so that
// the first n of a search are the first n of any longer one, as the
// store's own order is.
const CoverageBlock = FixedDepth

// minCoverage keeps a score positive when a best paragraph holds none of
// the question's weighted terms (a term matched through another
// analyser's form).
const minCoverage = 0.01

// match is a store's match with the coverage the path measured.
type match struct {
	store.Match
	coverage float64
}

// matchesOf wraps a store's matches, their coverage unmeasured.
func matchesOf(ms []store.Match) []match {
	out := make([]match, len(ms))
	for i, m := range ms {
		out[i].Match = m
	}
	return out
}

// fetchFor is how many chunks to ask the store for, n wanted: whole
// blocks.
func fetchFor(n int) int {
	if n <= 0 {
		return n
	}
	return (n + CoverageBlock - 1) / CoverageBlock * CoverageBlock
}

// termWeight is one distinct term of the question and its IDF.
type termWeight struct {
	term   string
	weight float64
}

// termWeights returns the IDF of each distinct term some paragraph holds,
// in the question's order, as Weaviate's BM25 computes it: log(1 + (N − n
// + 0.5) / (n + 0.5)), never zero. The order is fixed so that the sums
// over them, hence the scores, are the same at every run: summed in a
// map's order, two hits of equal score could swap places between runs.
func termWeights(ctx context.Context, tc store.TermCounter, terms []string) ([]termWeight, error) {
	var distinct []string
	seen := map[string]bool{}
	for _, t := range terms {
		if t != "" && !seen[t] {
			seen[t] = true
			distinct = append(distinct, t)
		}
	}
	held, total, err := tc.TermCounts(ctx, distinct)
	if err != nil {
		return nil, err
	}
	w := make([]termWeight, 0, len(distinct))
	for i, t := range distinct {
		if n := float64(held[i]); n > 0 {
			w = append(w, termWeight{t, math.Log(1 + (float64(total)-n+0.5)/(n+0.5))})
		}
	}
	return w, nil
}

// cover multiplies each match's score by the weighted share of the
// question's terms its best paragraph (with the chunk's heading terms, as
// the store indexes them) holds, to the power CoverageWeight, and
// reorders each block of CoverageBlock matches by the new scores. Scores
// are then kept from rising across a block's edge, so that the list is
// ordered by score, as a merge of several lists needs.
func cover(ctx context.Context, tc store.TermCounter, ans []*analysis.Analyzer, terms []string, ms []store.Match) ([]match, error) {
	out := matchesOf(ms)
	if len(ms) == 0 {
		return out, nil
	}
	w, err := termWeights(ctx, tc, terms)
	if err != nil {
		return nil, err
	}
	all := 0.0
	for _, tw := range w {
		all += tw.weight
	}
	if all == 0 {
		return out, nil
	}
	sets := make([][]string, 0, 2*len(ans))
	for i := range out {
		sets = sets[:0]
		for _, an := range ans {
			sets = append(sets, coverageTerms.passage(an, out[i].Passage),
				coverageTerms.heading(an, out[i].Chunk.Path, out[i].Chunk.Headings))
		}
		share := 0.0
		for _, tw := range w {
			if anyHolds(sets, tw.term) {
				share += tw.weight
			}
		}
		out[i].coverage = share / all
		out[i].Score *= math.Pow(max(out[i].coverage, minCoverage), CoverageWeight)
	}
	for from := 0; from < len(out); from += CoverageBlock {
		block := out[from:min(from+CoverageBlock, len(out))]
		sortByScore(block)
		if from > 0 && block[0].Score > out[from-1].Score {
			for i := range block {
				block[i].Score = min(block[i].Score, out[from-1].Score)
			}
		}
	}
	return out, nil
}

// anyHolds reports whether any of sets holds term.
func anyHolds(sets [][]string, term string) bool {
	for _, s := range sets {
		if holds(s, term) {
			return true
		}
	}
	return false
}

// sortByScore orders matches best first; equal scores keep their order.
func sortByScore(ms []match) {
	slices.SortStableFunc(ms, func(a, b match) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
}
