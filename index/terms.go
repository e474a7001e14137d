package index

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"sync"
)

// MatchBudget is how many paragraph matches the terms that choose which
// paragraphs are scored may add up to. FTS5 scores every paragraph that
// holds any term of its query, 1.5 to 4 µs each on a 2-core machine: a
// question with one word held by 200,000 paragraphs took 250 ms. The
// question's rarest terms, as many as fit in the budget, choose the
// paragraphs; the others still add to their scores but choose none.
// The dev sets (a few thousand paragraphs) stay within it, so their
// ranking is unchanged.
const MatchBudget = 4096

// bm25Plan says which FTS5 queries rank a question's paragraphs.
type bm25Plan struct {
	// match finds the paragraphs to score; without rescore, bm25 over it
	// is their score.
	match string
	// rescore, when set, is the other informative terms' query ANDed with
	// match: bm25 over it is the score of every informative term for the
	// paragraphs it finds; for the rest of match's, which hold none of the
	// other terms, bm25 over match is.
	rescore string
	// fromRowid, when above zero, keeps only the paragraphs from this
	// rowid on (the latest written): a question whose rarest term is over
	// the budget scores the latest MatchBudget paragraphs holding it.
	fromRowid int64
}

// termCounts caches how many paragraphs hold each term, for one state of
// the index.
type termCounts struct {
	mu sync.Mutex
	// state is FTS5's structure record, rewritten (its write counter
	// moves) at every write to the index: counts read under another state
	// are dropped.
	state      string
	paragraphs int64
	held       map[string]int64
}

// maxCachedTerms bounds the cache: past it, it starts again.
const maxCachedTerms = 1 << 14

// planBM25 chooses the queries for the analysed terms, reading the counts
// in db (the search's transaction). When every term fits in the budget
// the plan is the plain query of every term, the exact ranking.
func (ix *Index) planBM25(ctx context.Context, db queryer, terms []string) (bm25Plan, error) {
	query := MatchQuery(terms)
	var state string
	err := queryRow(ctx, db, `SELECT block FROM children_fts_data WHERE id = 10`).Scan(&state)
	if err != nil && err != sql.ErrNoRows {
		return bm25Plan{}, fmt.Errorf("planning %q: %w", query, err)
	}
	seen := map[string]bool{}
	var held []termHeld
	for _, t := range terms {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		n, err := ix.terms.count(ctx, db, state, t)
		if err != nil {
			return bm25Plan{}, fmt.Errorf("planning %q: %w", query, err)
		}
		// Held by no paragraph, a term adds nothing to any score.
		if n > 0 {
			held = append(held, termHeld{t, n})
		}
	}
	byHeld := append([]termHeld(nil), held...)
	sort.SliceStable(byHeld, func(i, j int) bool { return byHeld[i].n < byHeld[j].n })
	choose := map[string]bool{}
	sum := int64(0)
	for _, h := range byHeld {
		if sum+h.n > MatchBudget {
			break
		}
		sum += h.n
		choose[h.term] = true
	}
	if len(choose) == len(held) {
		return bm25Plan{match: query}, nil
	}
	paragraphs, err := ix.terms.total(ctx, db, state)
	if err != nil {
		return bm25Plan{}, fmt.Errorf("planning %q: %w", query, err)
	}
	var chosen, informative, others []string
	for _, h := range held {
		// FTS5's IDF, log((N - n + 0.5) / (n + 0.5)), is not above zero
		// for a term in half the paragraphs or more: bm25 then counts it
		// as 1e-6, nothing beside any other term, and reading its
		// paragraphs to weigh it would cost as much as the search.
		if choose[h.term] || 2*h.n < paragraphs {
			informative = append(informative, h.term)
		}
		if choose[h.term] {
			chosen = append(chosen, h.term)
		} else if 2*h.n < paragraphs {
			others = append(others, h.term)
		}
	}
	switch {
	case len(chosen) > 0 && len(others) == 0:
		return bm25Plan{match: MatchQuery(chosen)}, nil
	case len(chosen) > 0:
		return bm25Plan{match: MatchQuery(chosen), rescore: "(" + MatchQuery(others) + ") AND (" + MatchQuery(chosen) + ")"}, nil
	case len(informative) == 0:
		// Every term is in half the paragraphs or more: none tells one
		// paragraph from another.
		return bm25Plan{}, nil
	}
	// Even the rarest term is over the budget: it chooses its latest
	// MatchBudget paragraphs.
	var rarest string
	for _, h := range byHeld {
		if 2*h.n < paragraphs {
			rarest = h.term
			break
		}
	}
	var from int64
	err = queryRow(ctx, db, `SELECT rowid FROM children_fts WHERE children_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`,
		MatchQuery([]string{rarest}), MatchBudget-1).Scan(&from)
	if err != nil && err != sql.ErrNoRows {
		return bm25Plan{}, fmt.Errorf("planning %q: %w", query, err)
	}
	return bm25Plan{match: MatchQuery(informative), fromRowid: max(from, 1)}, nil
}

// termHeld is a term and how many paragraphs hold it.
type termHeld struct {
	term string
	n    int64
}

// count returns how many paragraphs hold term: exactly up to
// MatchBudget + 1, which reads at most that many entries, and then
// exactly, once per state of the index.
func (c *termCounts) count(ctx context.Context, db queryer, state, term string) (int64, error) {
	c.mu.Lock()
	n, ok := c.held[term]
	if c.state != state {
		ok = false
	}
	c.mu.Unlock()
	if ok {
		return n, nil
	}
	query := MatchQuery([]string{term})
	if err := queryRow(ctx, db, `SELECT count(*) FROM (SELECT 1 FROM children_fts WHERE children_fts MATCH ? LIMIT ?)`,
		query, MatchBudget+1).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting %q: %w", term, err)
	}
	if n > MatchBudget {
		if err := queryRow(ctx, db, `SELECT count(*) FROM children_fts WHERE children_fts MATCH ?`, query).Scan(&n); err != nil {
			return 0, fmt.Errorf("counting %q: %w", term, err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reset(state)
	c.held[term] = n
	return n, nil
}

// total returns how many paragraphs the index holds.
func (c *termCounts) total(ctx context.Context, db queryer, state string) (int64, error) {
	c.mu.Lock()
	n := c.paragraphs
	if c.state != state {
		n = 0
	}
	c.mu.Unlock()
	if n > 0 {
		return n, nil
	}
	if err := queryRow(ctx, db, `SELECT count(*) FROM children`).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting paragraphs: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reset(state)
	c.paragraphs = n
	return n, nil
}

// reset empties the cache when state is not its state, or when it is full.
// The caller holds c.mu.
func (c *termCounts) reset(state string) {
	if c.state != state || c.held == nil || len(c.held) >= maxCachedTerms {
		if c.state != state {
			c.paragraphs = 0
		}
		c.state = state
		c.held = map[string]int64{}
	}
}

// row is one result row, scanned later.
type row struct {
	rows *sql.Rows
	err  error
}

func (r row) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	return r.rows.Close()
}

// queryRow is QueryRowContext on a queryer.
func queryRow(ctx context.Context, db queryer, query string, args ...any) row {
	rows, err := db.QueryContext(ctx, query, args...)
	return row{rows: rows, err: err}
}

// TermCounts returns how many paragraphs hold each term and how many
// paragraphs there are: the statistics FTS5's bm25 weighs terms by, read
// through the same cache as [Index.SearchParagraphs]'s plan.
func (ix *Index) TermCounts(ctx context.Context, terms []string) ([]int64, int64, error) {
	tx, err := ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("counting terms: %w", err)
	}
	defer tx.Rollback()
	var state string
	err = queryRow(ctx, tx, `SELECT block FROM children_fts_data WHERE id = 10`).Scan(&state)
	if err != nil && err != sql.ErrNoRows {
		return nil, 0, fmt.Errorf("counting terms: %w", err)
	}
	held := make([]int64, len(terms))
	for i, t := range terms {
		if t == "" {
			continue
		}
		if held[i], err = ix.terms.count(ctx, tx, state, t); err != nil {
			return nil, 0, err
		}
	}
	total, err := ix.terms.total(ctx, tx, state)
	if err != nil {
		return nil, 0, err
	}
	return held, total, nil
}
