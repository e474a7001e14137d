// Package summary counts what an index holds, for one audience: the
// figures of `oraculo stats` ([Stats]) and what a chat page shows before
// the first question ([Overview]). It only reads: each function takes the
// store roles it counts with, and whether the audience is the players,
// and leaves the DM-only notes out of a player's figures.
package summary

import (
	"context"

	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/store"
)

// Stats describes the index.
type Stats struct {
	store.Stats
	Path     string          `json:"path"`
	Settings ingest.Settings `json:"settings"`
	// Entities is the size of the compendium; Vectors counts the stored
	// vectors of each embedding model.
	Entities int            `json:"entities"`
	Vectors  map[string]int `json:"vectors"`
	// Annotations counts the chunk annotations of each chat model and
	// prompt version ("model prompt").
	Annotations map[string]int `json:"annotations"`
	// DMOnly says which notes players never see, and why.
	DMOnly DMOnly `json:"dm_only"`
	// Retrieval says how a search runs on the index now.
	Retrieval Retrieval `json:"retrieval"`
}

// Source is what the stats read of the store.
type Source interface {
	Stats(ctx context.Context) (store.Stats, error)
	Path() string
	EntityCount(ctx context.Context, scope string) (int, error)
	EmbeddingCounts(ctx context.Context) (map[string]int, error)
	AnnotationCounts(ctx context.Context) (map[string]int, error)
	DMOnlySource
}

// Engine is what the stats take from the engine rather than the store,
// each read when its figure is counted.
type Engine struct {
	Settings func() ingest.Settings
	// SecretFolders resolves the folders whose notes are DM-only.
	SecretFolders func(context.Context) ([]string, error)
	// Retrieval says how a search runs now (see [RetrievalOf]).
	Retrieval func(context.Context) (Retrieval, error)
}

// Read counts what src holds: the first error stops it.
func Read(ctx context.Context, src Source, e Engine) (Stats, error) {
	s, err := src.Stats(ctx)
	if err != nil {
		return Stats{}, err
	}
	out := Stats{Stats: s, Path: src.Path()}
	if out.Entities, err = src.EntityCount(ctx, store.ScopeDM); err != nil {
		return Stats{}, err
	}
	if out.Vectors, err = src.EmbeddingCounts(ctx); err != nil {
		return Stats{}, err
	}
	if out.Annotations, err = src.AnnotationCounts(ctx); err != nil {
		return Stats{}, err
	}
	if out.DMOnly, err = DMOnlyOf(ctx, src, e.SecretFolders); err != nil {
		return Stats{}, err
	}
	if out.Retrieval, err = e.Retrieval(ctx); err != nil {
		return Stats{}, err
	}
	out.Settings = e.Settings()
	return out, nil
}
