package dense

import (
	"context"
	"fmt"

	"github.com/oraculo/oraculo/internal/interruptible"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// Scope gives the chunks a search may return when the index, not the
// store, leaves the others out: the caller's, which it may keep with its
// view of the store.
type Scope struct {
	// Allow returns the chunks the search's filter keeps (nil: all).
	Allow func() (map[int64]bool, error)
	// Restricted returns the DM-only chunks, left out of a player's
	// search ([retrieve.Dense.Public]).
	Restricted func() (map[int64]bool, error)
}

// Path returns d searching this index: through the store's own search,
// whose query applies visibility and the filter f, or through the loaded
// vectors, with scope's chunks as d's Allow and Exclude.
func (ix *Index) Path(d retrieve.Dense, f store.Filter, scope Scope) (retrieve.Dense, error) {
	if ix.own != nil {
		d.Store, d.Filter = ix.own, f
		return d, nil
	}
	d.Searcher, d.Gone = ix.search, ix.gone
	var err error
	if d.Allow, err = scope.Allow(); err != nil {
		return d, err
	}
	if d.Public {
		if d.Exclude, err = scope.Restricted(); err != nil {
			return d, err
		}
	}
	return d, nil
}

// Exact returns d scanning every vector exactly. On a store that searches
// its vectors itself, the vectors are loaded on first use and kept with
// the index (for an exact search only, never for one that does not ask
// for it), and the visibility and the filter the store's query applies
// become the scan's Exclude (restricted's chunks) and Allow.
func (ix *Index) Exact(ctx context.Context, d retrieve.Dense, restricted func() (map[int64]bool, error)) (retrieve.Dense, error) {
	if ix.own == nil {
		d.Searcher = ix.exact
		return d, nil
	}
	ex, _, err := ix.exactly.Get(func() (*vector.Exact, error) {
		vs, _, err := ix.st.LoadVectors(ctx, ix.model)
		if err != nil {
			return nil, err
		}
		if len(vs.IDs) == 0 {
			return nil, fmt.Errorf("loading vectors of %q: no chunk has one", ix.model)
		}
		return vector.NewExactFromMatrix(vs.Dims, vs.IDs, vs.Data)
	})
	if err != nil {
		return d, err
	}
	if !d.Filter.IsZero() {
		if d.Allow, err = ix.st.FilterChunks(ctx, d.Filter); err != nil {
			return d, err
		}
	}
	if d.Public {
		if d.Exclude, err = restricted(); err != nil {
			return d, err
		}
	}
	d.Store, d.Searcher = nil, ex
	return d, nil
}

// Approx returns d searching approximately: the store's own index when it
// searches its vectors itself, the graph as search uses it (walked, or
// its codes scanned when the build chose so), or, while search scans
// exactly, a graph built on first use and kept with the vectors.
func (ix *Index) Approx(ctx context.Context, d retrieve.Dense) (retrieve.Dense, error) {
	if ix.own != nil {
		return d, nil
	}
	switch s := ix.search.(type) {
	case *vector.HNSW, codeScan:
		d.Searcher = s
		return d, nil
	}
	h, _, err := ix.graph.Get(func() (*vector.HNSW, error) { return interruptible.Run(ctx, ix.buildHNSW) })
	if err != nil {
		return d, err
	}
	d.Searcher = h
	return d, nil
}

// buildHNSW builds an approximate graph over the loaded vectors.
func (ix *Index) buildHNSW() (*vector.HNSW, error) {
	v := ix.vectors
	h := vector.NewHNSW(v.Dims, vector.HNSWOptions{})
	rows := make([][]float32, len(v.IDs))
	for i := range v.IDs {
		rows[i] = v.Data[i*v.Dims : (i+1)*v.Dims]
	}
	if err := h.AddBatch(v.IDs, rows); err != nil {
		return nil, fmt.Errorf("building the vector graph: %w", err)
	}
	return h, nil
}
