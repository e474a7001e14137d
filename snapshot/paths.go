package snapshot

import (
	"context"
	"fmt"

	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// Paths returns what choosing the retrieval paths of a search of v,
// restricted by f, for a player or the DM, reads (see
// [retrieve.Assembly]): the dense index and the compendium are loaded
// only for the paths wanted.
func (v *Snapshot) Paths(ctx context.Context, f store.Filter, player bool) retrieve.Assembly {
	return retrieve.Assembly{
		Index: v.store, Analyzer: v.Analyzer, Langs: v.Langs, ByLang: v.ByLang,
		Public: player, Filter: f, Embedder: v.Embedder,
		Dense: func(allowed func() (map[int64]bool, error)) (retrieve.Path, error) {
			return v.densePath(ctx, f, player, allowed)
		},
		Entity: func() (retrieve.Entity, error) {
			ents, err := v.Entities(ctx, player)
			if err != nil {
				return retrieve.Entity{}, err
			}
			return retrieve.Entity{Index: v.store, Matcher: ents.Matcher, Entities: ents.Entities, Units: ents.Units}, nil
		},
	}
}

// densePath returns the dense path over v's dense index, nil when there
// is none, leaving out what f, allowed and the caller's visibility do.
func (v *Snapshot) densePath(ctx context.Context, f store.Filter, player bool, allowed func() (map[int64]bool, error)) (retrieve.Path, error) {
	ix, err := v.Dense(ctx)
	if err != nil || ix == nil {
		return nil, err
	}
	scope := dense.Scope{Allow: allowed, Restricted: func() (map[int64]bool, error) { return v.Restricted(ctx) }}
	return ix.Path(retrieve.Dense{Embedder: v.Embedder, Index: v.store, Public: player}, f, scope)
}

// SearchVectors makes the dense path among paths find neighbours as mode
// says (see [retrieve.VectorSearch]).
func (v *Snapshot) SearchVectors(ctx context.Context, paths []retrieve.Path, mode retrieve.VectorSearch) error {
	if mode == retrieve.VectorsAuto {
		return nil
	}
	if mode != retrieve.VectorsExact && mode != retrieve.VectorsApprox {
		return fmt.Errorf("unknown vector search mode %d", mode)
	}
	index := func() (*dense.Index, error) { return v.Dense(ctx) }
	restricted := func() (map[int64]bool, error) { return v.Restricted(ctx) }
	return dense.SearchAs(ctx, paths, mode == retrieve.VectorsExact, index, restricted)
}

// Through returns f as the paths apply it: its UntilSession resolved into
// the sessions up to it that the caller may see (see [store.Filter.Through]);
// ok is false when it lets no session through, and then nothing matches.
func (v *Snapshot) Through(ctx context.Context, f store.Filter, player bool) (g store.Filter, ok bool, err error) {
	if f.UntilSession <= 0 {
		return f, true, nil
	}
	held, err := v.Sessions(ctx, player)
	if err != nil {
		return f, false, err
	}
	g, ok = f.Through(held)
	return g, ok, nil
}
