package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/query"
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
