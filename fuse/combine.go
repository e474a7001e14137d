package fuse

// NarrativeBoost is the narrative prior: when a question speaks in the
// first person plural ("¿quién nos dio el mapa?", "¿qué encontramos?"),
// it asks what the party lived, which the session notes tell, so the
// fused score of every chunk inside a session is multiplied by
// 1 + NarrativeBoost. Measured on the sample campaign (23 of 56 questions
// are narrative; XQuAD has no sessions and does not move): BM25 + entity
// Recall@1 0.375 → 0.500, MRR@50 0.585 → 0.665, Recall@8 unchanged;
// BM25 alone (score space) Recall@1 0.357 → 0.464 at 0.5 (0.393 at 0.25).
// It multiplies reciprocal-rank scores, 1/(60 + rank), with one path as
// with several (issue 27): on BM25's own scores the default path lost
// sample answers' cited recall (0.516 → 0.434, the extractive answer
// citing a character's note over the session) and two jacoblezberg
// questions at Recall@1; on ranks, BM25 alone gains them (five dev sets,
// one slot per note: 5 won, 0 lost at Recall@1).
const NarrativeBoost = 0.5

// EntityMargin is how far the entity path may lift a chunk for a lookup
// question: by at most this share of the best base score (see
// [Reorder]), a tie-break among chunks BM25 scored within a tenth of
// each other; never over a clear lead. In reciprocal rank fusion at weight
// 0.25 (before issue 27) it lifted BM25's 4th to 20th over its first when
// they named the question's entity: on the five dev sets it lost 9
// questions at Recall@1 for 5 won, a name used as a common word
// ("Definición", "Estados Unidos") costing the top rank. Measured with BM25
// (pooled over the five sets, questions won/lost at Recall@1 against BM25
// alone): 0 → 0/0, 0.05 → 0/0, 0.1 → 0/0 with MRR@50 and multi-source
// coverage@8 up, 0.2 → 1/2, 0.3 → 2/3.
const EntityMargin = 0.1

// ArcEntityMargin is EntityMargin for an arc question (someone's role or
// history over the campaign): such a question is about the entities it
// names, so their evidence weighs as much as BM25's. Measured as
// EntityMargin: 0.2 → 0/0, 0.3 and 0.5 → 1/0, 1 → 2/0.
const ArcEntityMargin = 1.0

// Ranking says how [Combine] ranks the paths' lists.
type Ranking struct {
	// Reorderer names the list that reorders the others' candidates
	// rather than adding its own (the entity path's).
	Reorderer string
	// Narrative applies the narrative prior (see NarrativeBoost) to the
	// candidates InSession says yes to.
	Narrative bool
	InSession func(id int64) bool
	// Arc reorders within ArcEntityMargin rather than EntityMargin.
	Arc bool
	// Limit is how many candidates are kept (all when <= 0).
	Limit int
}

// Combine ranks what the paths found. The lists other than the
// reorderer's are the base: one list keeps its own scores (they say more
// than 1/(60+rank)), several are fused by reciprocal rank; the narrative
// prior multiplies the base score of session chunks. The reorderer's list
// then reorders the base within EntityMargin (see [Reorder]): it lifts a
// candidate that names the question's entities over one whose base lead
// is smaller than that, never over a clear lead, and what only it found
// comes after. Alone, the reorderer's list is the base.
func Combine(lists []List, r Ranking) []Candidate {
	base, reorderer := r.split(lists)
	var cands []Candidate
	if len(base) == 1 {
		cands = Single(base[0])
	} else {
		cands = RRF(base, DefaultK, 0)
	}
	if r.Narrative && len(base) == 1 {
		// The prior acts on ranks, as it does on a fusion of several
		// paths: a session chunk BM25 ranks within the first thirty or so
		// comes before a note outside sessions. On BM25's scores it moved
		// only near-ties, and a first-person-plural question was answered
		// from a character's or the DM's note over the session that
		// tells it (see NarrativeBoost).
		cands = ByRank(cands, DefaultK)
	}
	if r.Narrative {
		cands = Boost(cands, 1+NarrativeBoost, r.InSession)
	}
	if reorderer != nil {
		cands = Reorder(cands, *reorderer, reorderer.Scores, r.margin(len(base), cands), 0)
	}
	if r.Limit > 0 && len(cands) > r.Limit {
		cands = cands[:r.Limit]
	}
	return cands
}

// split returns the base lists and the reorderer's, nil when it found
// nothing (the question names no entity: the base's scores stand).
func (r Ranking) split(lists []List) ([]List, *List) {
	var base []List
	var reorderer *List
	for i := range lists {
		switch {
		case lists[i].Path != r.Reorderer || len(lists) == 1:
			base = append(base, lists[i])
		case len(lists[i].IDs) > 0:
			reorderer = &lists[i]
		}
	}
	return base, reorderer
}

// margin is how far the reorderer may lift a candidate of cands, fused
// from base lists.
func (r Ranking) margin(base int, cands []Candidate) float64 {
	margin := EntityMargin
	if r.Arc {
		margin = ArcEntityMargin
	}
	if base > 1 && len(cands) > 0 && cands[0].Score > 0 {
		// Fused by rank, the base's scores lie close together (a
		// chunk first in one path and fifth in the other is within 5%
		// of one first in both): the margin is then a share of what
		// one path's first rank is worth, 1/(k+1).
		margin *= 1 / float64(DefaultK+1) / cands[0].Score
	}
	return margin
}
