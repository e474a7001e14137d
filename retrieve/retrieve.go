// Package retrieve holds the retrieval paths: each turns a question into a
// ranked list of chunks on its own. [Assembly] chooses a search's paths
// and [RunAll] runs them into the lists that package fuse ranks.
//
// The paths read the index through the roles of package store they need
// (keyword search, chunk reading, mentions), not through a concrete index,
// so any store implementation, or a fake, can serve them. A store scores
// paragraphs; how they make a ranking of chunks (the best paragraph and a
// share of its siblings, in pools that keep the first n of a search those
// of any longer one) is decided here, once for every store
// ([RankParagraphs]).
package retrieve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// Names of the retrieval paths.
const (
	PathBM25   = "bm25"
	PathDense  = "dense"
	PathEntity = "entity"
)

// KnownPaths lists every path name the engine knows, available or not.
var KnownPaths = []string{PathBM25, PathDense, PathEntity}

// ErrUnknownPath is returned for a path name the engine does not know.
var ErrUnknownPath = errors.New("unknown retrieval path")

// ErrPathUnavailable is returned for a known path that cannot run here.
var ErrPathUnavailable = errors.New("retrieval path not available")

// Result is one chunk found by a path.
type Result struct {
	Chunk store.Chunk
	// Score is the path's own score: comparable only within the path.
	Score float64
	// Passage is the part of the chunk that made the path pick it (the best
	// paragraph for BM25), or "" when the path has no such notion.
	Passage string
	// Coverage is the share of the question's terms, weighted by IDF, that
	// the passage holds with the chunk's heading terms (see
	// [CoverageWeight]); 0 when the path did not measure it.
	Coverage float64
}

// Path is one way of finding chunks for a question.
type Path interface {
	// Name is the path's name, as used in --paths and in a hit's "paths".
	Name() string
	// Retrieve returns up to n chunks, best first.
	Retrieve(ctx context.Context, question string, n int) ([]Result, error)
}

// Depth is how many results each path is asked for when k are wanted:
// max(2k, k+5), which gives fusion room to work.
func Depth(k int) int {
	return max(2*k, k+5)
}

// FixedDepth is the per-path depth of every search of at most 40 hits
// (Depth(40)): each path returns this many whatever k, and the fused
// order is cut to k only at the end, so the first k of a search never
// depend on how many were asked for.
const FixedDepth = 80

// BM25 is the keyword path: paragraphs ranked by BM25 over the analysed
// text, each parent chunk returned once.
type BM25 struct {
	Index    store.KeywordSearcher
	Analyzer *analysis.Analyzer
	// Langs, when it holds more than one analyser, are the languages of
	// the notes, and the question is analysed in each (Analyzer is then
	// unused). With ByLang, each language's terms are matched against the
	// notes of that language only ([store.BM25Options.Lang]), and the
	// lists merged by score: one BM25 over one collection, whose
	// languages' terms do not meet. Without it (a store that does not
	// keep each note's language), the terms of every language are
	// searched together.
	Langs   []*analysis.Analyzer
	ByLang  bool
	Options store.BM25Options
}

// Name implements [Path].
func (BM25) Name() string { return PathBM25 }

// Retrieve implements [Path].
func (p BM25) Retrieve(ctx context.Context, question string, n int) ([]Result, error) {
	matches, err := p.search(ctx, question, n)
	if err != nil {
		return nil, fmt.Errorf("bm25 path: %w", err)
	}
	out := make([]Result, len(matches))
	for i, m := range matches {
		out[i] = Result{Chunk: m.Chunk, Score: m.Score, Passage: m.Passage, Coverage: m.coverage}
	}
	return out, nil
}

// search runs the keyword searches of a question, one per language when
// the notes have several, and merges them. With a store that counts its
// terms ([store.TermCounter]), each list is reordered by how much of the
// question its chunks' best paragraphs hold (see [CoverageWeight]).
func (p BM25) search(ctx context.Context, question string, n int) ([]match, error) {
	tc, _ := p.Index.(store.TermCounter)
	fetch := n
	if tc != nil {
		fetch = fetchFor(n)
	}
	one := func(ans []*analysis.Analyzer, terms []string, opts store.BM25Options) ([]match, error) {
		ms, err := SearchBM25(ctx, p.Index, terms, fetch, opts)
		if err != nil || tc == nil {
			return matchesOf(ms), err
		}
		return cover(ctx, tc, ans, terms, ms)
	}
	var all []match
	switch {
	case len(p.Langs) == 0 || len(p.Langs) == 1:
		a := p.Analyzer
		if len(p.Langs) == 1 {
			a = p.Langs[0]
		}
		ms, err := one([]*analysis.Analyzer{a}, a.Terms(question), p.Options)
		if err != nil {
			return nil, err
		}
		all = ms
	case !p.ByLang:
		var terms []string
		for _, a := range p.Langs {
			terms = append(terms, a.Terms(question)...)
		}
		ms, err := one(p.Langs, terms, p.Options)
		if err != nil {
			return nil, err
		}
		all = ms
	default:
		for _, a := range p.Langs {
			opts := p.Options
			opts.Lang = a.Lang()
			ms, err := one([]*analysis.Analyzer{a}, a.Terms(question), opts)
			if err != nil {
				return nil, fmt.Errorf("searching the notes in %q: %w", a.Lang(), err)
			}
			all = append(all, ms...)
		}
		// A note is in one language, so each chunk is in one list. Each
		// list's first n are those of any longer one, and so are the
		// merged first n; ties keep the languages' order.
		sortByScore(all)
	}
	if len(all) > n {
		all = all[:n]
	}
	return all, nil
}

// queryTimeout bounds the wait for a question's vector: a search must not
// hang on a model server. It bounds that wait only: the vectors' own search
// and the reading of its chunks are the caller's (a first search of a large
// index under load, which maps the graph, took longer and then failed
// reading chunks it had found).
var queryTimeout = 15 * time.Second

// Dense is the semantic path: the question's vector against the chunks'
// vectors (cosine), exact or approximate depending on the Searcher, or
// searched by the store itself.
type Dense struct {
	Embedder embed.Embedder
	Searcher vector.Searcher
	// Store, when set, searches the vectors in place of Searcher (a
	// cluster's own vector index): it is given Public and Filter and
	// applies them before it ranks; the vectors are those of the
	// Embedder's model.
	Store store.VectorSearcher
	// Filter is the filter Store applies (Allow is the Searcher's).
	Filter store.Filter
	// Index reads back the chunks the vectors point to.
	Index store.ChunkReader
	// Exclude, when set, holds chunks the caller may not see: the search
	// asks for that many more neighbours and drops them before anything
	// is ranked, so an exact scan still returns n visible chunks.
	Exclude map[int64]bool
	// Public drops, as they are read, the chunks of notes players may not
	// see now: Exclude is a snapshot, and a note may have become DM-only
	// since it was taken.
	Public bool
	// Allow, when not nil, holds the only chunks the search may return (a
	// filter): every vector is then ranked, and the others dropped before
	// the n best are kept.
	Allow map[int64]bool
	// Gone is how many of the searcher's vectors may belong to chunks that
	// no longer exist (an updated graph's tombstones): the search asks for
	// that many more, so that n chunks that do exist still come back.
	Gone int
}

// Name implements [Path].
func (Dense) Name() string { return PathDense }

// Retrieve implements [Path].
func (p Dense) Retrieve(ctx context.Context, question string, n int) ([]Result, error) {
	ectx, cancel := context.WithTimeout(ctx, queryTimeout)
	vecs, err := p.Embedder.Embed(ectx, embed.Query, []string{question})
	cancel()
	if err != nil {
		return nil, fmt.Errorf("dense path: embedding the question: %w", err)
	}
	if len(vecs) != 1 || !vector.Normalize(vecs[0]) {
		return nil, fmt.Errorf("dense path: %w: the model returned no usable vector for the question", embed.ErrResponse)
	}
	var hits []vector.Hit
	if p.Store != nil {
		hits, err = p.Store.SearchVectors(ctx, p.Embedder.ID(), vecs[0], n, p.Public, p.Filter)
	} else {
		depth := n + len(p.Exclude) + p.Gone
		if p.Allow != nil {
			depth = p.Searcher.Len()
		}
		hits, err = p.Searcher.Search(vecs[0], depth)
	}
	if err != nil {
		return nil, fmt.Errorf("dense path: %w", err)
	}
	if len(p.Exclude) > 0 || p.Allow != nil {
		hits = slices.DeleteFunc(hits, func(h vector.Hit) bool { return p.Exclude[h.ID] || (p.Allow != nil && !p.Allow[h.ID]) })
	}
	if len(hits) > n+p.Gone {
		hits = hits[:n+p.Gone]
	}
	ids := make([]int64, len(hits))
	scores := make([]float64, len(hits))
	for i, h := range hits {
		ids[i], scores[i] = h.ID, float64(h.Score)
	}
	// The vectors were loaded earlier: a chunk an ingest has replaced
	// since is gone, and left out.
	out, err := readResults(ctx, p.Index, ids, scores, p.Public)
	if err != nil {
		return nil, fmt.Errorf("dense path: %w", err)
	}
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// readResults reads the chunks of ids that still exist, in order, with
// their scores, leaving out (when public) those of notes players may not
// see now.
func readResults(ctx context.Context, r store.ChunkReader, ids []int64, scores []float64, public bool) ([]Result, error) {
	chunks, err := r.ChunksFound(ctx, ids)
	if err != nil {
		return nil, err
	}
	score := make(map[int64]float64, len(ids))
	for i, id := range ids {
		score[id] = scores[i]
	}
	out := make([]Result, 0, len(chunks))
	for _, c := range chunks {
		if !(public && c.Restricted) {
			out = append(out, Result{Chunk: c, Score: score[c.ID]})
		}
	}
	return out, nil
}
