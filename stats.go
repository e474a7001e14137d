package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/summary"
)

// Stats describes the index (see [summary.Stats]).
type Stats = summary.Stats

// RetrievalStats says how a search runs on the index now: for a player
// (see [WithRole]) every path leaves DM-only notes out before ranking; the
// graph is walked at or above [WithANNThreshold] vectors (see
// [summary.Retrieval]).
type RetrievalStats = summary.Retrieval

// DMOnlyStats counts the DM-only notes (see [summary.DMOnly]).
type DMOnlyStats = summary.DMOnly

// Overview is what the caller's role may know of the index at a glance:
// what a chat page shows before the first question (see
// [summary.Overview]).
type Overview = summary.Overview

// retrievalStats says which paths a search by the caller would use,
// without loading the vectors.
func (e *Engine) retrievalStats(ctx context.Context) (RetrievalStats, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return RetrievalStats{}, err
	}
	return summary.RetrievalOf(ctx, e.idx, v.Embedder, e.denseOptions(), v, isPlayer(ctx))
}

// Overview counts what the caller's role sees of the index and names the
// model that answers.
func (e *Engine) Overview(ctx context.Context) (Overview, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return Overview{}, err
	}
	o, err := summary.OverviewOf(ctx, e.idx, v, isPlayer(ctx))
	if err != nil {
		return Overview{}, err
	}
	if t, ok := v.GenerationTime(); ok {
		o.Updated = &t
	}
	if m := e.ChatModel(); m != nil {
		o.Model = m.ID()
	}
	return o, nil
}

// Stats counts what the index holds.
func (e *Engine) Stats(ctx context.Context) (Stats, error) {
	folders := func(ctx context.Context) ([]string, error) { return e.secretFolders(ctx, IngestOptions{}) }
	return summary.Read(ctx, e.idx, summary.Engine{Settings: e.Settings, SecretFolders: folders, Retrieval: e.retrievalStats})
}
