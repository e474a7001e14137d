// Package vector finds the chunks whose embedding vectors are nearest to a
// question's vector, by cosine similarity.
//
// Every index here assumes unit-length vectors (callers normalise with
// [Normalize]), so cosine similarity is a plain dot product. Three
// implementations share the [Searcher] interface:
//
//   - [Exact] scans every vector (the reference; exact results);
//   - [HNSW] walks a hierarchical navigable small-world graph (approximate,
//     sub-linear, persistable with [HNSW.Save] and [LoadHNSW]);
//   - [Quantized] scans int8 codes and rescores an oversampled candidate set
//     with the full-precision vectors.
//
// [Auto] picks Exact or HNSW by index size. Results are ordered best first,
// ties broken by smaller id. No function in this package panics on bad input:
// wrong dimensions, duplicate ids, non-finite values, negative k and corrupt
// saved graphs are reported as errors.
package vector

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

// idTable is what every index keeps beside its vectors: their dimensions
// and ids, where each id's vector is (its row, of type P), and the lock
// that guards them. Embedded in [Exact], [Quantized] and [HNSW], it gives
// them Len, Contains and Dims.
type idTable[P int32 | uint32] struct {
	mu   sync.RWMutex
	dims int
	ids  []int64
	byID map[int64]P
}

// Len returns the number of vectors.
func (t *idTable[P]) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.ids)
}

// Contains reports whether the index holds a vector under id: with Len, a
// way to check that a loaded graph still matches the stored vectors.
func (t *idTable[P]) Contains(id int64) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	_, ok := t.byID[id]
	return ok
}

// Dims returns the dimensions of the index's vectors.
func (t *idTable[P]) Dims() int { return t.dims }

// vacant reports, under the write lock, whether id can be added: an error
// wrapping [ErrDuplicateID] when the index holds it, one when it is full.
func (t *idTable[P]) vacant(id int64) error {
	if _, dup := t.byID[id]; dup {
		return fmt.Errorf("%w: %d", ErrDuplicateID, id)
	}
	if len(t.ids) >= maxRows {
		return fmt.Errorf("vector: index full (%d vectors)", len(t.ids))
	}
	return nil
}

// claim checks v (see checkVec) and that id can be added, and records id
// as the next row, under the write lock.
func (t *idTable[P]) claim(id int64, v []float32) error {
	if err := checkVec(t.dims, v); err != nil {
		return err
	}
	if err := t.vacant(id); err != nil {
		return err
	}
	t.push(id)
	return nil
}

// push records id as the next row, under the write lock.
func (t *idTable[P]) push(id int64) {
	t.byID[id] = P(len(t.ids))
	t.ids = append(t.ids, id)
}

// Hit is one result: a caller's id and its cosine similarity to the query
// (higher is better).
type Hit struct {
	ID    int64
	Score float32
}

// Searcher finds the nearest vectors to a query. Vectors given to Add and
// queries given to Search are unit length (callers normalise);
// implementations may assume it.
//
// Add: error on wrong dims; ids are unique (adding an existing id is an
// error). Search: best first; ties broken by smaller id; k > Len() returns
// Len() hits; error on wrong dims. All implementations in this package are
// safe for concurrent use (Add excludes Search).
type Searcher interface {
	Add(id int64, v []float32) error
	Search(q []float32, k int) ([]Hit, error)
	Len() int
	Dims() int
}

// Errors returned by the indexes; match them with errors.Is.
var (
	// ErrDims reports a vector or query whose length differs from the
	// index's dimensions (or an index created with dims < 1).
	ErrDims = errors.New("vector: wrong number of dimensions")
	// ErrDuplicateID reports an Add of an id the index already holds.
	ErrDuplicateID = errors.New("vector: duplicate id")
	// ErrNonFinite reports a vector holding NaN or ±Inf.
	ErrNonFinite = errors.New("vector: non-finite value")
	// ErrBadK reports a negative k.
	ErrBadK = errors.New("vector: negative k")
	// ErrCorrupt reports a saved index that cannot be read back.
	ErrCorrupt = errors.New("vector: corrupt saved index")
)

// maxDims bounds the dimensions an index accepts; the int8 kernel of
// [Quantized] relies on it (see quantized.go) and it keeps a corrupt saved
// header from asking for absurd allocations.
const maxDims = 1 << 16

// Dot returns the dot product of a and b: the cosine similarity when both
// are unit length. If the lengths differ it uses the shorter one (callers
// check dimensions; Dot itself never panics).
//
// On amd64 CPUs with AVX2 and FMA (x86-64-v3) it runs an assembly kernel
// (dot_amd64.s: four 8-lane fused multiply-add accumulators); elsewhere, or
// built with the purego tag, the Go loop of dotGo. The two round
// differently, within a few units in the last place of the result. Each
// has a fixed summation order, so on one machine equal inputs always give
// bit-identical results (which Search relies on: a candidate's walk score
// is its exact score).
func Dot(a, b []float32) float32 {
	if len(b) < len(a) {
		a = a[:len(b)]
	}
	return dot(a, b[:len(a)])
}

// dotGo is the portable kernel of [Dot]: unrolled by 8 into four
// independent accumulators, which lets the CPU overlap the additions. It
// uses the first len(a) values of b (len(b) ≥ len(a)).
func dotGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	for len(a) >= 8 && len(b) >= 8 {
		x := a[:8:8]
		y := b[:8:8]
		s0 += x[0]*y[0] + x[4]*y[4]
		s1 += x[1]*y[1] + x[5]*y[5]
		s2 += x[2]*y[2] + x[6]*y[6]
		s3 += x[3]*y[3] + x[7]*y[7]
		a = a[8:]
		b = b[8:]
	}
	for i := range a {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Normalize scales v in place to unit length and reports whether it could:
// it returns false, leaving v unchanged, for an empty or zero vector or one
// holding NaN or ±Inf.
func Normalize(v []float32) bool {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if len(v) == 0 || s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return false
	}
	inv := 1 / math.Sqrt(s)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return true
}

// Encode returns v as little-endian IEEE-754 float32 values, 4 bytes each:
// the form stored in SQLite BLOBs. Decode reverses it.
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// Decode reads a vector of dims float32 values written by [Encode]. It
// returns an error if dims < 1 or len(b) is not 4*dims.
func Decode(b []byte, dims int) ([]float32, error) {
	if dims < 1 {
		return nil, fmt.Errorf("%w: %d bytes cannot hold %d float32 values", ErrDims, len(b), dims)
	}
	v := make([]float32, dims)
	if err := DecodeInto(v, b); err != nil {
		return nil, err
	}
	return v, nil
}

// DecodeInto reads an encoded vector into dst, which must have exactly its
// length: for filling a matrix sized up front, without a vector's
// allocation per row.
func DecodeInto(dst []float32, b []byte) error {
	if len(dst) < 1 || len(b)/4 != len(dst) || len(b)%4 != 0 {
		return fmt.Errorf("%w: %d bytes cannot hold %d float32 values", ErrDims, len(b), len(dst))
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return nil
}

// checkQuery validates a search: the query as checkVec does, and k
// ([ErrBadK] when negative).
func checkQuery(dims int, q []float32, k int) error {
	if err := checkVec(dims, q); err != nil {
		return err
	}
	if k < 0 {
		return ErrBadK
	}
	return nil
}

// checkVec validates a vector or query against the index dimensions.
func checkVec(dims int, v []float32) error {
	if dims < 1 || dims > maxDims {
		return fmt.Errorf("%w: index has %d dimensions (must be 1..%d)", ErrDims, dims, maxDims)
	}
	if len(v) != dims {
		return fmt.Errorf("%w: got %d, want %d", ErrDims, len(v), dims)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return ErrNonFinite
		}
	}
	return nil
}

// better reports whether a ranks before b: higher score, then smaller id.
func better(a, b Hit) bool {
	return a.Score > b.Score || (a.Score == b.Score && a.ID < b.ID)
}

// compareHits orders hits best first for slices.SortFunc.
func compareHits(a, b Hit) int {
	switch {
	case better(a, b):
		return -1
	case better(b, a):
		return 1
	}
	return 0
}

// sortHits sorts hits best first (score descending, id ascending).
func sortHits(h []Hit) { slices.SortFunc(h, compareHits) }

// topK keeps the k best hits seen so far in a binary heap whose root is the
// worst kept hit, so a candidate that cannot enter is rejected with one
// comparison.
type topK struct {
	k int
	h []Hit
}

func newTopK(k int) *topK {
	c := k
	if c > 1<<16 {
		c = 1 << 16 // grow on demand beyond this
	}
	return &topK{k: k, h: make([]Hit, 0, c)}
}

// push offers a hit; it is kept if it is among the k best so far.
func (t *topK) push(x Hit) {
	if len(t.h) < t.k {
		t.h = append(t.h, x)
		t.up(len(t.h) - 1)
		return
	}
	if t.k == 0 || !better(x, t.h[0]) {
		return
	}
	t.h[0] = x
	t.down(0)
}

// full reports whether k hits are kept; then worst() is the bar to beat.
func (t *topK) full() bool { return len(t.h) >= t.k }

// worst returns the worst kept hit (the root); only valid when len(h) > 0.
func (t *topK) worst() Hit { return t.h[0] }

func (t *topK) up(i int) {
	h := t.h
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[p], h[i]) { // parent is already worse or equal
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (t *topK) down(i int) {
	h := t.h
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		w := l
		if r := l + 1; r < n && better(h[l], h[r]) {
			w = r // r is worse
		}
		if !better(h[i], h[w]) {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

// dotI8Go is the portable kernel of dotI8, the dot product of two int8
// code vectors in [-127, 127] (the first len(a) values of b; len(b) ≥
// len(a)). It is exact: at most 127²·65,536 < 2^31 in magnitude.
func dotI8Go(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	for len(a) >= 4 && len(b) >= 4 {
		s0 += int32(a[0]) * int32(b[0])
		s1 += int32(a[1]) * int32(b[1])
		s2 += int32(a[2]) * int32(b[2])
		s3 += int32(a[3]) * int32(b[3])
		a, b = a[4:], b[4:]
	}
	for i := range a {
		s0 += int32(a[i]) * int32(b[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// quantizeI8 writes v's symmetric int8 codes into dst (len(v) values, each
// rounded to [-127, 127]) and returns the scale: v[i] ≈ dst[i]·scale. The
// scale is the largest |v[i]| / 127, so each vector uses the full range.
func quantizeI8(dst []int8, v []float32) float32 {
	var m float32
	for _, x := range v {
		m = max(m, abs32(x))
	}
	if m == 0 {
		clear(dst[:len(v)])
		return 0
	}
	inv := 127 / m
	for i, x := range v {
		dst[i] = int8(math.Round(float64(x * inv)))
	}
	return m / 127
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
