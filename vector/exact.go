package vector

import (
	"fmt"
	"runtime"
	"sync"
)

// Exact is the reference searcher: a flat float32 matrix (one contiguous
// []float32, row i holding the vector of ids[i]) scanned in full with [Dot]
// on every Search. The scan is split across GOMAXPROCS goroutines, each
// keeping a bounded heap of the k best rows, and the heaps are merged. It is
// exact, needs no build step and costs 4·dims bytes per vector plus the id.
//
// It is safe for concurrent use; Add excludes Search.
type Exact struct {
	idTable[int32]
	data []float32 // len(ids)*dims
	// owner keeps alive what data and ids point into (a mapped graph).
	owner any
}

// NewExact returns an empty exact index of vectors with dims dimensions. A
// dims < 1 gives an index whose Add and Search return [ErrDims].
func NewExact(dims int) *Exact {
	return &Exact{idTable: idTable[int32]{dims: dims, byID: make(map[int64]int32)}}
}

// NewExactFromMatrix builds an exact index over a flat matrix: row i of data
// (data[i*dims:(i+1)*dims]) is the vector of ids[i]. It takes ownership of
// data and ids (no copy): the fast way to load many vectors at once, e.g.
// decoded from SQLite. It returns an error on a length mismatch, a duplicate
// id or a non-finite value.
func NewExactFromMatrix(dims int, ids []int64, data []float32) (*Exact, error) {
	if dims < 1 || dims > maxDims {
		return nil, fmt.Errorf("%w: %d (must be 1..%d)", ErrDims, dims, maxDims)
	}
	if len(data) != len(ids)*dims {
		return nil, fmt.Errorf("%w: %d values for %d ids of %d dimensions", ErrDims, len(data), len(ids), dims)
	}
	if len(ids) > maxRows {
		return nil, fmt.Errorf("vector: %d vectors exceed the limit of %d", len(ids), maxRows)
	}
	e := &Exact{idTable: idTable[int32]{dims: dims, ids: ids, byID: make(map[int64]int32, len(ids))}, data: data}
	for i, id := range ids {
		if _, dup := e.byID[id]; dup {
			return nil, fmt.Errorf("%w: %d", ErrDuplicateID, id)
		}
		e.byID[id] = int32(i)
		if err := checkVec(dims, data[i*dims:(i+1)*dims]); err != nil {
			return nil, fmt.Errorf("vector of id %d: %w", id, err)
		}
	}
	return e, nil
}

// maxRows bounds the vectors of one index (row numbers are int32/uint32).
const maxRows = 1<<31 - 1

// Reserve grows the index's storage to hold n vectors in all without
// further reallocation; it is an optimisation only.
func (e *Exact) Reserve(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dims < 1 || e.dims > maxDims || n <= len(e.ids) || n > maxRows {
		return
	}
	if need := n * e.dims; cap(e.data) < need {
		d := make([]float32, len(e.data), need)
		copy(d, e.data)
		e.data = d
	}
	if cap(e.ids) < n {
		ids := make([]int64, len(e.ids), n)
		copy(ids, e.ids)
		e.ids = ids
	}
}

// Add stores v (copied) under id. It returns an error if v has the wrong
// dimensions or a non-finite value, or if id is already present.
func (e *Exact) Add(id int64, v []float32) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.claim(id, v); err != nil {
		return err
	}
	e.data = append(e.data, v...)
	return nil
}

// Vector returns a copy of the vector stored under id, if any.
func (e *Exact) Vector(id int64) ([]float32, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	i, ok := e.byID[id]
	if !ok {
		return nil, false
	}
	return append([]float32(nil), e.data[int(i)*e.dims:(int(i)+1)*e.dims]...), true
}

// minWork is the number of multiply-adds below which a scan stays on one
// goroutine: starting workers costs more than the scan itself.
const minWork = 1 << 18

// workers returns how many goroutines should share a scan of n rows of dims.
func workers(n, dims int) int {
	w := runtime.GOMAXPROCS(0)
	if byWork := n * dims / minWork; byWork < w {
		w = byWork
	}
	if w < 1 {
		w = 1
	}
	return w
}

// Search returns the k vectors most similar to q, best first, ties broken by
// smaller id; fewer if the index holds fewer. k = 0 returns no hit; k < 0,
// wrong dimensions or a non-finite q are errors.
func (e *Exact) Search(q []float32, k int) ([]Hit, error) {
	if err := checkQuery(e.dims, q, k); err != nil {
		return nil, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	n := len(e.ids)
	if k > n {
		k = n
	}
	if k == 0 {
		return []Hit{}, nil
	}
	return scanFloat(e.data, e.ids, e.dims, q, k), nil
}

// scanFloat scores every row of data against q and returns the k best, best
// first. The rows are split into one contiguous range per worker.
func scanFloat(data []float32, ids []int64, dims int, q []float32, k int) []Hit {
	return scanTop(len(ids), workers(len(ids), dims), k, func(t *topK, lo, hi int) {
		scanRange(t, data, ids, dims, q, lo, hi)
	})
}

// scanTop splits rows 0..n-1 into w contiguous ranges, has scan push each
// range's rows into a heap of its k best (on the caller's goroutine when w
// is 1, else one goroutine a range), and returns the k best of all, best
// first.
func scanTop(n, w, k int, scan func(t *topK, lo, hi int)) []Hit {
	heaps := make([]*topK, w)
	var wg sync.WaitGroup
	for i := range w {
		lo, hi := i*n/w, (i+1)*n/w
		heaps[i] = newTopK(min(k, hi-lo))
		if w == 1 {
			scan(heaps[i], lo, hi)
			break
		}
		wg.Add(1)
		go func(t *topK) {
			defer wg.Done()
			scan(t, lo, hi)
		}(heaps[i])
	}
	wg.Wait()
	return mergeTops(heaps, k)
}

// scanRange pushes rows lo..hi-1 into t.
func scanRange(t *topK, data []float32, ids []int64, dims int, q []float32, lo, hi int) {
	for i := lo; i < hi; i++ {
		s := Dot(q, data[i*dims:(i+1)*dims])
		if t.full() {
			// Cheap rejection before building a Hit: most rows lose here.
			w := t.worst()
			if s < w.Score || (s == w.Score && ids[i] > w.ID) {
				continue
			}
		}
		t.push(Hit{ID: ids[i], Score: s})
	}
}

// mergeTops concatenates per-worker heaps and returns the k best, best first.
func mergeTops(heaps []*topK, k int) []Hit {
	total := 0
	for _, t := range heaps {
		total += len(t.h)
	}
	all := make([]Hit, 0, total)
	for _, t := range heaps {
		all = append(all, t.h...)
	}
	sortHits(all)
	if len(all) > k {
		all = all[:k:k]
	}
	return all
}
