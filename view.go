package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/snapshot"
)

// snapshot returns the snapshot of the index's current generation (see
// package snapshot), publishing a new one when the generation changed
// since the last (another process's ingest included) or the last was
// dropped. A search or an answer reads it once and passes it on.
func (e *Engine) snapshot(ctx context.Context) (*snapshot.Snapshot, error) {
	gen, err := snapshot.Generation(ctx, e.idx)
	if err != nil {
		return nil, err
	}
	if v := e.view.Load(); v != nil && v.Generation == gen {
		return v, nil
	}
	e.viewMu.Lock()
	defer e.viewMu.Unlock()
	if v := e.view.Load(); v != nil && v.Generation == gen {
		return v, nil
	}
	v, err := snapshot.Open(ctx, e.idx, gen, e.Embedder(), snapshot.Options{Dense: e.denseOptions(), Warn: e.Warn})
	if err != nil {
		return nil, err
	}
	e.view.Store(v)
	return v, nil
}

// invalidate drops the published snapshot: the next search makes a new
// one. Called when what a snapshot holds changed without a new generation
// (a new embedder, a compendium or visibility decisions written by this
// engine).
func (e *Engine) invalidate() {
	e.view.Store(nil)
}
