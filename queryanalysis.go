package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/query"
	"github.com/oraculo/oraculo/snapshot"
)

// QueryAnalysis is what a search understood of its question besides its
// words (see [query.Understanding]). Its JSON shape is public.
type QueryAnalysis = query.Understanding

// analyse reads the question: explicit filters win; else the sessions it
// names, resolved against those the caller may see.
func (e *Engine) analyse(ctx context.Context, v *snapshot.Snapshot, question string, opts SearchOptions) (QueryAnalysis, error) {
	known, err := v.Sessions(ctx, isPlayer(ctx))
	if err != nil {
		return QueryAnalysis{}, err
	}
	ents, err := v.Entities(ctx, isPlayer(ctx))
	if err != nil {
		return QueryAnalysis{}, err
	}
	return query.Understand(question, known, ents.Named(question), opts.Filter, opts.NoAnalysis), nil
}
