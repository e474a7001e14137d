package oraculo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/fuse"
	"github.com/oraculo/oraculo/query"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// DefaultK is how many hits a search returns by default.
const DefaultK = 10

// SearchOptions tune one search.
type SearchOptions struct {
	// K is how many hits to return (default DefaultK).
	K int
	// Paths names the retrieval paths to use; empty means every available one.
	Paths []string
	// Trace, when set, receives how long each stage took.
	Trace *Trace
	// NoPrior turns off the narrative prior (see NarrativeBoost).
	NoPrior bool
	// Filter restricts every path to some sessions, folders or tags
	// before anything is ranked; a search with nothing through it has no
	// hits. Without one, the sessions the question names are a filter
	// (when nothing matches in them, everything is searched).
	Filter store.Filter
	// NoAnalysis searches the question's words only: no session filter
	// taken from it.
	NoAnalysis bool
	// Analysis, when set, receives what was understood of the question.
	Analysis *QueryAnalysis
	// Vectors chooses how the dense path finds the question's nearest
	// chunks (default VectorsAuto).
	Vectors VectorSearch
}

// VectorSearch is how the dense path finds a question's nearest chunks.
type VectorSearch int

const (
	// VectorsAuto scans every vector below [WithANNThreshold] vectors
	// and walks the HNSW graph that ingest stored at or above it.
	VectorsAuto VectorSearch = iota
	// VectorsExact scans every vector: slower on many notes, it never
	// misses a neighbour.
	VectorsExact
	// VectorsApprox walks an HNSW graph at any size (below the threshold
	// one built in memory on first use): what the graph would miss, shown
	// before the notes grow enough for search to use it.
	VectorsApprox
)

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
// [fuse.Reorder]), a tie-break among chunks BM25 scored within a tenth of
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

// Trace records the time spent in each stage of one search.
type Trace struct {
	Stages []StageTime
}

// StageTime is one stage's duration. Stage names: "retrieve:<path>" for
// each retrieval path, "fuse" (or "merge" with one path), and "total".
type StageTime struct {
	Stage    string
	Duration time.Duration
}

func (t *Trace) add(stage string, since time.Time) {
	if t != nil {
		t.Stages = append(t.Stages, StageTime{stage, time.Since(since)})
	}
}

// Hit is one chunk returned by a search. Its JSON shape is public.
type Hit struct {
	Rank     int      `json:"rank"`
	ID       string   `json:"id"`
	File     string   `json:"file"`
	Label    string   `json:"label"`
	Headings []string `json:"headings"`
	Session  *int     `json:"session"`
	Words    int      `json:"words"`
	Text     string   `json:"text"`
	Score    float64  `json:"score"`
	// Paths maps each retrieval path that found the chunk to its rank there.
	Paths map[string]int `json:"paths"`
	// Title is the note's title; Passage the paragraph that matched best.
	Title   string `json:"title"`
	Passage string `json:"passage,omitempty"`
	// Prior is the factor the narrative prior multiplied the score by
	// (absent when none applied).
	Prior float64 `json:"prior,omitempty"`
	// PageStart and PageEnd are the pages of a paged document (a PDF) the
	// chunk spans, absent for notes.
	PageStart int `json:"page_start,omitempty"`
	PageEnd   int `json:"page_end,omitempty"`
	// Fusion is how the fusion made Score: each path's rank and
	// contribution, the narrative prior, and, when the entity path
	// reordered the other paths' candidates (see EntityMargin), the share
	// of the best base score and what the entity path added to it.
	Fusion fuse.Explanation `json:"-"`
	// Coverage is the share of the question its best paragraph holds, by
	// which the keyword path weighed its score (see
	// [retrieve.CoverageWeight]); 0 when BM25 did not find it.
	Coverage float64 `json:"-"`

	chunk int64 // the chunk's row id in the index
}

// paths returns the available paths among those wanted (all when want is
// nil), each restricted by f before it ranks anything (BM25 in its query,
// dense and entity by the set of chunks f lets through). A path not
// wanted loads nothing: a BM25-only search never reads a vector.
func (e *Engine) paths(ctx context.Context, f store.Filter, want map[string]bool) ([]retrieve.Path, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	player := isPlayer(ctx)
	allowed := e.allowedOnce(ctx, f)
	wanted := func(name string) bool { return want == nil || want[name] }
	var paths []retrieve.Path
	if wanted(retrieve.PathBM25) {
		paths = append(paths, retrieve.BM25{Index: e.idx, Analyzer: v.analyzer, Langs: v.langs, ByLang: v.byLang, Options: store.BM25Options{Public: player, Filter: f}})
	}
	if wanted(retrieve.PathDense) {
		if paths, err = e.appendDense(ctx, paths, v, f, allowed); err != nil {
			return nil, err
		}
	}
	if !wanted(retrieve.PathEntity) {
		return paths, nil
	}
	ents, err := e.entitiesOf(ctx, v)
	if err != nil {
		return nil, err
	}
	// A player's path runs even on an empty compendium, finding nothing as
	// for a question that names no entity: the players' compendium is
	// withheld while a note it was built from has just become DM-only,
	// and neither an error nor a missing path may tell them so.
	if len(ents.Entities) > 0 || player {
		allow, err := allowed()
		if err != nil {
			return nil, err
		}
		paths = append(paths, retrieve.Entity{Index: e.idx, Matcher: ents.Matcher, Entities: ents.Entities, Units: ents.Units, Public: player, Allow: allow})
	}
	return paths, nil
}

// allowedOnce returns the chunks f lets through (nil: all), for the paths
// that filter in the process: read when one asks, once.
func (e *Engine) allowedOnce(ctx context.Context, f store.Filter) func() (map[int64]bool, error) {
	var allow map[int64]bool
	read := f.IsZero()
	return func() (map[int64]bool, error) {
		var err error
		if !read {
			allow, err = e.idx.FilterChunks(ctx, f)
			read = err == nil
		}
		return allow, err
	}
}

// appendDense adds to paths the dense path over v's dense index, when
// there is one, leaving out what f and the caller's visibility do.
func (e *Engine) appendDense(ctx context.Context, paths []retrieve.Path, v *view, f store.Filter, allowed func() (map[int64]bool, error)) ([]retrieve.Path, error) {
	ix, err := e.denseOf(ctx, v)
	if err != nil || ix == nil {
		return paths, err
	}
	scope := dense.Scope{Allow: allowed, Restricted: func() (map[int64]bool, error) { return e.restrictedOf(ctx, v) }}
	d, err := ix.Path(retrieve.Dense{Embedder: v.embedder, Index: e.idx, Public: isPlayer(ctx)}, f, scope)
	return append(paths, d), err
}

// selectPaths resolves requested path names against the available ones,
// restricted by f.
func (e *Engine) selectPaths(ctx context.Context, names []string, f store.Filter) ([]retrieve.Path, error) {
	var want map[string]bool
	for _, n := range names {
		if n = strings.ToLower(strings.TrimSpace(n)); n != "" {
			if want == nil {
				want = map[string]bool{}
			}
			want[n] = true
		}
	}
	avail, err := e.paths(ctx, f, want)
	if err != nil {
		return nil, err
	}
	if want == nil {
		return avail, nil
	}
	var out []retrieve.Path
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		var found retrieve.Path
		for _, p := range avail {
			if p.Name() == n {
				found = p
			}
		}
		if found == nil {
			all, err := e.paths(ctx, f, nil)
			if err != nil {
				return nil, err
			}
			return nil, e.unavailable(n, all)
		}
		dup := false
		for _, p := range out {
			dup = dup || p.Name() == n
		}
		if !dup {
			out = append(out, found)
		}
	}
	if len(out) == 0 {
		return avail, nil
	}
	return out, nil
}

// unavailable explains why a path cannot run.
func (e *Engine) unavailable(name string, avail []retrieve.Path) error {
	switch name {
	case retrieve.PathDense:
		if em := e.Embedder(); em == nil {
			return fmt.Errorf("%w: %q needs an embedding model: ingest with --embedder (ollama, openai or hashing) (available: %s)", retrieve.ErrPathUnavailable, name, pathNames(avail))
		} else {
			return fmt.Errorf("%w: %q: the index has no vectors for %q: run oraculo ingest with that embedder (available: %s)", retrieve.ErrPathUnavailable, name, em.ID(), pathNames(avail))
		}
	case retrieve.PathEntity:
		return fmt.Errorf("%w: %q: the compendium is empty: run oraculo ingest (available: %s)", retrieve.ErrPathUnavailable, name, pathNames(avail))
	}
	return fmt.Errorf("%w: %q (known: %s)", retrieve.ErrUnknownPath, name, strings.Join(retrieve.KnownPaths, ", "))
}

func pathNames(ps []retrieve.Path) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name()
	}
	return strings.Join(names, ", ")
}

// Search answers a question with the best chunks, each once. With several
// paths, their lists are fused by reciprocal rank (k = 60) into at most
// fuse.MaxCandidates (40) candidates; a path that
// fails for a reason outside the notes (an unreachable model server) is
// left out with a warning, unless it was the only one asked for.
func (e *Engine) Search(ctx context.Context, question string, opts SearchOptions) ([]Hit, error) {
	start := time.Now()
	defer opts.Trace.add("total", start)
	v, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	ctx = withView(ctx, v)
	an, err := e.analyse(ctx, question, opts)
	if err != nil {
		return nil, err
	}
	if opts.Analysis != nil {
		*opts.Analysis = an
	}
	arc := an.Kind == query.KindArc && !opts.NoAnalysis
	hits, err := e.search(ctx, question, opts, an.Filters, arc)
	if err == nil && len(hits) == 0 && an.fromQuestion && !an.Filters.IsZero() {
		// The sessions the question named hold nothing that matches:
		// search everything rather than answer from nothing, and say so.
		if opts.Analysis != nil {
			opts.Analysis.Unfiltered = true
		}
		hits, err = e.search(ctx, question, opts, store.Filter{}, arc)
	}
	if err != nil {
		return hits, err
	}
	// The notes as the caller may read them: a player's hold no link to
	// a note they may not see.
	redact, err := e.redactor(ctx)
	if err != nil {
		return nil, err
	}
	redactHits(hits, redact)
	return hits, nil
}

// QueryAnalysis is what a search understood of its question besides its
// words (see package query). Its JSON shape is public (search --json,
// ask --json).
type QueryAnalysis struct {
	// Filters restricted the search: the explicit ones, or the sessions
	// the question named ("en la sesión 12", "las últimas tres sesiones").
	Filters store.Filter `json:"filters"`
	// Said is what of the question asked for the sessions.
	Said string `json:"said,omitempty"`
	// Kind is "arc" for a question about an entity's role or history
	// over the campaign, else "lookup".
	Kind string `json:"kind"`
	// Unfiltered: the sessions the question named held nothing that
	// matches, so everything was searched.
	Unfiltered bool `json:"unfiltered,omitempty"`
	// Entities are the compendium entries the question names (of the
	// compendium the asker may see), in the order it names them.
	Entities []string `json:"entities,omitempty"`

	fromQuestion bool
}

// analyse reads the question: explicit filters win; else the sessions it
// names, resolved against those the caller may see.
func (e *Engine) analyse(ctx context.Context, question string, opts SearchOptions) (QueryAnalysis, error) {
	known, err := e.knownSessions(ctx)
	if err != nil {
		return QueryAnalysis{}, err
	}
	a := query.Analyze(question, "", known)
	out := QueryAnalysis{Filters: opts.Filter, Kind: a.Kind}
	ents, err := e.entityIndex(ctx)
	if err != nil {
		return QueryAnalysis{}, err
	}
	if ents.Matcher != nil {
		seen := map[int]bool{}
		for _, m := range ents.Matcher.Find(question) {
			if !seen[m.Entity] && m.Entity < len(ents.Entities) {
				seen[m.Entity] = true
				out.Entities = append(out.Entities, ents.Entities[m.Entity].Name)
			}
		}
	}
	if opts.Filter.IsZero() && !opts.NoAnalysis && len(a.Sessions) > 0 {
		out.Filters, out.Said, out.fromQuestion = store.Filter{Sessions: a.Sessions}, a.Said, true
	}
	return out, nil
}

// knownSessions returns the session numbers the caller may see, loaded
// once per index generation (a query over every chunk: 10 ms at 10k).
func (e *Engine) knownSessions(ctx context.Context) ([]int, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return e.sessionsOf(ctx, v)
}

// spread reorders the hits of an arc question (someone's role or history
// over the campaign) so that each session, or note outside sessions, has
// its best chunk before any has a second: the eight chunks a model sees
// cover as many sessions as the candidates do. The order is otherwise
// kept, so the first hit stays first.
func spread(hits []Hit) []Hit {
	seen := map[string]bool{}
	first := make([]Hit, 0, len(hits))
	var rest []Hit
	for _, h := range hits {
		unit := "f" + h.File
		if h.Session != nil {
			unit = fmt.Sprint("s", *h.Session)
		}
		if seen[unit] {
			rest = append(rest, h)
			continue
		}
		seen[unit] = true
		first = append(first, h)
	}
	out := append(first, rest...)
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// search runs the paths restricted by f, fuses and cuts.
func (e *Engine) search(ctx context.Context, question string, opts SearchOptions, f store.Filter, arc bool) ([]Hit, error) {
	k := opts.K
	if k <= 0 {
		k = DefaultK
	}
	paths, err := e.selectPaths(ctx, opts.Paths, f)
	if err != nil {
		return nil, err
	}
	if len(paths) > 1 {
		// Reordering the other paths' candidates, the entity path follows
		// names, not common words that match one.
		for i, p := range paths {
			if ep, ok := p.(retrieve.Entity); ok {
				ep.NamesOnly = true
				paths[i] = ep
			}
		}
	}
	if opts.Vectors != VectorsAuto {
		if err := e.searchVectors(ctx, paths, opts.Vectors); err != nil {
			return nil, err
		}
	}
	// Each path returns a fixed depth and the order is cut to k only at
	// the end: the first k hits never depend on k.
	depth := retrieve.FixedDepth
	if len(paths) == 1 {
		depth = max(depth, k)
	}
	lists, byID, err := e.retrieveAll(ctx, question, paths, depth, opts.Trace)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	limit, cut := depth, k
	if len(lists) > 1 {
		limit, cut = fuse.MaxCandidates, min(k, fuse.MaxCandidates)
	}
	v, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	narrative := !opts.NoPrior && analysis.FirstPersonPlural(v.questionLang(question), question)
	margin := EntityMargin
	if arc {
		margin = ArcEntityMargin
	}
	hits := fusedHits(combine(lists, byID, narrative, margin, limit), byID)
	if arc {
		hits = spread(hits)
	}
	if len(hits) > cut {
		hits = hits[:cut]
	}
	opts.Trace.add(stageFuse(len(lists)), t0)
	return hits, nil
}

// retrieveAll runs every path to depth and returns their lists, ready to
// fuse, with the result of each chunk found (the passage of the path that
// has one, BM25's paragraph). A path other than BM25 that fails for a
// reason outside the notes is left out with a warning.
func (e *Engine) retrieveAll(ctx context.Context, question string, paths []retrieve.Path, depth int, tr *Trace) ([]fuse.List, map[int64]retrieve.Result, error) {
	byID := make(map[int64]retrieve.Result)
	var lists []fuse.List
	// The paths run at once (BM25 in SQLite while the question is
	// embedded and the graph walked), then are taken in their order, so
	// that the lists, warnings and trace are what running them one after
	// the other gives.
	type ran struct {
		results []retrieve.Result
		err     error
		took    time.Duration
	}
	out := make([]ran, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		run := func() {
			t0 := time.Now()
			out[i].results, out[i].err = p.Retrieve(ctx, question, depth)
			out[i].took = time.Since(t0)
		}
		if i == len(paths)-1 {
			run()
		} else {
			wg.Go(run)
		}
	}
	wg.Wait()
	for i, p := range paths {
		results, err := out[i].results, out[i].err
		if tr != nil {
			tr.Stages = append(tr.Stages, StageTime{"retrieve:" + p.Name(), out[i].took})
		}
		if err != nil {
			if len(paths) > 1 && p.Name() != retrieve.PathBM25 && ctx.Err() == nil {
				e.warn("%v; searching without it", err)
				continue
			}
			return nil, nil, err
		}
		if isPlayer(ctx) {
			// Every path leaves DM-only notes out; this is the last word,
			// taken on the rows as they were just read.
			results = slices.DeleteFunc(results, func(r retrieve.Result) bool { return r.Chunk.Restricted })
		}
		l := fuse.List{Path: p.Name(), IDs: make([]int64, len(results)), Scores: make([]float64, len(results))}
		for i, r := range results {
			l.IDs[i], l.Scores[i] = r.Chunk.ID, r.Score
			if old, ok := byID[r.Chunk.ID]; !ok || old.Passage == "" {
				byID[r.Chunk.ID] = r
			}
		}
		lists = append(lists, l)
	}
	return lists, byID, nil
}

// combine ranks what the paths found. The paths other than the entity
// path are the base: one path keeps its own scores (they say more than
// 1/(60+rank)), several are fused by reciprocal rank; the narrative
// prior multiplies the base score of session chunks. The entity path then
// reorders the base within EntityMargin (see [fuse.Reorder]): it lifts a
// chunk that names the question's entities over one whose base lead is
// smaller than that, never over a clear lead, and what only it found
// comes after. At most limit candidates are kept.
func combine(lists []fuse.List, byID map[int64]retrieve.Result, narrative bool, margin float64, limit int) []fuse.Candidate {
	var base []fuse.List
	var entity *fuse.List
	for i := range lists {
		switch {
		case lists[i].Path != retrieve.PathEntity || len(lists) == 1:
			base = append(base, lists[i])
		case len(lists[i].IDs) > 0:
			// The entity path reorders only when it found something (the
			// question names an entity): otherwise the base's scores stand.
			entity = &lists[i]
		}
	}
	var cands []fuse.Candidate
	if len(base) == 1 {
		cands = fuse.Single(base[0])
	} else {
		cands = fuse.RRF(base, fuse.DefaultK, 0)
	}
	if narrative && len(base) == 1 {
		// The prior acts on ranks, as it does on a fusion of several
		// paths: a session chunk BM25 ranks within the first thirty or so
		// comes before a note outside sessions. On BM25's scores it moved
		// only near-ties, and a first-person-plural question was answered
		// from a character's or the DM's note over the session that
		// tells it (see NarrativeBoost).
		cands = fuse.ByRank(cands, fuse.DefaultK)
	}
	if narrative {
		cands = fuse.Boost(cands, 1+NarrativeBoost, func(id int64) bool { return byID[id].Chunk.InSession })
	}
	if entity != nil {
		if len(base) > 1 && len(cands) > 0 && cands[0].Score > 0 {
			// Fused by rank, the base's scores lie close together (a
			// chunk first in one path and fifth in the other is within 5%
			// of one first in both): the margin is then a share of what
			// one path's first rank is worth, 1/(k+1).
			margin *= 1 / float64(fuse.DefaultK+1) / cands[0].Score
		}
		cands = fuse.Reorder(cands, *entity, entity.Scores, margin, 0)
	}
	if limit > 0 && len(cands) > limit {
		cands = cands[:limit]
	}
	return cands
}

// fusedHits turns ranked candidates into hits, each with the fusion's
// explanation of its score.
func fusedHits(fused []fuse.Candidate, byID map[int64]retrieve.Result) []Hit {
	hits := make([]Hit, len(fused))
	for i, c := range fused {
		r := byID[c.ID]
		hits[i] = hitFrom(r.Chunk, i+1, c.Score, c.Ranks)
		hits[i].Passage, hits[i].Fusion, hits[i].Coverage = r.Passage, c.Explanation, r.Coverage
		hits[i].Prior = c.Boost
	}
	return hits
}

func stageFuse(lists int) string {
	if lists > 1 {
		return "fuse"
	}
	return "merge"
}

func hitFrom(c store.Chunk, rank int, score float64, paths map[string]int) Hit {
	h := Hit{
		Rank: rank, ID: c.UID, File: c.Path, Label: c.Label, Headings: c.Headings,
		Words: c.Words(), Text: c.Text, Score: score, Paths: paths, Title: c.DocTitle,
		PageStart: c.PageStart, PageEnd: c.PageEnd,
		chunk: c.ID,
	}
	if h.Headings == nil {
		h.Headings = []string{}
	}
	if c.InSession {
		s := c.Session
		h.Session = &s
	}
	return h
}

// ChunkInfo is one chunk as listed by `oraculo chunks`.
type ChunkInfo struct {
	ID        string   `json:"id"`
	File      string   `json:"file"`
	Title     string   `json:"title"`
	Label     string   `json:"label"`
	Session   *int     `json:"session"`
	Headings  []string `json:"headings"`
	Words     int      `json:"words"`
	WordStart int      `json:"word_start"`
	WordEnd   int      `json:"word_end"`
	ByteStart int      `json:"byte_start"`
	ByteEnd   int      `json:"byte_end"`
	// PageStart and PageEnd are the pages of a paged document (a PDF) the
	// chunk spans; null for notes.
	PageStart *int   `json:"page_start"`
	PageEnd   *int   `json:"page_end"`
	FirstLine string `json:"first_line"`
	Text      string `json:"text"`
}

// Chunks lists every chunk in document order, optionally only those of the
// given files or folders (paths relative to the ingested folder).
func (e *Engine) Chunks(ctx context.Context, paths []string) ([]ChunkInfo, error) {
	stored, err := e.idx.ListChunks(ctx, paths)
	if err != nil {
		return nil, err
	}
	player := isPlayer(ctx)
	redact, err := e.redactor(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ChunkInfo, 0, len(stored))
	for _, c := range stored {
		if !(player && c.Restricted) {
			out = append(out, redactChunk(chunkInfo(c), redact))
		}
	}
	return out, nil
}

func chunkInfo(c store.Chunk) ChunkInfo {
	h := hitFrom(c, 0, 0, nil)
	info := ChunkInfo{
		ID: c.UID, File: c.Path, Title: c.DocTitle, Label: c.Label, Session: h.Session, Headings: h.Headings,
		Words: c.Words(), WordStart: c.WordStart, WordEnd: c.WordEnd, ByteStart: c.ByteStart, ByteEnd: c.ByteEnd,
		FirstLine: FirstLine(c.Text), Text: c.Text,
	}
	if c.PageStart > 0 {
		start, end := c.PageStart, c.PageEnd
		info.PageStart, info.PageEnd = &start, &end
	}
	return info
}

// Chunk returns one chunk by its public id (a search hit's or a
// citation's "id"); the error wraps [ErrNoChunk] when there is none.
func (e *Engine) Chunk(ctx context.Context, id string) (ChunkInfo, error) {
	c, err := e.idx.ChunkByUID(ctx, id)
	if err != nil {
		return ChunkInfo{}, err
	}
	if c.Restricted && isPlayer(ctx) {
		// The same error as for an id that does not exist.
		return ChunkInfo{}, fmt.Errorf("%w: %q", store.ErrNoChunk, id)
	}
	redact, err := e.redactor(ctx)
	if err != nil {
		return ChunkInfo{}, err
	}
	return redactChunk(chunkInfo(c), redact), nil
}

// FirstLine returns the first non-blank line of a text, trimmed.
func FirstLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// Stats describes the index.
type Stats struct {
	store.Stats
	Path     string   `json:"path"`
	Settings Settings `json:"settings"`
	// Entities is the size of the compendium; Vectors counts the stored
	// vectors of each embedding model.
	Entities int            `json:"entities"`
	Vectors  map[string]int `json:"vectors"`
	// Annotations counts the chunk annotations of each chat model and
	// prompt version ("model prompt").
	Annotations map[string]int `json:"annotations"`
	// DMOnly says which notes players never see, and why.
	DMOnly DMOnlyStats `json:"dm_only"`
	// Retrieval says how a search runs on the index now.
	Retrieval RetrievalStats `json:"retrieval"`
}

// RetrievalStats says how a search runs on the index now.
type RetrievalStats struct {
	// Paths are the retrieval paths available, in order: BM25 always;
	// dense when an embedder is set and the index holds vectors for it;
	// entity when the compendium has entities. For a player (see
	// [WithRole]) every path leaves DM-only notes out before ranking.
	Paths []string `json:"paths"`
	// DenseModel and DenseVectors name the dense path's embedder and count
	// the vectors it searches; Graph says whether it walks the HNSW graph
	// ingest builds (at or above [WithANNThreshold] vectors), or the
	// store's own vector index ([store.VectorSearcher]), instead of
	// scanning them.
	DenseModel   string `json:"dense_model,omitempty"`
	DenseVectors int    `json:"dense_vectors,omitempty"`
	Graph        bool   `json:"graph"`
}

// retrievalStats says which paths a search would use, without loading
// the vectors (a count says whether there are any).
func (e *Engine) retrievalStats(ctx context.Context) (RetrievalStats, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return RetrievalStats{}, err
	}
	r := RetrievalStats{Paths: []string{retrieve.PathBM25}}
	if v.embedder != nil {
		rows, err := e.idx.VectorRows(ctx, v.embedder.ID())
		if err != nil {
			return r, err
		}
		if rows > 0 {
			r.Paths = append(r.Paths, retrieve.PathDense)
			_, own := e.idx.(store.VectorSearcher)
			r.DenseModel, r.DenseVectors, r.Graph = v.embedder.ID(), rows, own || rows >= e.denseOptions().ANNThreshold()
		}
	}
	ents, err := e.entitiesOf(ctx, v)
	if err != nil {
		return r, err
	}
	if len(ents.Entities) > 0 {
		r.Paths = append(r.Paths, retrieve.PathEntity)
	}
	return r, nil
}

// DMOnlyStats counts the DM-only notes.
type DMOnlyStats struct {
	Notes int `json:"notes"`
	// ByReason counts them by what made them DM-only: "folder" (a secret
	// folder), "link" (a link into one), "front-matter", "tag", "unclear"
	// (a visibility setting that was not understood), "unknown" (not
	// decided yet).
	ByReason      map[string]int `json:"by_reason"`
	SecretFolders []string       `json:"secret_folders"`
	// PlayersCompendium is "withheld" while the players' compendium waits
	// for a complete ingest to rebuild it, else "ok".
	PlayersCompendium string `json:"players_compendium"`
}

// Overview is what the caller's role may know of the index at a glance:
// what a chat page shows before the first question.
type Overview struct {
	// Notes and Sessions count the notes and sessions the role sees: a
	// player's leave DM-only notes out.
	Notes    int `json:"notes"`
	Sessions int `json:"sessions"`
	// Updated is when the index last changed (an ingest finished, or notes
	// were decided again); nil before the first ingest.
	Updated *time.Time `json:"updated"`
	// Model is the chat model that writes answers (its ID), "" when
	// answers are extractive.
	Model string `json:"model"`
}

// Overview counts what the caller's role sees of the index and names the
// model that answers.
func (e *Engine) Overview(ctx context.Context) (Overview, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return Overview{}, err
	}
	s, err := e.idx.Stats(ctx)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{Notes: s.Documents}
	if isPlayer(ctx) {
		dm, err := e.idx.DMOnlyCounts(ctx)
		if err != nil {
			return Overview{}, err
		}
		for _, n := range dm {
			o.Notes -= n
		}
	}
	sessions, err := e.sessionsOf(ctx, v)
	if err != nil {
		return Overview{}, err
	}
	o.Sessions = len(sessions)
	if t, ok := generationTime(v.generation); ok {
		o.Updated = &t
	}
	if m := e.ChatModel(); m != nil {
		o.Model = m.ID()
	}
	return o, nil
}

// Stats counts what the index holds.
func (e *Engine) Stats(ctx context.Context) (Stats, error) {
	s, err := e.idx.Stats(ctx)
	if err != nil {
		return Stats{}, err
	}
	ents, err := e.idx.EntityCount(ctx, store.ScopeDM)
	if err != nil {
		return Stats{}, err
	}
	vecs, err := e.idx.EmbeddingCounts(ctx)
	if err != nil {
		return Stats{}, err
	}
	notes, err := e.idx.AnnotationCounts(ctx)
	if err != nil {
		return Stats{}, err
	}
	dm := DMOnlyStats{PlayersCompendium: "ok"}
	if dm.ByReason, err = e.idx.DMOnlyCounts(ctx); err != nil {
		return Stats{}, err
	}
	for _, n := range dm.ByReason {
		dm.Notes += n
	}
	if dm.SecretFolders, err = e.secretFolders(ctx, IngestOptions{}); err != nil {
		return Stats{}, err
	}
	if stale, err := e.idx.PlayersCompendiumStale(ctx); err != nil {
		return Stats{}, err
	} else if stale {
		dm.PlayersCompendium = "withheld"
	}
	r, err := e.retrievalStats(ctx)
	if err != nil {
		return Stats{}, err
	}
	return Stats{Stats: s, Path: e.idx.Path(), Settings: e.Settings(), Entities: ents, Vectors: vecs, Annotations: notes, DMOnly: dm, Retrieval: r}, nil
}
