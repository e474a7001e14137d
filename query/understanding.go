package query

import "github.com/oraculo/oraculo/store"

// Understanding is what a search understood of its question besides its
// words (the engine's QueryAnalysis). Its JSON shape is public (search
// --json, ask --json).
type Understanding struct {
	// Filters restricted the search: the explicit ones, or the sessions
	// the question named ("en la sesión 12", "las últimas tres sesiones"),
	// with UntilSession when it asked as of one ("hasta la sesión 20").
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
	// State reports whether the question asks for the current state of
	// something (see [IsState]): among equals, the latest session ranks
	// first, and the answer says when the state changed.
	State bool `json:"state,omitempty"`
	// FromQuestion reports whether Filters are the sessions the question
	// named (and so may be dropped when nothing in them matches).
	FromQuestion bool `json:"-"`
}

// Understand reads question against known, the sessions the asker may
// see: an explicit filter wins; else, unless noAnalysis, the sessions it
// names (see [Analyze]). named are the compendium entries it names.
func Understand(question string, known []int, named []string, filter store.Filter, noAnalysis bool) Understanding {
	u, _ := UnderstandLazily(question, func() ([]int, error) { return known, nil }, named, filter, noAnalysis)
	return u
}

// UnderstandLazily is [Understand] calling known for the sessions the
// asker may see only when they decide something: the question names
// sessions, and no explicit filter or noAnalysis sets them aside (see
// [AnalyzeLazily]). An error of known is returned as is.
func UnderstandLazily(question string, known func() ([]int, error), named []string, filter store.Filter, noAnalysis bool) (Understanding, error) {
	if !filter.IsZero() || noAnalysis {
		known = func() ([]int, error) { return nil, nil }
	}
	a, err := AnalyzeLazily(question, "", known)
	if err != nil {
		return Understanding{}, err
	}
	u := Understanding{Filters: filter, Kind: a.Kind, Entities: named, State: a.State && !noAnalysis}
	if filter.IsZero() && !noAnalysis && len(a.Sessions) > 0 {
		u.Filters, u.Said, u.FromQuestion = store.Filter{Sessions: a.Sessions, UntilSession: a.Until}, a.Said, true
	}
	return u, nil
}

// Widened reports whether a search that found nothing should search
// again without filters: they were the sessions the question named.
func (u Understanding) Widened() bool { return u.FromQuestion && !u.Filters.IsZero() }
