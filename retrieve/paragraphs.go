package retrieve

import (
	"context"
	"fmt"
	"sort"

	"github.com/oraculo/oraculo/store"
)

// DefaultSiblingWeight: a chunk where several paragraphs match (a session
// that tells the event over several paragraphs) gains on one where a
// single short paragraph does (a note that only names it). Measured with
// the ranking baseline: on the sample campaign BM25 MRR@50 0.512 → 0.586
// (0.2 and 0.5 gave 0.579 and 0.582; 1.0 cost Recall@8), on XQuAD-es
// 0.969 → 0.968 (one question).
const DefaultSiblingWeight = 0.3

// Siblings is how many of a chunk's other matching paragraphs, its best
// ones, add to its score: a long chunk must not win on many weak matches
// of a common word (Quijote's chapter 6 won five questions so). Per note,
// BM25 + entity, Recall@1 / MRR@50 on the sample, XQuAD and Quijote
// (BENCHMARKS.md): every sibling .464/.653, .981/.985, .605/.756; the
// best 1: .429/.627, .986/.990, .737/.817; 2: .446/.638, .981/.986,
// .711/.811; 4: .464/.647, .981/.985, .711/.809; 6: .446/.641, .981/.985,
// .658/.783. Four keeps the sample and XQuAD where every sibling had them
// and gains Quijote a tenth.
const Siblings = 4

// BM25Pool is how many best paragraphs the keyword path scores first,
// whatever the number of chunks asked for, so that a chunk's rank never
// depends on n; a chunk's other matching paragraphs add to its score
// only when they are among them. While every sibling counted, the pool
// decided how much a long chunk gained from many weak matches (Quijote
// Recall@1 0.68 at 24 paragraphs, 0.58 at 80, 0.32 at 336); with only
// the best Siblings counted it hardly matters. 80 is the per-path depth.
const BM25Pool = 80

// SearchBM25 ranks the store's paragraphs by BM25 against the analysed
// terms and returns up to n distinct parent chunks, each once
// (small-to-big): see [RankParagraphs].
func SearchBM25(ctx context.Context, s store.KeywordSearcher, terms []string, n int, opts store.BM25Options) ([]store.Match, error) {
	if n <= 0 {
		return nil, nil
	}
	ps, err := s.SearchParagraphs(ctx, terms, opts)
	if err != nil {
		return nil, err
	}
	defer ps.Close()
	return RankParagraphs(ctx, ps, n, opts.SiblingWeight)
}

// RankParagraphs returns up to n distinct parent chunks of a search's
// paragraphs, each once, scored by their best paragraph plus
// siblingWeight (0: [DefaultSiblingWeight]; negative: none) times the
// scores of their best [Siblings] other matching ones, with that best
// paragraph as the match's passage. Paragraphs that do not match are
// dropped before the jump to their parent.
//
// The order does not depend on n: the parents of the best [BM25Pool]
// paragraphs come first, ranked over that pool; when they are fewer than
// n, the pool grows four times at a time and the parents it adds follow,
// ranked over the larger pool. So the first n of a search are the first
// n of any longer one.
func RankParagraphs(ctx context.Context, ps store.Paragraphs, n int, siblingWeight float64) ([]store.Match, error) {
	switch {
	case siblingWeight == 0:
		siblingWeight = DefaultSiblingWeight
	case siblingWeight < 0:
		siblingWeight = 0
	}
	order, best, err := pooledParents(ctx, ps, n, siblingWeight)
	if err != nil {
		return nil, err
	}
	chunks, err := ps.Chunks(ctx, order)
	if err != nil {
		return nil, err
	}
	matches := make([]store.Match, 0, len(order))
	for _, id := range order {
		c, ok := chunks[id]
		if !ok {
			return nil, fmt.Errorf("%w: chunk %d", store.ErrMissingParent, id)
		}
		b := best[id]
		m := store.Match{Chunk: c, Score: b.score, Child: b.child}
		if s, e := b.start-c.ByteStart, b.end-c.ByteStart; 0 <= s && s <= e && e <= len(c.Text) {
			m.Passage = c.Text[s:e]
		}
		matches = append(matches, m)
	}
	return matches, nil
}

// pooledParents returns up to n parent chunks of the search's paragraphs
// in rank order, pool after pool (see [RankParagraphs]), with each one's
// best paragraph.
func pooledParents(ctx context.Context, ps store.Paragraphs, n int, sibling float64) ([]int64, map[int64]bestChild, error) {
	var order []int64
	best := map[int64]bestChild{}
	for limit := BM25Pool; ; limit *= 4 {
		found, err := ps.Top(ctx, limit)
		if err != nil {
			return nil, nil, err
		}
		tier, scored := bestParents(found, sibling)
		for _, id := range tier {
			if _, ok := best[id]; !ok {
				order = append(order, id)
				best[id] = scored[id]
			}
		}
		if len(order) >= n || len(found) < limit {
			break
		}
	}
	if len(order) > n {
		order = order[:n]
	}
	return order, best, nil
}

// bestChild is a parent's best paragraph and the scores of its best
// others.
type bestChild struct {
	score      float64
	child      int
	start, end int
	// next holds the scores of the parent's best other matching
	// paragraphs (at most Siblings), best first.
	next [Siblings]float64
}

// rest sums the scores of the best other matching paragraphs.
func (b bestChild) rest() float64 {
	sum := 0.0
	for _, s := range b.next {
		sum += s
	}
	return sum
}

// bestParents returns the parents of found (best first) in rank order and
// each one's best paragraph, with sibling times its best others' scores
// added.
func bestParents(found []store.Paragraph, sibling float64) ([]int64, map[int64]bestChild) {
	var order []int64
	best := make(map[int64]bestChild)
	for _, p := range found {
		if p.Score <= 0 {
			continue
		}
		if b, ok := best[p.ChunkID]; ok {
			// Paragraphs come best first: the first Siblings others are
			// the best.
			for i := range b.next {
				if b.next[i] == 0 {
					b.next[i] = p.Score
					break
				}
			}
			best[p.ChunkID] = b
			continue
		}
		order = append(order, p.ChunkID)
		best[p.ChunkID] = bestChild{score: p.Score, child: p.Ordinal, start: p.ByteStart, end: p.ByteEnd}
	}
	if sibling > 0 {
		for id, b := range best {
			b.score += sibling * b.rest()
			best[id] = b
		}
		sort.SliceStable(order, func(i, j int) bool { return best[order[i]].score > best[order[j]].score })
	}
	return order, best
}
