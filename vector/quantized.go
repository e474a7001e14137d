package vector

import (
	"encoding/binary"
	"fmt"
	"math"
)

// DefaultOversample is the candidate multiple [Quantized] rescores.
const DefaultOversample = 4

// maxOversample bounds Quantized's oversampling factor.
const maxOversample = 1024

// Quantized scans int8 codes (a 4x smaller scan than [Exact]'s float32) and
// keeps the full-precision vectors to rescore: Search scans the codes for
// Oversample·k candidates, rescores them with [Dot] on the float32 vectors
// and returns the k best by exact score.
//
// Quantisation is per vector and symmetric: a vector's scale is its largest
// absolute component / 127 and each component is rounded to an integer in
// [-127, 127] (stored offset by 128 as a byte). A per-vector scale uses the
// full int8 range on every vector whatever its spread; a global scale would
// waste range on vectors whose largest component is small.
//
// The query is quantised per search to 6 bits ([-31, 31], its own scale), so
// that the integer dot product can run four 8-bit×6-bit products per 64-bit
// multiply (SWAR: sixteen-bit lanes whose sums cannot carry into each
// other). On this project's 2-core machine that scan runs at about 6.7
// GB/s of codes per core, against about 3 GB/s for a plain int8×int8 loop,
// which would be slower per vector than the float32 scan. The coarser query
// adds ranking noise (about 0.001 in cosine at 1,024 dimensions) that the
// rescoring removes. Scores are exact integer arithmetic, so equal codes
// always tie.
//
// Memory: dims rounded up to 16 bytes of codes, plus 4·dims bytes of
// float32 vector, plus 8 bytes of scale and sum, per vector.
//
// It is safe for concurrent use; Add excludes Search.
type Quantized struct {
	idTable[int32]
	stride int // dims rounded up to a multiple of 16; padding codes are 0 (byte 128)
	over   int
	codes  []byte    // n*stride, byte = code + 128
	scales []float32 // per vector: value ≈ code * scale
	sums   []int32   // per vector: sum of codes
	vecs   []float32 // n*dims full precision
}

// NewQuantized returns an empty quantised index of vectors with dims
// dimensions that rescores oversample·k candidates (oversample < 1 means
// [DefaultOversample]; at most 1024). A dims outside 1..65536 gives an index
// whose Add and Search return [ErrDims].
func NewQuantized(dims int, oversample int) *Quantized {
	if oversample < 1 {
		oversample = DefaultOversample
	}
	return &Quantized{
		idTable: idTable[int32]{dims: dims, byID: make(map[int64]int32)},
		stride:  (max(dims, 0) + 15) &^ 15,
		over:    min(oversample, maxOversample),
	}
}

// NewQuantizedFromMatrix builds a quantised index over a flat matrix: row i
// of data (data[i*dims:(i+1)*dims]) is the vector of ids[i]. It takes
// ownership of data and ids (no copy of the float32 vectors) and returns an
// error on a length mismatch, a duplicate id or a non-finite value.
func NewQuantizedFromMatrix(dims, oversample int, ids []int64, data []float32) (*Quantized, error) {
	if dims < 1 || dims > maxDims {
		return nil, fmt.Errorf("%w: %d (must be 1..%d)", ErrDims, dims, maxDims)
	}
	if len(data) != len(ids)*dims {
		return nil, fmt.Errorf("%w: %d values for %d ids of %d dimensions", ErrDims, len(data), len(ids), dims)
	}
	if len(ids) > maxRows {
		return nil, fmt.Errorf("vector: %d vectors exceed the limit of %d", len(ids), maxRows)
	}
	x := NewQuantized(dims, oversample)
	n := len(ids)
	x.ids, x.vecs = ids, data
	x.byID = make(map[int64]int32, n)
	x.codes = make([]byte, n*x.stride)
	x.scales = make([]float32, n)
	x.sums = make([]int32, n)
	for i, id := range ids {
		if _, dup := x.byID[id]; dup {
			return nil, fmt.Errorf("%w: %d", ErrDuplicateID, id)
		}
		x.byID[id] = int32(i)
		v := data[i*dims : (i+1)*dims]
		if err := checkVec(dims, v); err != nil {
			return nil, fmt.Errorf("vector of id %d: %w", id, err)
		}
		c := x.codes[i*x.stride : (i+1)*x.stride]
		for j := range c {
			c[j] = 128
		}
		x.scales[i], x.sums[i] = quantize(c[:dims], v, 127)
	}
	return x, nil
}

// Oversample returns the candidate multiple that Search rescores.
func (x *Quantized) Oversample() int { return x.over }

// Add stores v under id: its int8 codes and a float32 copy. It returns an
// error if v has the wrong dimensions or a non-finite value, or if id is
// already present.
func (x *Quantized) Add(id int64, v []float32) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := x.claim(id, v); err != nil {
		return err
	}
	x.vecs = append(x.vecs, v...)
	row := len(x.codes)
	for range x.stride {
		x.codes = append(x.codes, 128)
	}
	scale, sum := quantize(x.codes[row:row+len(v)], v, 127)
	x.scales = append(x.scales, scale)
	x.sums = append(x.sums, sum)
	return nil
}

// quantize writes v's codes, rounded into [-lim, lim] and offset by 128,
// into dst and returns the scale (value ≈ code·scale) and the sum of codes.
func quantize(dst []byte, v []float32, lim int) (float32, int32) {
	var mx float64
	for _, f := range v {
		mx = max(mx, math.Abs(float64(f)))
	}
	if mx == 0 {
		for i := range dst {
			dst[i] = 128
		}
		return 0, 0
	}
	inv := float64(lim) / mx
	var sum int32
	for i, f := range v {
		c := int(math.Round(float64(f) * inv))
		c = max(-lim, min(c, lim))
		dst[i] = byte(c + 128)
		sum += int32(c)
	}
	return float32(mx / float64(lim)), sum
}

// quantQuery is a query prepared for dotCodes.
type quantQuery struct {
	words []uint64 // four per 16 codes: lanes of (code+32), reversed (see dotCodes)
	scale float64
	corr  int64 // 128·Σq + 4096·stride: subtracted with 32·Σd from the raw sum
}

// prepare quantises q to 6 bits and packs it for dotCodes.
func (x *Quantized) prepare(q []float32) quantQuery {
	p := make([]byte, x.stride)
	for i := range p {
		p[i] = 128
	}
	scale, sum := quantize(p[:len(q)], q, 31)
	w := make([]uint64, 0, x.stride/4)
	for o := 0; o < x.stride; o += 8 {
		b := p[o : o+8]
		c := func(i int) uint64 { return uint64(int(b[i]) - 128 + 32) } // [1, 63]
		// Even codes of this 8-byte group, then odd codes, each reversed so
		// that the product's top lane is Σ data[j]·query[j] (see dotCodes).
		w = append(w,
			c(6)|c(4)<<16|c(2)<<32|c(0)<<48,
			c(7)|c(5)<<16|c(3)<<32|c(1)<<48)
	}
	return quantQuery{words: w, scale: float64(scale), corr: 128*int64(sum) + 4096*int64(x.stride)}
}

// dotCodes returns Σ (d[j]+128)·(q[j]+32) over one row of codes.
//
// Masking 8 code bytes with 0x00FF00FF00FF00FF leaves four 16-bit lanes
// a0, a2, a4, a6 (each ≤ 255); the query word holds q6, q4, q2, q0 in lane
// order (each ≤ 63). In their 64-bit product, lane 3 (bits 48..63) receives
// exactly a0q0 + a2q2 + a4q4 + a6q6 ≤ 4·255·63 = 64,260 < 2^16, and the lower
// lanes hold partial sums of at most three such products, so no lane
// overflows into the next: one multiply computes four products. The odd
// bytes are handled the same way after a shift.
func dotCodes(q []uint64, r []byte) uint64 {
	const m = 0x00FF00FF00FF00FF
	var a, b, c, d uint64
	for len(r) >= 16 && len(q) >= 4 {
		w := binary.LittleEndian.Uint64(r)
		v := binary.LittleEndian.Uint64(r[8:16])
		a += ((w & m) * q[0]) >> 48
		b += (((w >> 8) & m) * q[1]) >> 48
		c += ((v & m) * q[2]) >> 48
		d += (((v >> 8) & m) * q[3]) >> 48
		r = r[16:]
		q = q[4:]
	}
	return (a + b) + (c + d)
}

// approx returns row i's approximate similarity to the prepared query.
func (x *Quantized) approx(qq *quantQuery, i int) float32 {
	raw := int64(dotCodes(qq.words, x.codes[i*x.stride:(i+1)*x.stride]))
	dot := raw - 32*int64(x.sums[i]) - qq.corr
	return float32(float64(dot) * float64(x.scales[i]) * qq.scale)
}

// Search returns the k vectors most similar to q, best first, ties broken by
// smaller id: the int8 scan picks Oversample·k candidates, which are
// rescored exactly. k = 0 returns no hit; k < 0, wrong dimensions or a
// non-finite q are errors.
func (x *Quantized) Search(q []float32, k int) ([]Hit, error) {
	return x.search(q, k, true)
}

// SearchApprox is Search without the rescoring: the k best by the int8
// scan alone, with approximate scores. It shows what rescoring buys.
func (x *Quantized) SearchApprox(q []float32, k int) ([]Hit, error) {
	return x.search(q, k, false)
}

func (x *Quantized) search(q []float32, k int, rescore bool) ([]Hit, error) {
	if err := checkQuery(x.dims, q, k); err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := len(x.ids)
	k = min(k, n)
	if k == 0 {
		return []Hit{}, nil
	}
	nc := k
	if rescore {
		nc = min(n, k*x.over)
	}
	qq := x.prepare(q)
	cands := x.scan(&qq, nc)
	if !rescore {
		return cands, nil
	}
	t := newTopK(k)
	for _, c := range cands {
		i := int(x.byID[c.ID])
		t.push(Hit{ID: c.ID, Score: Dot(q, x.vecs[i*x.dims:(i+1)*x.dims])})
	}
	sortHits(t.h)
	return t.h, nil
}

// scan returns the k best rows by approximate score, best first.
func (x *Quantized) scan(qq *quantQuery, k int) []Hit {
	n := len(x.ids)
	w := workers(n, x.stride/4) // integer kernel: ~4x the elements per unit of work
	return scanTop(n, w, k, func(t *topK, lo, hi int) {
		for r := lo; r < hi; r++ {
			s := x.approx(qq, r)
			if t.full() {
				wst := t.worst()
				if s < wst.Score || (s == wst.Score && x.ids[r] > wst.ID) {
					continue
				}
			}
			t.push(Hit{ID: x.ids[r], Score: s})
		}
	})
}
