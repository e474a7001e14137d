package vector

import (
	"errors"
	"fmt"
	"io"
)

// ErrNoVectors reports a search of a graph that keeps no float32 vector
// ([BuildHNSWCodes]): it is to be saved ([HNSW.SaveRows]), then mapped
// or loaded, to be searched.
var ErrNoVectors = errors.New("vector: the graph keeps no vector (built from codes): save it to search it")

// Rows streams vectors in order: it calls yield with each id and vector,
// which yield neither keeps nor changes, and stops at, and returns, the
// first error yield returns.
type Rows func(yield func(id int64, v []float32) error) error

// BuildHNSWCodes builds a graph over the vectors rows gives (n of them,
// a hint that sizes the graph), reading each once and keeping only its
// int8 codes (dims rounded up to 32 bytes, a quarter of the vector), not
// the vector: the build holds the codes and the links, so at 1M vectors
// of 1,024 dimensions it needs about 1.2 GB where [BuildHNSW] needs 5.
// Every score of the build is on codes (the walks, the choice of the
// neighbours and the pruning of their links), and the nodes are inserted
// in parallel as [HNSW.AddBatch] inserts them.
//
// The graph cannot be searched ([ErrNoVectors]) nor its vectors read
// ([HNSW.Matrix]); [HNSW.SaveRows] saves it with its vectors read again
// from the same rows, after which [MapHNSW] or [LoadHNSW] gives a graph
// to search. The vectors are checked as [HNSW.AddBatch] checks them; a
// bad one or a repeated id is an error and no graph is returned.
func BuildHNSWCodes(dims, n int, rows Rows, opts HNSWOptions) (*HNSW, error) {
	if dims < 1 || dims > maxDims {
		return nil, fmt.Errorf("%w: %d dimensions", ErrDims, dims)
	}
	h := NewHNSW(dims, opts)
	h.codesOnly = true
	h.grow(max(n, 0))
	err := rows(func(id int64, v []float32) error {
		if err := checkVec(dims, v); err != nil {
			return fmt.Errorf("vector %d: %w", id, err)
		}
		if err := h.vacant(id); err != nil {
			return err
		}
		h.appendNode(id, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	h.insertAll(0, uint32(len(h.ids)))
	return h, nil
}

// SaveRows writes a graph built by [BuildHNSWCodes] as [HNSW.Save] writes
// one, in the same format, with its vectors read from rows, which must
// give the graph's ids in the graph's order (those it was built from, in
// the same order): a different id or count is an error. Of a graph that
// keeps its vectors, rows is not read and SaveRows is Save.
func (h *HNSW) SaveRows(w io.Writer, rows Rows) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if !h.codesOnly {
		rows = nil
	}
	return h.save(w, hnswVersion, rows)
}

// writeVectors writes the vectors of the graph: its own, or those rows
// gives (SaveRows).
func (h *HNSW) writeVectors(bw *binWriter, rows Rows) {
	if !h.codesOnly {
		bw.f32s(h.vecs)
		return
	}
	if rows == nil {
		bw.err = ErrNoVectors
		return
	}
	i := 0
	err := rows(func(id int64, v []float32) error {
		if i >= len(h.ids) || h.ids[i] != id {
			return fmt.Errorf("vector: row %d is chunk %d, not the graph's", i, id)
		}
		if err := checkVec(h.dims, v); err != nil {
			return fmt.Errorf("vector %d: %w", id, err)
		}
		bw.f32s(v)
		i++
		return bw.err
	})
	if err == nil && i != len(h.ids) {
		err = fmt.Errorf("vector: %d rows for a graph of %d", i, len(h.ids))
	}
	if err != nil && bw.err == nil {
		bw.err = err
	}
}
