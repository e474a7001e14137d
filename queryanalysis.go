package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/query"
	"github.com/oraculo/oraculo/snapshot"
	"github.com/oraculo/oraculo/store"
)

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
func (e *Engine) analyse(ctx context.Context, v *snapshot.Snapshot, question string, opts SearchOptions) (QueryAnalysis, error) {
	known, err := v.Sessions(ctx, isPlayer(ctx))
	if err != nil {
		return QueryAnalysis{}, err
	}
	a := query.Analyze(question, "", known)
	out := QueryAnalysis{Filters: opts.Filter, Kind: a.Kind}
	ents, err := v.Entities(ctx, isPlayer(ctx))
	if err != nil {
		return QueryAnalysis{}, err
	}
	out.Entities = ents.Named(question)
	if opts.Filter.IsZero() && !opts.NoAnalysis && len(a.Sessions) > 0 {
		out.Filters, out.Said, out.fromQuestion = store.Filter{Sessions: a.Sessions}, a.Said, true
	}
	return out, nil
}
