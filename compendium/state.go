package compendium

import (
	"context"

	"github.com/oraculo/oraculo/store"
)

// State is a stored compendium loaded for searching: its entities, in
// the order the matcher numbers them, and the matcher over them.
type State struct {
	Entities []store.Entity
	Matcher  *Matcher
	// Units is how many sessions the notes hold, plus the notes outside
	// any session (see [store.Catalog.Units]).
	Units int
}

// StateSource is the store's roles a [State] is loaded from.
type StateSource interface {
	// Entities returns the compendium of a scope; the players' is empty
	// while it is stale.
	Entities(ctx context.Context, scope string) ([]store.Entity, error)
	// Units counts the sessions plus the notes outside any session.
	Units(ctx context.Context, public bool) (int, error)
}

// Load loads a compendium from s, the players' when public (empty while
// it is stale, as s gives it), and builds its matcher.
func Load(ctx context.Context, s StateSource, public bool) (*State, error) {
	recs, err := s.Entities(ctx, scope(public))
	if err != nil {
		return nil, err
	}
	ents := make([]Entity, len(recs))
	for i, r := range recs {
		ents[i] = Entity{Name: r.Name, Kind: Kind(r.Kind), Aliases: r.Aliases, Note: r.Note, Source: r.Source}
	}
	units, err := s.Units(ctx, public)
	if err != nil {
		return nil, err
	}
	return &State{Entities: recs, Matcher: NewMatcher(ents), Units: units}, nil
}

// scope is the stored compendium an audience reads: the players' when
// public, else the DM's.
func scope(public bool) string {
	if public {
		return store.ScopePlayer
	}
	return store.ScopeDM
}

// Named returns the names of the entities text names, each once, in the
// order it first names them; none when the compendium is empty.
func (st *State) Named(text string) []string {
	if st == nil || st.Matcher == nil {
		return nil
	}
	var out []string
	seen := map[int]bool{}
	for _, m := range st.Matcher.Find(text) {
		if !seen[m.Entity] && m.Entity < len(st.Entities) {
			seen[m.Entity] = true
			out = append(out, st.Entities[m.Entity].Name)
		}
	}
	return out
}
