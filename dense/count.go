package dense

import (
	"context"

	"github.com/oraculo/oraculo/store"
)

// Count is what the dense path of one model would search, counted
// without loading a vector.
type Count struct {
	// Vectors counts the chunks that have a vector for the model: 0, and
	// there is no dense path.
	Vectors int
	// Graph says whether the path walks a graph (the store's own vector
	// index, or the HNSW graph ingest builds at or above the threshold)
	// rather than scanning every vector.
	Graph bool
	// CodeScan says that the build chose to scan the graph's int8 codes
	// rather than walk it: the walk's recall@10 on the index's own
	// vectors fell short (vectors with little structure).
	CodeScan bool
}

// CountOf counts model's vectors in st and says how they are searched.
func CountOf(ctx context.Context, st Store, model string, opts Options) (Count, error) {
	rows, err := st.VectorRows(ctx, model)
	if err != nil {
		return Count{}, err
	}
	_, own := st.(store.VectorSearcher)
	c := Count{Vectors: rows, Graph: own || rows >= opts.ANNThreshold()}
	if c.Graph && !own {
		mode, _, err := storedChoice(ctx, st, model)
		if err != nil {
			return Count{}, err
		}
		c.CodeScan = mode == searchScan
	}
	return c, nil
}
