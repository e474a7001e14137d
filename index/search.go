package index

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/oraculo/oraculo/store"
)

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

// SearchParagraphs implements [store.KeywordSearcher]: FTS5's bm25 over
// the paragraphs, negated (higher is better), ties by row id.
//
// Which paragraphs are scored follows [MatchBudget]: the question's
// rarest terms choose them, every term that tells paragraphs apart scores
// them. A question whose every term is in half the paragraphs or more
// scores none.
//
// The search is one read transaction: the paragraphs found and their
// chunks come from the same state of the index, whatever an ingest writes
// meanwhile (a paragraph's chunk read apart could be gone, replaced by a
// new one). Read-only, it is a plain BEGIN: it takes no write lock (the
// index's other transactions begin IMMEDIATE), so searches never queue an
// ingest's writes behind them.
func (ix *Index) SearchParagraphs(ctx context.Context, terms []string, opts store.BM25Options) (store.Paragraphs, error) {
	query := MatchQuery(terms)
	if query == "" {
		return noParagraphs{}, nil
	}
	hw := opts.HeadingWeight
	if hw == 0 {
		hw = store.DefaultHeadingWeight
	}
	tx, err := ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("searching %q: %w", query, err)
	}
	plan, err := ix.planBM25(ctx, tx, terms)
	if err != nil || plan.match == "" {
		tx.Rollback()
		if err != nil {
			return nil, err
		}
		return noParagraphs{}, nil
	}
	few, err := fewNotesIn(ctx, tx, opts.Lang)
	if err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("searching %q: %w", query, err)
	}
	pool := newParagraphPool(tx, plan, hw, opts.Public, opts.Filter).inLang(opts.Lang, few)
	return &paragraphSearch{db: tx, pool: pool, close: tx.Rollback}, nil
}

// noParagraphs is a search that scores nothing.
type noParagraphs struct{}

func (noParagraphs) Top(context.Context, int) ([]store.Paragraph, error) { return nil, nil }
func (noParagraphs) Chunks(context.Context, []int64) (map[int64]store.Chunk, error) {
	return map[int64]store.Chunk{}, nil
}
func (noParagraphs) Close() error { return nil }

// paragraphSearch is [store.Paragraphs] over a pool, its chunks read
// through db (the search's transaction).
type paragraphSearch struct {
	db    queryer
	pool  *paragraphPool
	close func() error
}

// Top implements [store.Paragraphs].
func (s *paragraphSearch) Top(ctx context.Context, limit int) ([]store.Paragraph, error) {
	found, err := s.pool.top(ctx, limit)
	if err != nil {
		return nil, err
	}
	out := make([]store.Paragraph, len(found))
	for i, p := range found {
		// FTS5's bm25 is negative, better is lower; zero means no real
		// match, and such a paragraph is never jumped from.
		out[i].Score = -p.score
		if p.score >= 0 {
			continue
		}
		if p.chunkID == nil || p.parentID == nil {
			return nil, fmt.Errorf("%w: paragraph %d", store.ErrMissingParent, p.id)
		}
		out[i].ChunkID, out[i].Ordinal, out[i].ByteStart, out[i].ByteEnd = *p.chunkID, int(*p.ordinal), int(*p.start), int(*p.end)
	}
	return out, nil
}

// Chunks implements [store.Paragraphs].
func (s *paragraphSearch) Chunks(ctx context.Context, ids []int64) (map[int64]store.Chunk, error) {
	return chunksByID(ctx, s.db, ids)
}

// Close implements [store.Paragraphs].
func (s *paragraphSearch) Close() error { return s.close() }

// notHidden leaves the paragraphs of notes players may not see out of an
// FTS5 query on children_fts.
//
// The joins are in a fixed order (CROSS JOIN): from the DM-only notes,
// few, to their paragraphs through the indexes. Left to choose, SQLite
// scanned every paragraph of the index for every player's query (at 10k
// chunks, a player's BM25 search took 23.6 ms at the median against the
// DM's 2.2 ms).
const notHidden = ` AND rowid NOT IN (SELECT c.id FROM documents d CROSS JOIN chunks k ON k.doc_id = d.id
	CROSS JOIN children c ON c.chunk_id = k.id WHERE d.restricted != 0)`

// paragraph is one scored paragraph and where it sits; the pointers are
// nil when its rows are missing.
type paragraph struct {
	id                           int64
	score                        float64
	chunkID, ordinal, start, end *int64
	parentID                     *int64
}

// paragraphPool is one search's scored paragraphs, best first. The pool's
// tiers are its prefixes: a search scores its paragraphs once, whatever
// the number of tiers (before, each tier ran the whole scoring again: at
// 100k chunks most questions needed a second tier, 80 paragraphs holding
// fewer than 80 chunks).
type paragraphPool struct {
	db     queryer
	plan   bm25Plan
	hw     float64
	filter string
	args   []any
	// found holds the best paragraphs, best first (by score, then id);
	// complete, that it holds every one the plan scores.
	found    []paragraph
	complete bool
	// resolved is how many of found have their rows read.
	resolved int
}

// newParagraphPool prepares the scoring of plan's paragraphs, with the
// visibility and filter conditions every query of the search carries.
func newParagraphPool(db queryer, plan bm25Plan, hw float64, public bool, f store.Filter) *paragraphPool {
	p := &paragraphPool{db: db, plan: plan, hw: hw}
	if public {
		p.filter = notHidden
	}
	if !f.IsZero() {
		cond, fargs := filterWhere(f)
		// The same fixed join order as notHidden's: notes, their chunks,
		// the paragraphs of those that pass, not every paragraph first.
		// Sessions are found from their chunks (chunks_session), not by
		// reading every note's chunks.
		from := `documents d CROSS JOIN chunks k ON k.doc_id = d.id`
		if len(f.Sessions) > 0 {
			from = `chunks k CROSS JOIN documents d ON d.id = k.doc_id`
		}
		p.filter += ` AND rowid IN (SELECT c.id FROM ` + from + `
			CROSS JOIN children c ON c.chunk_id = k.id WHERE ` + cond + `)`
		p.args = fargs
	}
	if plan.fromRowid > 0 {
		p.filter += ` AND rowid >= ?`
		p.args = append(p.args, plan.fromRowid)
	}
	return p
}

// inLang keeps only the paragraphs of notes analysed in lang ("" keeps
// every one) and returns p, in the fixed join order of notHidden: the
// paragraphs of lang's notes when few notes are in it (see fewNotesIn),
// else all but those of the notes in other languages, so that the list
// the query reads is the short one.
func (p *paragraphPool) inLang(lang string, few bool) *paragraphPool {
	switch {
	case lang == "":
	case few:
		p.filter += ` AND rowid IN (SELECT c.id FROM documents d CROSS JOIN chunks k ON k.doc_id = d.id
			CROSS JOIN children c ON c.chunk_id = k.id WHERE d.lang = ?)`
		p.args = append(p.args, lang)
	default:
		p.filter += ` AND rowid NOT IN (SELECT c.id FROM documents d CROSS JOIN chunks k ON k.doc_id = d.id
			CROSS JOIN children c ON c.chunk_id = k.id WHERE d.lang != ?)`
		p.args = append(p.args, lang)
	}
	return p
}

// fewNotesIn reports whether fewer than half the notes are in lang.
func fewNotesIn(ctx context.Context, db queryer, lang string) (bool, error) {
	if lang == "" {
		return false, nil
	}
	var in, all int
	err := queryRow(ctx, db, `SELECT (SELECT count(*) FROM documents WHERE lang = ?), (SELECT count(*) FROM documents)`, lang).Scan(&in, &all)
	return 2*in < all, err
}

// top returns the best limit paragraphs (fewer when the plan scores
// fewer), best first, with their rows read.
func (p *paragraphPool) top(ctx context.Context, limit int) ([]paragraph, error) {
	if !p.complete && len(p.found) < limit {
		var err error
		if p.plan.rescore != "" {
			p.found, err = rescoreParagraphs(ctx, p.db, p.plan, p.filter, p.args, p.hw)
			p.complete = true
		} else {
			// Four times as many as asked: the next tier, which most
			// searches need, is then read from here.
			fetch := 4 * limit
			p.found, err = scoreParagraphs(ctx, p.db, p.plan.match, p.filter, p.args, p.hw, fetch)
			p.complete = len(p.found) < fetch
			p.resolved = 0
		}
		if err != nil {
			return nil, fmt.Errorf("searching %q: %w", p.plan.match, err)
		}
	}
	found := p.found[:min(limit, len(p.found))]
	if p.resolved < len(found) {
		if err := readParagraphs(ctx, p.db, found[p.resolved:]); err != nil {
			return nil, fmt.Errorf("searching %q: %w", p.plan.match, err)
		}
		p.resolved = len(found)
	}
	return found, nil
}

// scoreParagraphs returns the best limit paragraphs by bm25 over match,
// best first (by score, then id); their rows are not read.
func scoreParagraphs(ctx context.Context, db queryer, match, filter string, args []any, hw float64, limit int) ([]paragraph, error) {
	rows, err := db.QueryContext(ctx, `SELECT rowid, bm25(children_fts, ?, 1.0) AS score
		FROM children_fts WHERE children_fts MATCH ?`+filter+` ORDER BY score, rowid LIMIT ?`,
		append(append([]any{hw, match}, args...), limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []paragraph
	for rows.Next() {
		var p paragraph
		if err := rows.Scan(&p.id, &p.score); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// rescoreParagraphs scores every paragraph plan.match finds by bm25 over
// every informative term, best first (by score, then id); their rows are
// not read. Each paragraph is scored once: those that hold another
// informative term by bm25 over plan.rescore, the others by bm25 over
// plan.match (the other terms would add nothing to them). It was bm25
// over every informative term ANDed with match, less bm25 over match, which
// scored every paragraph twice.
func rescoreParagraphs(ctx context.Context, db queryer, plan bm25Plan, filter string, args []any, hw float64) ([]paragraph, error) {
	both, err := allScores(ctx, db, plan.rescore, filter, args, hw)
	if err != nil {
		return nil, err
	}
	// The paragraphs rescore found are left out by their ids (a subquery
	// on rescore would seek through the other terms' lists again: 5 ms of
	// a question with "parte" and "2" at 100k chunks).
	ownFilter, ownArgs := filter, args
	if len(both) > 0 {
		ownFilter += ` AND rowid NOT IN (SELECT value FROM json_each(?))`
		ownArgs = append(append([]any(nil), args...), jsonIDs(slices.Collect(maps.Keys(both))))
	}
	own, err := allScores(ctx, db, plan.match, ownFilter, ownArgs, hw)
	if err != nil {
		return nil, err
	}
	found := make([]paragraph, 0, len(both)+len(own))
	for id, s := range both {
		found = append(found, paragraph{id: id, score: s})
	}
	for id, s := range own {
		found = append(found, paragraph{id: id, score: s})
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].score != found[j].score {
			return found[i].score < found[j].score
		}
		return found[i].id < found[j].id
	})
	return found, nil
}

// readParagraphs reads where each paragraph sits: its chunk, ordinal and
// bytes.
func readParagraphs(ctx context.Context, db queryer, found []paragraph) error {
	if len(found) == 0 {
		return nil
	}
	at := make(map[int64]int, len(found))
	ids := make([]int64, len(found))
	for i, p := range found {
		at[p.id] = i
		ids[i] = p.id
	}
	// The chunk itself is not looked up (half of this query's CPU): the
	// foreign key keeps a paragraph's chunk, and one that is missing all
	// the same is found when the chunks are read ([paragraphSearch.Chunks]).
	rows, err := db.QueryContext(ctx, `SELECT c.id, c.chunk_id, c.ordinal, c.byte_start, c.byte_end, c.chunk_id
		FROM json_each(?) j CROSS JOIN children c ON c.id = j.value`, jsonIDs(ids))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var chunkID, ordinal, start, end, parentID *int64
		if err := rows.Scan(&id, &chunkID, &ordinal, &start, &end, &parentID); err != nil {
			return err
		}
		p := &found[at[id]]
		p.chunkID, p.ordinal, p.start, p.end, p.parentID = chunkID, ordinal, start, end, parentID
	}
	return rows.Err()
}

// allScores returns bm25 over match of every paragraph it finds.
func allScores(ctx context.Context, db queryer, match, filter string, args []any, hw float64) (map[int64]float64, error) {
	rows, err := db.QueryContext(ctx, `SELECT rowid, bm25(children_fts, ?, 1.0) FROM children_fts WHERE children_fts MATCH ?`+filter,
		append([]any{hw, match}, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]float64{}
	for rows.Next() {
		var id int64
		var s float64
		if err := rows.Scan(&id, &s); err != nil {
			return nil, err
		}
		out[id] = s
	}
	return out, rows.Err()
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
