package oraculo

import (
	"context"
	"time"

	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// Stats describes the index.
type Stats struct {
	store.Stats
	Path     string   `json:"path"`
	Settings Settings `json:"settings"`
	// Entities is the size of the compendium; Vectors counts the stored
	// vectors of each embedding model.
	Entities int            `json:"entities"`
	Vectors  map[string]int `json:"vectors"`
	// Annotations counts the chunk annotations of each chat model and
	// prompt version ("model prompt").
	Annotations map[string]int `json:"annotations"`
	// DMOnly says which notes players never see, and why.
	DMOnly DMOnlyStats `json:"dm_only"`
	// Retrieval says how a search runs on the index now.
	Retrieval RetrievalStats `json:"retrieval"`
}

// RetrievalStats says how a search runs on the index now.
type RetrievalStats struct {
	// Paths are the retrieval paths available, in order: BM25 always;
	// dense when an embedder is set and the index holds vectors for it;
	// entity when the compendium has entities. For a player (see
	// [WithRole]) every path leaves DM-only notes out before ranking.
	Paths []string `json:"paths"`
	// DenseModel and DenseVectors name the dense path's embedder and count
	// the vectors it searches; Graph says whether it walks the HNSW graph
	// ingest builds (at or above [WithANNThreshold] vectors), or the
	// store's own vector index ([store.VectorSearcher]), instead of
	// scanning them.
	DenseModel   string `json:"dense_model,omitempty"`
	DenseVectors int    `json:"dense_vectors,omitempty"`
	Graph        bool   `json:"graph"`
}

// retrievalStats says which paths a search would use, without loading
// the vectors (a count says whether there are any).
func (e *Engine) retrievalStats(ctx context.Context) (RetrievalStats, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return RetrievalStats{}, err
	}
	r := RetrievalStats{Paths: []string{retrieve.PathBM25}}
	if v.Embedder != nil {
		n, err := dense.CountOf(ctx, e.idx, v.Embedder.ID(), e.denseOptions())
		if err != nil {
			return r, err
		}
		if n.Vectors > 0 {
			r.Paths = append(r.Paths, retrieve.PathDense)
			r.DenseModel, r.DenseVectors, r.Graph = v.Embedder.ID(), n.Vectors, n.Graph
		}
	}
	ents, err := v.Entities(ctx, isPlayer(ctx))
	if err != nil {
		return r, err
	}
	if len(ents.Entities) > 0 {
		r.Paths = append(r.Paths, retrieve.PathEntity)
	}
	return r, nil
}

// DMOnlyStats counts the DM-only notes.
type DMOnlyStats struct {
	Notes int `json:"notes"`
	// ByReason counts them by what made them DM-only: "folder" (a secret
	// folder), "link" (a link into one), "front-matter", "tag", "unclear"
	// (a visibility setting that was not understood), "unknown" (not
	// decided yet).
	ByReason      map[string]int `json:"by_reason"`
	SecretFolders []string       `json:"secret_folders"`
	// PlayersCompendium is "withheld" while the players' compendium waits
	// for a complete ingest to rebuild it, else "ok".
	PlayersCompendium string `json:"players_compendium"`
}

// Overview is what the caller's role may know of the index at a glance:
// what a chat page shows before the first question.
type Overview struct {
	// Notes and Sessions count the notes and sessions the role sees: a
	// player's leave DM-only notes out.
	Notes    int `json:"notes"`
	Sessions int `json:"sessions"`
	// Updated is when the index last changed (an ingest finished, or notes
	// were decided again); nil before the first ingest.
	Updated *time.Time `json:"updated"`
	// Model is the chat model that writes answers (its ID), "" when
	// answers are extractive.
	Model string `json:"model"`
}

// Overview counts what the caller's role sees of the index and names the
// model that answers.
func (e *Engine) Overview(ctx context.Context) (Overview, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return Overview{}, err
	}
	s, err := e.idx.Stats(ctx)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{Notes: s.Documents}
	if isPlayer(ctx) {
		dm, err := e.idx.DMOnlyCounts(ctx)
		if err != nil {
			return Overview{}, err
		}
		for _, n := range dm {
			o.Notes -= n
		}
	}
	sessions, err := v.Sessions(ctx, isPlayer(ctx))
	if err != nil {
		return Overview{}, err
	}
	o.Sessions = len(sessions)
	if t, ok := v.GenerationTime(); ok {
		o.Updated = &t
	}
	if m := e.ChatModel(); m != nil {
		o.Model = m.ID()
	}
	return o, nil
}

// Stats counts what the index holds.
func (e *Engine) Stats(ctx context.Context) (Stats, error) {
	s, err := e.idx.Stats(ctx)
	if err != nil {
		return Stats{}, err
	}
	ents, err := e.idx.EntityCount(ctx, store.ScopeDM)
	if err != nil {
		return Stats{}, err
	}
	vecs, err := e.idx.EmbeddingCounts(ctx)
	if err != nil {
		return Stats{}, err
	}
	notes, err := e.idx.AnnotationCounts(ctx)
	if err != nil {
		return Stats{}, err
	}
	dm := DMOnlyStats{PlayersCompendium: "ok"}
	if dm.ByReason, err = e.idx.DMOnlyCounts(ctx); err != nil {
		return Stats{}, err
	}
	for _, n := range dm.ByReason {
		dm.Notes += n
	}
	if dm.SecretFolders, err = e.secretFolders(ctx, IngestOptions{}); err != nil {
		return Stats{}, err
	}
	if stale, err := e.idx.PlayersCompendiumStale(ctx); err != nil {
		return Stats{}, err
	} else if stale {
		dm.PlayersCompendium = "withheld"
	}
	r, err := e.retrievalStats(ctx)
	if err != nil {
		return Stats{}, err
	}
	return Stats{Stats: s, Path: e.idx.Path(), Settings: e.Settings(), Entities: ents, Vectors: vecs, Annotations: notes, DMOnly: dm, Retrieval: r}, nil
}
