package oraculo

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/store"
)

// Open opens the index file, creating it if needed, with the models and
// warning sink the options name.
func Open(ctx context.Context, dbPath string, opts ...Option) (*Engine, error) {
	idx, err := index.Open(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	return OpenStore(ctx, idx, opts...)
}

// OpenStore opens an engine over a store other than an index file (see
// package store); the engine closes it with [Engine.Close], also when
// OpenStore fails.
func OpenStore(ctx context.Context, s store.Store, opts ...Option) (*Engine, error) {
	e := &Engine{idx: s}
	if err := e.open(ctx, opts); err != nil {
		s.Close()
		return nil, err
	}
	return e, nil
}

// open reads the index's settings, decides again the notes of an index
// written before the current visibility rules (they are DM-only until
// then), and configures the engine as opts say.
func (e *Engine) open(ctx context.Context, opts []Option) error {
	if _, err := e.loadSettings(ctx, IngestOptions{}); err != nil {
		return err
	}
	if _, err := e.settleVisibility(ctx, IngestOptions{}); err != nil {
		return fmt.Errorf("opening index %q: %w", e.idx.Path(), err)
	}
	return e.configure(ctx, opts)
}

// OpenExisting opens an index that must already exist: read-only commands
// use it so that a mistyped path is an error, not a new empty index.
func OpenExisting(ctx context.Context, dbPath string, opts ...Option) (*Engine, error) {
	if _, err := os.Stat(dbPath); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("index %q does not exist: run `oraculo ingest` first: %w", dbPath, ErrNotIndexed)
		}
		return nil, fmt.Errorf("opening index %q: %w", dbPath, err)
	}
	return Open(ctx, dbPath, opts...)
}
