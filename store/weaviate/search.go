package weaviate

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"

	"github.com/oraculo/oraculo/store"
)

// MaxResults is the most objects one query returns: Weaviate's default
// QUERY_MAXIMUM_RESULTS. A keyword search scores at most this many
// paragraphs.
const MaxResults = 10000

// paragraphProps are what a search reads of a paragraph.
var paragraphProps = []string{propChunkID, propRoot, propPath, propChunkOrdinal, propOrdinal, propByteStart, propByteEnd}

// paragraph is one scored paragraph.
type paragraph struct {
	score               float64
	chunkID             int64
	root, path          string
	chunkOrdinal, child int
	start, end          int
}

// SearchParagraphs implements [store.KeywordSearcher]: Weaviate's BM25F
// over the paragraphs, with visibility (public) and the filter as the
// query's where clause, which Weaviate applies before it ranks.
//
// What differs from SQLite's FTS5 (see docs/weaviate.md):
// Weaviate's BM25F scores (IDF log(1 + (N - n + 0.5)/(n + 0.5)), never
// zero; lengths normalised per property), whole-number heading weights
// only, ties broken by note path and place rather than by row id, no
// MatchBudget plan (SQLite's), and at most [MaxResults] paragraphs
// scored. Its chunks are read when asked for, not from the state the
// paragraphs were scored in: a chunk replaced since is missing.
func (s *Store) SearchParagraphs(ctx context.Context, terms []string, opts store.BM25Options) (store.Paragraphs, error) {
	query := distinct(terms)
	what := fmt.Sprintf("searching %q", strings.Join(query, " "))
	hw := opts.HeadingWeight
	if hw == 0 {
		hw = store.DefaultHeadingWeight
	}
	props, err := searchedProps(hw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	p := &pool{s: s, what: what, query: strings.Join(query, " "), props: props, where: visibleWhere(opts.Public, opts.Filter)}
	// No terms: nothing to score.
	p.complete = len(query) == 0
	return p, nil
}

// TermUsed reports whether an analysed term occurs in any paragraph (of a
// note players may see, when public).
func (s *Store) TermUsed(ctx context.Context, term string, public bool) (bool, error) {
	if strings.TrimSpace(term) == "" {
		return false, nil
	}
	get := s.client.GraphQL().Get().WithFields(fields([]string{propChunkID})...).WithLimit(1).
		WithBM25(s.client.GraphQL().Bm25ArgBuilder().WithQuery(term).WithProperties(propAllTerms))
	if w := visibleWhere(public, store.Filter{}); w != nil {
		get = get.WithWhere(w)
	}
	objs, err := s.run(ctx, get, paragraphClass)
	if err != nil {
		return false, fmt.Errorf("looking up %q: %w", term, err)
	}
	return len(objs) > 0 && objs[0].score > 0, nil
}

var _ store.TermCounter = (*Store)(nil)

// termCounts caches how many paragraphs hold each term, for one value of
// [Store.ChunksVersion]: counting a common term reads up to MaxResults
// paragraphs, once per term between two writes rather than per search.
type termCounts struct {
	mu         sync.Mutex
	version    string
	paragraphs int64
	held       map[string]int64
}

// maxCachedTerms bounds the cache: past it, it starts again.
const maxCachedTerms = 1 << 14

// TermCounts returns how many paragraphs hold each term (up to
// [MaxResults], the most a keyword query scores) and how many paragraphs
// there are, as [index.Index.TermCounts] does.
func (s *Store) TermCounts(ctx context.Context, terms []string) ([]int64, int64, error) {
	version, err := s.ChunksVersion(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("counting terms: %w", err)
	}
	c := s.counts
	if c == nil || version == "" {
		// Without a version (a store no write has marked yet) nothing
		// says when counts go stale: they are not kept.
		c = &termCounts{}
	}
	c.mu.Lock()
	if c.version != version || c.held == nil || len(c.held) >= maxCachedTerms {
		c.version, c.paragraphs, c.held = version, 0, map[string]int64{}
	}
	held := make([]int64, len(terms))
	var missing []int
	for i, t := range terms {
		n, ok := c.held[t]
		if !ok && strings.TrimSpace(t) != "" {
			missing = append(missing, i)
		}
		held[i] = n
	}
	total := c.paragraphs
	c.mu.Unlock()
	for _, i := range missing {
		get := s.client.GraphQL().Get().WithFields(fields([]string{propChunkID})...).WithLimit(MaxResults).
			WithBM25(s.client.GraphQL().Bm25ArgBuilder().WithQuery(terms[i]).WithProperties(propAllTerms))
		objs, err := s.run(ctx, get, paragraphClass)
		if err != nil {
			return nil, 0, fmt.Errorf("counting %q: %w", terms[i], err)
		}
		for _, o := range objs {
			if o.score > 0 {
				held[i]++
			}
		}
	}
	if total == 0 {
		n, err := s.count(ctx, paragraphClass)
		if err != nil {
			return nil, 0, fmt.Errorf("counting paragraphs: %w", err)
		}
		total = int64(n)
	}
	c.mu.Lock()
	if c.version == version {
		for _, i := range missing {
			c.held[terms[i]] = held[i]
		}
		c.paragraphs = total
	}
	c.mu.Unlock()
	return held, total, nil
}

// distinct returns the non-empty terms once each, in their order.
func distinct(terms []string) []string {
	seen := make(map[string]bool, len(terms))
	var out []string
	for _, t := range terms {
		// A term is one token to Weaviate's whitespace tokenizer.
		for _, f := range strings.Fields(t) {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// searchedProps are the BM25 properties with the heading path's weight:
// Weaviate takes whole-number boosts only.
func searchedProps(hw float64) ([]string, error) {
	if hw == 1 {
		return []string{propAllTerms}, nil
	}
	if hw < 1 || hw != math.Trunc(hw) {
		return nil, fmt.Errorf("heading weight %g: Weaviate takes whole-number property boosts of 1 or more", hw)
	}
	return []string{propHeadingTerms + "^" + strconv.Itoa(int(hw)), propTerms}, nil
}

// visibleWhere is the where clause that keeps what a search may see: the
// paragraphs of notes players may see (public), of the chunks f lets
// through. A paragraph without its visibility is not public: fail closed.
func visibleWhere(public bool, f store.Filter) *filters.WhereBuilder {
	var conds []*filters.WhereBuilder
	if public {
		conds = append(conds, filters.Where().WithPath([]string{propPublic}).WithOperator(filters.Equal).WithValueBoolean(true))
	}
	if len(f.Sessions) > 0 {
		ss := make([]int64, len(f.Sessions))
		for i, s := range f.Sessions {
			ss[i] = int64(s)
		}
		conds = append(conds, filters.Where().WithPath([]string{propSession}).WithOperator(filters.ContainsAny).WithValueInt(ss...))
	}
	if len(f.Folders) > 0 {
		var any []*filters.WhereBuilder
		for _, p := range f.Folders {
			p = strings.ToLower(strings.Trim(strings.TrimPrefix(strings.ReplaceAll(p, "\\", "/"), "./"), "/"))
			any = append(any, textIs(propPathLower, p),
				filters.Where().WithPath([]string{propPathLower}).WithOperator(filters.Like).WithValueText(p+"/*"))
		}
		conds = append(conds, or(any...))
	}
	if len(f.Tags) > 0 {
		var tags []string
		for _, t := range f.Tags {
			t = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(t), "#"))
			tags = append(tags, t, strings.ReplaceAll(t, " ", ""))
		}
		conds = append(conds, filters.Where().WithPath([]string{propTags}).WithOperator(filters.ContainsAny).WithValueText(tags...))
	}
	return and(conds...)
}

// pool is one search's scored paragraphs, best first ([store.Paragraphs]);
// its tiers are its prefixes, read from the cluster four tiers' worth at
// a time.
type pool struct {
	s     *Store
	what  string
	query string
	props []string
	where *filters.WhereBuilder
	// found holds the best paragraphs, best first; complete, that it
	// holds every one the query scores.
	found    []paragraph
	complete bool
}

// Top implements [store.Paragraphs].
func (p *pool) Top(ctx context.Context, limit int) ([]store.Paragraph, error) {
	found, err := p.top(ctx, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.what, err)
	}
	out := make([]store.Paragraph, len(found))
	for i, f := range found {
		out[i] = store.Paragraph{Score: f.score, ChunkID: f.chunkID, Ordinal: f.child, ByteStart: f.start, ByteEnd: f.end}
	}
	return out, nil
}

// Chunks implements [store.Paragraphs].
func (p *pool) Chunks(ctx context.Context, ids []int64) (map[int64]store.Chunk, error) {
	chunks, err := p.s.chunksByID(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.what, err)
	}
	return chunks, nil
}

// Close implements [store.Paragraphs]: a search holds nothing open.
func (p *pool) Close() error { return nil }

// top returns the best limit paragraphs (fewer when the query scores
// fewer), best first.
func (p *pool) top(ctx context.Context, limit int) ([]paragraph, error) {
	if !p.complete && len(p.found) < limit {
		fetch := min(4*limit, MaxResults)
		get := p.s.client.GraphQL().Get().WithFields(fields(paragraphProps)...).WithLimit(fetch).
			WithBM25(p.s.client.GraphQL().Bm25ArgBuilder().WithQuery(p.query).WithProperties(p.props...))
		if p.where != nil {
			get = get.WithWhere(p.where)
		}
		objs, err := p.s.run(ctx, get, paragraphClass)
		if err != nil {
			return nil, err
		}
		found := make([]paragraph, 0, len(objs))
		for _, o := range objs {
			if !o.has(propChunkID) {
				return nil, fmt.Errorf("%w: paragraph %s has no chunk", store.ErrMissingParent, o.id)
			}
			found = append(found, paragraph{
				score: o.score, chunkID: o.id64(propChunkID), root: o.text(propRoot), path: o.text(propPath),
				chunkOrdinal: int(o.int(propChunkOrdinal)), child: int(o.int(propOrdinal)),
				start: int(o.int(propByteStart)), end: int(o.int(propByteEnd)),
			})
		}
		// Best first; equal scores in note order, as SQLite's row ids
		// (notes are written in path order) break them.
		sort.SliceStable(found, func(i, j int) bool {
			a, b := found[i], found[j]
			if a.score != b.score {
				return a.score > b.score
			}
			if a.root != b.root {
				return a.root < b.root
			}
			if a.path != b.path {
				return a.path < b.path
			}
			if a.chunkOrdinal != b.chunkOrdinal {
				return a.chunkOrdinal < b.chunkOrdinal
			}
			return a.child < b.child
		})
		p.found = found
		p.complete = len(found) < fetch || fetch == MaxResults
	}
	return p.found[:min(limit, len(p.found))], nil
}
