package summary

import (
	"context"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/retrieve"
)

// Retrieval says how a search runs on the index now.
type Retrieval struct {
	// Paths are the retrieval paths available, in order: BM25 always;
	// dense when an embedder is set and the index holds vectors for it;
	// entity when the compendium has entities. For a player every path
	// leaves DM-only notes out before ranking.
	Paths []string `json:"paths"`
	// DenseModel and DenseVectors name the dense path's embedder and count
	// the vectors it searches; Graph says whether it walks the HNSW graph
	// ingest builds (at or above the engine's ANN threshold), or the
	// store's own vector index ([store.VectorSearcher]), instead of
	// scanning them.
	DenseModel   string `json:"dense_model,omitempty"`
	DenseVectors int    `json:"dense_vectors,omitempty"`
	Graph        bool   `json:"graph"`
	// DenseScan says that the graph's int8 codes are scanned rather than
	// the graph walked: the build's choice when the walk's recall fell
	// short ([dense.Count.CodeScan]).
	DenseScan bool `json:"dense_scan,omitempty"`
}

// Entities gives the compendium an audience searches (a snapshot's).
type Entities interface {
	Entities(ctx context.Context, public bool) (*compendium.State, error)
}

// RetrievalOf says which paths a search by the audience would use, with
// em (nil without an embedder) over st's vectors, without loading them
// (a count says whether there are any).
func RetrievalOf(ctx context.Context, st dense.Store, em embed.Embedder, opts dense.Options, ents Entities, public bool) (Retrieval, error) {
	r := Retrieval{Paths: []string{retrieve.PathBM25}}
	if em != nil {
		n, err := dense.CountOf(ctx, st, em.ID(), opts)
		if err != nil {
			return r, err
		}
		if n.Vectors > 0 {
			r.Paths = append(r.Paths, retrieve.PathDense)
			r.DenseModel, r.DenseVectors, r.Graph, r.DenseScan = em.ID(), n.Vectors, n.Graph, n.CodeScan
		}
	}
	state, err := ents.Entities(ctx, public)
	if err != nil {
		return r, err
	}
	if len(state.Entities) > 0 {
		r.Paths = append(r.Paths, retrieve.PathEntity)
	}
	return r, nil
}
