// Package dense owns the dense retrieval path's index: the vectors of one
// embedder, loaded from a store, and how they are searched. Below the ANN
// threshold the vectors are read and scanned exactly; at or above it the
// HNSW graph that ingest built and stored is loaded (mapped from its file
// when the store keeps one) and walked, the exact scan sharing the graph's
// own copy of the vectors. A store that searches its vectors itself
// ([store.VectorSearcher]) is left to do so: nothing is loaded.
//
// At ingest, [Update] embeds the chunks that have no vector and keeps the
// stored graph in step: kept when it was built over exactly the chunks
// that have a vector now, added to when few changed (tombstones of removed
// chunks included), built anew otherwise.
//
// It guarantees that a search never sees a graph that lacks a chunk that
// has a vector, that what is wrong with the stored vectors or graph is said
// in a warning returned to the caller (never logged here), and that an
// index, once loaded, does not change: a new generation loads a new one.
package dense

import (
	"context"
	"fmt"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/internal/lazy"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// Store is what the dense index reads and writes of a store: the vectors
// and their graphs, the chunks' version and filter, and the settings that
// remember what ingest last did.
type Store interface {
	store.VectorStore
	store.ChunkFilter
	store.Settings
	// ChunksVersion is [store.Catalog.ChunksVersion].
	ChunksVersion(ctx context.Context) (string, error)
}

// Options are the dense index's settings.
type Options struct {
	// Threshold is the number of vectors from which search walks the
	// graph; 0 means [vector.DefaultThreshold].
	Threshold int
}

// ANNThreshold is the number of vectors from which search walks the
// graph.
func (o Options) ANNThreshold() int {
	if o.Threshold > 0 {
		return o.Threshold
	}
	return vector.DefaultThreshold
}

// Index is the loaded dense index of one embedder over one generation of
// a store, or the store that searches the vectors itself. It is safe for
// concurrent use.
type Index struct {
	st    Store
	model string
	// own searches the vectors itself ([store.VectorSearcher]): nothing
	// below is loaded but exactly, and that only for an exact search.
	own     store.VectorSearcher
	exactly lazy.Value[*vector.Exact]
	vectors *store.Vectors
	exact   *vector.Exact
	search  vector.Searcher
	missing int
	// gone counts the graph's tombstones: vectors of chunks that no
	// longer exist (see updateGraph).
	gone int
	// graph is the HNSW graph built for an approximate search when search
	// scans exactly.
	graph lazy.Value[*vector.HNSW]
}

// Load loads the vectors of em (nil when em is nil or has none), unless
// the store searches them itself ([store.VectorSearcher]). Below the ANN
// threshold they are read and scanned exactly. At or above it, the graph
// that ingest built and stored is loaded instead, and the exact scan
// shares the graph's own copy of the vectors: one copy in memory, and no
// vector read from the index's rows. When that graph is missing or out of
// date, the vectors are read and scanned exactly, and a warning says so.
// Warnings are returned, not given: the caller gives them outside its
// locks (or drops them).
func Load(ctx context.Context, st Store, em embed.Embedder, opts Options) (*Index, []string, error) {
	if em == nil {
		return nil, nil, nil
	}
	model := em.ID()
	if vs, ok := st.(store.VectorSearcher); ok {
		// The store searches its vectors itself: none is read here, and
		// nothing is loaded but a count saying whether there are any.
		counts, err := st.EmbeddingCounts(ctx)
		if err != nil || counts[model] == 0 {
			return nil, nil, err
		}
		return &Index{st: st, model: model, own: vs}, nil, nil
	}
	// One read of the ids that have a vector: how many decides between
	// the graph and the exact scan, and the graph must hold them all.
	ids, missing, err := st.VectorIDs(ctx, model)
	if err != nil || len(ids) == 0 {
		return nil, nil, err
	}
	var warnings []string
	if len(ids) >= opts.ANNThreshold() {
		ix, warned, err := loadGraph(ctx, st, model, ids, missing)
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, warned...)
		if ix != nil {
			return ix, appendMissing(warnings, ix.missing, model), nil
		}
		warnings = append(warnings, fmt.Sprintf("the vector graph of %q is missing or out of date: searching exactly until the next oraculo ingest rebuilds it", model))
	}
	ix, err := loadExact(ctx, st, model)
	if err != nil || ix == nil {
		return nil, nil, err
	}
	return ix, appendMissing(warnings, ix.missing, model), nil
}

// loadExact reads the vectors of model into an exact scan (nil when there
// is none).
func loadExact(ctx context.Context, st Store, model string) (*Index, error) {
	vs, missing, err := st.LoadVectors(ctx, model)
	if err != nil || len(vs.IDs) == 0 {
		return nil, err
	}
	ex, err := vector.NewExactFromMatrix(vs.Dims, vs.IDs, vs.Data)
	if err != nil {
		return nil, fmt.Errorf("loading vectors of %q: %w", vs.Model, err)
	}
	return &Index{st: st, model: vs.Model, vectors: vs, exact: ex, search: ex, missing: missing}, nil
}

// appendMissing adds to warnings the one saying that missing chunks have
// no vector for model yet, when some have none.
func appendMissing(warnings []string, missing int, model string) []string {
	if missing == 0 {
		return warnings
	}
	return append(warnings, fmt.Sprintf("%d chunks have no vector for %q yet: run oraculo ingest to embed them", missing, model))
}

// loadGraph loads the stored graph of model when it holds every chunk that
// has a vector now (ids) and at most maxTombstones others (nil otherwise), with
// an exact index over the graph's own vectors. A store that keeps its
// graphs in files maps them ([store.GraphMapper]): nothing is copied, the
// pages are read as searches touch them and shared between processes.
// When that fails the graph is decoded into memory, and a warning says why.
func loadGraph(ctx context.Context, st Store, model string, ids []int64, missing int) (*Index, []string, error) {
	h, warning, err := storedGraph(ctx, st, model)
	if err != nil || h == nil {
		return nil, nil, err
	}
	var warnings []string
	if warning != "" {
		warnings = append(warnings, warning)
	}
	if !graphHolds(h, ids) {
		return nil, nil, nil
	}
	mode, _, err := storedChoice(ctx, st, model)
	if err != nil {
		return nil, nil, err
	}
	var search vector.Searcher = h
	if mode == searchScan {
		search = codeScan{h}
	}
	gids, data := h.Matrix()
	vs := &store.Vectors{Model: model, Dims: h.Dims(), IDs: gids, Data: data}
	return &Index{st: st, model: model, vectors: vs, exact: h.Exact(), search: search, missing: missing, gone: len(gids) - len(ids)}, warnings, nil
}

// storedGraph returns the stored graph of model (nil when there is none
// or it cannot be read), mapped from its file when the store keeps one
// ([store.GraphMapper]), else decoded into memory; warning says why a
// graph that should have been mapped was read instead.
func storedGraph(ctx context.Context, st Store, model string) (h *vector.HNSW, warning string, err error) {
	graphs, ok := st.(store.GraphStore)
	if !ok {
		return nil, "", nil
	}
	if m, ok := st.(store.GraphMapper); ok {
		h, err := m.MapGraph(ctx, model)
		if err == nil {
			return h, "", nil
		}
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		warning = fmt.Sprintf("%v: reading it into memory instead", err)
	}
	r, err := graphs.GraphReader(ctx, model)
	if err != nil || r == nil {
		return nil, warning, err
	}
	defer r.Close()
	if h, err = vector.LoadHNSW(r); err != nil {
		return nil, warning, nil
	}
	return h, warning, nil
}
