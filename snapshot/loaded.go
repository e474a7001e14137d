package snapshot

import (
	"context"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/notelink"
)

// scope is 1 for a player's part of a snapshot, else 0.
func scope(player bool) int {
	if player {
		return 1
	}
	return 0
}

// Dense returns the dense path's state (nil when there is no embedder or
// no vector for it), loading it on first use; the load's warnings go to
// [Options.Warn] once, after it.
func (v *Snapshot) Dense(ctx context.Context) (*dense.Index, error) {
	var warnings []string
	ix, _, err := v.dense.Get(func() (*dense.Index, error) {
		ix, w, err := dense.Load(ctx, v.store, v.Embedder, v.opts.Dense)
		warnings = w
		return ix, err
	})
	for _, w := range warnings {
		if v.opts.Warn != nil {
			v.opts.Warn(w)
		}
	}
	return ix, err
}

// Entities returns the compendium a player, or the DM, may see, with its
// matcher (see [compendium.Load]).
func (v *Snapshot) Entities(ctx context.Context, player bool) (*compendium.State, error) {
	st, _, err := v.entities[scope(player)].Get(func() (*compendium.State, error) {
		return compendium.Load(ctx, v.store, player)
	})
	return st, err
}

// Restricted returns the ids of the DM-only chunks.
func (v *Snapshot) Restricted(ctx context.Context) (map[int64]bool, error) {
	r, _, err := v.restricted.Get(func() (map[int64]bool, error) {
		return v.store.RestrictedChunks(ctx)
	})
	return r, err
}

// Sessions returns the session numbers a player, or the DM, may see.
func (v *Snapshot) Sessions(ctx context.Context, player bool) ([]int, error) {
	s, _, err := v.sessions[scope(player)].Get(func() ([]int, error) {
		return v.store.Sessions(ctx, player)
	})
	return s, err
}

// Notes returns the names of the notes a player, or the DM, may see (see
// [notelink.Load]).
func (v *Snapshot) Notes(ctx context.Context, player bool) (*notelink.Directory, error) {
	d, _, err := v.notes[scope(player)].Get(func() (*notelink.Directory, error) {
		return notelink.Load(ctx, v.store, player)
	})
	return d, err
}
