package oraculo

import (
	"context"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/fuse"
	"github.com/oraculo/oraculo/query"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/snapshot"
	"github.com/oraculo/oraculo/store"
)

// DefaultK is how many hits a search returns by default.
const DefaultK = retrieve.DefaultK

// SearchOptions tune one search (see [retrieve.Options]).
type SearchOptions = retrieve.Options

// VectorSearch is how the dense path finds a question's nearest chunks.
type VectorSearch = retrieve.VectorSearch

// How the dense path finds a question's nearest chunks (see
// [retrieve.VectorsAuto]).
const (
	VectorsAuto   = retrieve.VectorsAuto
	VectorsExact  = retrieve.VectorsExact
	VectorsApprox = retrieve.VectorsApprox
)

// The ranking's constants, decided where the ranking is (package fuse).
const (
	// NarrativeBoost is the narrative prior (see [fuse.NarrativeBoost]).
	NarrativeBoost = fuse.NarrativeBoost
	// EntityMargin is how far the entity path may lift a chunk for a
	// lookup question (see [fuse.EntityMargin]).
	EntityMargin = fuse.EntityMargin
	// ArcEntityMargin is EntityMargin for an arc question (see
	// [fuse.ArcEntityMargin]).
	ArcEntityMargin = fuse.ArcEntityMargin
)

// Trace records the time spent in each stage of one search.
type Trace = retrieve.Trace

// StageTime is one stage's duration (see [retrieve.StageTime]).
type StageTime = retrieve.StageTime

// Hit is one chunk returned by a search. Its JSON shape is public.
type Hit = retrieve.Hit

// SearchResult is what one search found and how: its hits, what it
// understood of the question and how long each stage took.
type SearchResult = retrieve.SearchResult

// Search answers a question with the best chunks, each once. With several
// paths, their lists are fused by reciprocal rank (k = 60) into at most
// fuse.MaxCandidates (40) candidates; a path that
// fails for a reason outside the notes (an unreachable model server) is
// left out with a warning, unless it was the only one asked for. What it
// understood of the question goes to opts.Analysis, and the time of each
// stage is added to opts.Trace, when they are set (see [Engine.Find],
// which returns them).
func (e *Engine) Search(ctx context.Context, question string, opts SearchOptions) ([]Hit, error) {
	r, err := e.Find(ctx, question, opts)
	if opts.Analysis != nil && r.Analysis.Kind != "" {
		*opts.Analysis = r.Analysis
	}
	if opts.Trace != nil {
		opts.Trace.Stages = append(opts.Trace.Stages, r.Trace.Stages...)
	}
	return r.Hits, err
}

// Find is [Engine.Search] returning, with the hits, what the search
// understood of the question and the time of each stage (opts.Analysis
// and opts.Trace are not written).
func (e *Engine) Find(ctx context.Context, question string, opts SearchOptions) (r SearchResult, err error) {
	start := time.Now()
	defer func() { r.Trace.Add("total", start) }()
	v, err := e.snapshot(ctx)
	if err != nil {
		return r, err
	}
	return e.searchAt(ctx, v, question, opts)
}

// searchAt searches v: the question's analysis, its paths restricted by
// the filters it names (everything when that finds nothing), fusion, and
// the hits as the caller may read them.
func (e *Engine) searchAt(ctx context.Context, v *snapshot.Snapshot, question string, opts SearchOptions) (SearchResult, error) {
	var r SearchResult
	an, err := e.analyse(ctx, v, question, opts)
	if err != nil {
		return r, err
	}
	r.Analysis = an
	arc := an.Kind == query.KindArc && !opts.NoAnalysis
	r.Hits, err = e.search(ctx, v, question, opts, an.Filters, arc, an.State, &r.Trace)
	if err == nil && len(r.Hits) == 0 && an.Widened() {
		// The sessions the question named hold nothing that matches:
		// search everything rather than answer from nothing, and say so.
		r.Analysis.Unfiltered = true
		r.Hits, err = e.search(ctx, v, question, opts, store.Filter{}, arc, an.State, &r.Trace)
	}
	if err != nil {
		return r, err
	}
	// The notes as the caller may read them: a player's hold no link to
	// a note they may not see.
	redact, err := e.redactor(ctx, v)
	if err != nil {
		r.Hits = nil
		return r, err
	}
	retrieve.Redact(r.Hits, redact)
	return r, nil
}

// search runs over v the paths restricted by f, fuses and cuts (an arc
// or a state question's way, see [retrieve.Found.Rank]), adding the time
// of each stage to tr.
func (e *Engine) search(ctx context.Context, v *snapshot.Snapshot, question string, opts SearchOptions, f store.Filter, arc, state bool, tr *Trace) ([]Hit, error) {
	f, ok, err := v.Through(ctx, f, isPlayer(ctx))
	if !ok || err != nil {
		return nil, err // an "until" before every session matches nothing
	}
	paths, err := v.Paths(ctx, f, isPlayer(ctx)).Select(ctx, opts.Paths)
	if err != nil {
		return nil, err
	}
	if err := v.SearchVectors(ctx, paths, opts.Vectors); err != nil {
		return nil, err
	}
	k, depth := opts.Depth(len(paths))
	found, err := retrieve.RunAll(ctx, question, paths, retrieve.Run{
		Depth: depth, Public: isPlayer(ctx), Took: tr.Took,
		Warn: func(err error) { e.warn("%v; searching without it", err) },
	})
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	narrative := !opts.NoPrior && analysis.FirstPersonPlural(v.QuestionLang(question), question)
	hits := found.Rank(narrative, arc, state, depth, k)
	tr.Add(retrieve.FuseStage(len(found.Lists)), t0)
	return hits, nil
}

// QueryAnalysis is what a search understood of its question besides its
// words (see [query.Understanding]). Its JSON shape is public.
type QueryAnalysis = query.Understanding

// analyse reads the question: explicit filters win; else the sessions it
// names, resolved against those the caller may see.
// The sessions are read only when the question names some.
func (e *Engine) analyse(ctx context.Context, v *snapshot.Snapshot, question string, opts SearchOptions) (QueryAnalysis, error) {
	ents, err := v.Entities(ctx, isPlayer(ctx))
	if err != nil {
		return QueryAnalysis{}, err
	}
	known := func() ([]int, error) { return v.Sessions(ctx, isPlayer(ctx)) }
	return query.UnderstandLazily(question, known, ents.Named(question), opts.Filter, opts.NoAnalysis)
}
