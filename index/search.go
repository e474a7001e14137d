package index

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
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

// DefaultHeadingWeight is the weight of the heading path against the body.
const DefaultHeadingWeight = 1.0

// MatchQuery builds the FTS5 query for analysed terms: any term may match.
// It returns "" when there is nothing to search for.
func MatchQuery(terms []string) string {
	seen := make(map[string]bool, len(terms))
	var b strings.Builder
	for _, t := range terms {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		if b.Len() > 0 {
			b.WriteString(" OR ")
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(t, `"`, `""`))
		b.WriteByte('"')
	}
	return b.String()
}

// BM25Pool is how many best paragraphs the keyword path scores first,
// whatever the number of chunks asked for, so that a chunk's rank never
// depends on n; a chunk's other matching paragraphs add to its score
// only when they are among them. While every sibling counted, the pool
// decided how much a long chunk gained from many weak matches (Quijote
// Recall@1 0.68 at 24 paragraphs, 0.58 at 80, 0.32 at 336); with only
// the best Siblings counted it hardly matters. 80 is the per-path depth.
const BM25Pool = 80

// SearchBM25 ranks paragraphs by BM25 against the analysed terms and returns
// up to n distinct parent chunks, each once (small-to-big), scored by their
// best paragraph plus a share of their other matching ones. Paragraphs with
// a zero score are dropped before the jump to their parent; a paragraph
// whose parent is missing is an error.
//
// The order does not depend on n: the parents of the best BM25Pool
// paragraphs come first, ranked over that pool; when they are fewer than
// n, the pool grows four times at a time and the parents it adds follow,
// ranked over the larger pool. So the first n of a search are the first n
// of any longer one.
func (ix *Index) SearchBM25(ctx context.Context, terms []string, n int, opts BM25Options) ([]Match, error) {
	query := MatchQuery(terms)
	if query == "" || n <= 0 {
		return nil, nil
	}
	hw := opts.HeadingWeight
	if hw == 0 {
		hw = DefaultHeadingWeight
	}
	sibling := opts.SiblingWeight
	switch {
	case sibling == 0:
		sibling = DefaultSiblingWeight
	case sibling < 0:
		sibling = 0
	}
	// One read transaction: the paragraphs found and their chunks come
	// from the same state of the index, whatever an ingest writes meanwhile
	// (a paragraph's chunk read apart could be gone, replaced by a new one).
	// Read-only, it is a plain BEGIN: it takes no write lock (the index's
	// other transactions begin IMMEDIATE), so searches never queue an
	// ingest's writes behind them.
	tx, err := ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("searching %q: %w", query, err)
	}
	defer tx.Rollback()
	var order []int64
	best := map[int64]bestChild{}
	for limit := BM25Pool; ; limit *= 4 {
		tier, scored, rows, err := bestParents(ctx, tx, query, hw, sibling, limit, opts.Public, opts.Filter)
		if err != nil {
			return nil, err
		}
		for _, id := range tier {
			if _, ok := best[id]; !ok {
				order = append(order, id)
				best[id] = scored[id]
			}
		}
		if len(order) >= n || rows < limit {
			break
		}
	}
	if len(order) > n {
		order = order[:n]
	}
	chunks, err := chunksByID(ctx, tx, order)
	if err != nil {
		return nil, err
	}
	matches := make([]Match, 0, len(order))
	for _, id := range order {
		c, ok := chunks[id]
		if !ok {
			return nil, fmt.Errorf("%w: chunk %d", ErrMissingParent, id)
		}
		b := best[id]
		m := Match{Chunk: c, Score: b.score, Child: b.child}
		if s, e := b.start-c.ByteStart, b.end-c.ByteStart; 0 <= s && s <= e && e <= len(c.Text) {
			m.Passage = c.Text[s:e]
		}
		matches = append(matches, m)
	}
	return matches, nil
}

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

// notHidden leaves the paragraphs of notes players may not see out of an
// FTS5 query on children_fts.
const notHidden = ` AND rowid NOT IN (SELECT c.id FROM children c JOIN chunks k ON k.id = c.chunk_id
	JOIN documents d ON d.id = k.doc_id WHERE d.restricted != 0)`

// bestParents returns the parent ids of the best limit paragraphs in rank
// order, each parent's best child, and how many paragraph rows the query
// returned.
func bestParents(ctx context.Context, db queryer, query string, hw, sibling float64, limit int, public bool, f Filter) ([]int64, map[int64]bestChild, int, error) {
	filter := ""
	var args []any
	if public {
		filter = notHidden
	}
	if !f.IsZero() {
		cond, fargs := filterWhere(f)
		filter += ` AND rowid IN (SELECT c.id FROM children c JOIN chunks k ON k.id = c.chunk_id
			JOIN documents d ON d.id = k.doc_id WHERE ` + cond + `)`
		args = fargs
	}
	rows, err := db.QueryContext(ctx, `SELECT m.id, m.score, c.chunk_id, c.ordinal, c.byte_start, c.byte_end, k.id
		FROM (SELECT rowid AS id, bm25(children_fts, ?, 1.0) AS score
		      FROM children_fts WHERE children_fts MATCH ?`+filter+` ORDER BY score LIMIT ?) m
		LEFT JOIN children c ON c.id = m.id
		LEFT JOIN chunks k ON k.id = c.chunk_id
		ORDER BY m.score, m.id`, append(append([]any{hw, query}, args...), limit)...)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("searching %q: %w", query, err)
	}
	defer rows.Close()
	var order []int64
	best := make(map[int64]bestChild)
	count := 0
	for rows.Next() {
		count++
		var childID int64
		var score float64
		var chunkID, ordinal, start, end, parentID *int64
		if err := rows.Scan(&childID, &score, &chunkID, &ordinal, &start, &end, &parentID); err != nil {
			return nil, nil, 0, fmt.Errorf("searching %q: %w", query, err)
		}
		// FTS5's bm25 is negative, better is lower; zero means no real match.
		if score >= 0 {
			continue
		}
		if chunkID == nil || parentID == nil {
			return nil, nil, 0, fmt.Errorf("%w: paragraph %d", ErrMissingParent, childID)
		}
		if b, ok := best[*chunkID]; ok {
			// Rows come best first: the first Siblings others are the best.
			for i := range b.next {
				if b.next[i] == 0 {
					b.next[i] = -score
					break
				}
			}
			best[*chunkID] = b
			continue
		}
		order = append(order, *chunkID)
		best[*chunkID] = bestChild{score: -score, child: int(*ordinal), start: int(*start), end: int(*end)}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, 0, fmt.Errorf("searching %q: %w", query, err)
	}
	if sibling > 0 {
		for id, b := range best {
			b.score += sibling * b.rest()
			best[id] = b
		}
		sort.SliceStable(order, func(i, j int) bool { return best[order[i]].score > best[order[j]].score })
	}
	return order, best, count, nil
}

// TermUsed reports whether an analysed term occurs in any paragraph (of a
// note players may see, when public).
func (ix *Index) TermUsed(ctx context.Context, term string, public bool) (bool, error) {
	query := MatchQuery([]string{term})
	if query == "" {
		return false, nil
	}
	filter := ""
	if public {
		filter = notHidden
	}
	var one int
	err := ix.db.QueryRowContext(ctx, `SELECT 1 FROM children_fts WHERE children_fts MATCH ?`+filter+` LIMIT 1`, query).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("looking up %q: %w", term, err)
	}
	return true, nil
}
