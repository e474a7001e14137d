package vector

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"slices"
)

// The saved form of an HNSW index, all little-endian:
//
//	magic "ORVHNSW\x00", version u32 = 1
//	dims, M, M0, EfConstruction, EfSearch u32; mL f64; level PRNG state u64
//	n u64; entry i64 (-1 when empty); top level u32
//	n × (id i64, level u8)
//	n·dims f32 vectors
//	n·(M0+1) u32 layer-0 links (count, then M0 slots)
//	for each node with level > 0, in node order: level·(M+1) u32
//	CRC-32C (Castagnoli) of every byte above, u32
//
// LoadHNSW checks every field and the checksum, so a truncated or corrupt
// file is an error, never a panic or a graph that fails later.
const (
	hnswMagic   = "ORVHNSW\x00"
	hnswVersion = 1
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

type binWriter struct {
	w   *bufio.Writer
	crc hash.Hash32
	buf []byte
	err error
}

func (b *binWriter) write(p []byte) {
	if b.err != nil {
		return
	}
	b.crc.Write(p)
	_, b.err = b.w.Write(p)
}

func (b *binWriter) u32(v uint32) { b.write(binary.LittleEndian.AppendUint32(b.buf[:0], v)) }
func (b *binWriter) u64(v uint64) { b.write(binary.LittleEndian.AppendUint64(b.buf[:0], v)) }

func (b *binWriter) u32s(v []uint32) {
	for len(v) > 0 && b.err == nil {
		c := min(len(v), 1<<14)
		p := b.buf[:0]
		for _, x := range v[:c] {
			p = binary.LittleEndian.AppendUint32(p, x)
		}
		b.buf = p
		b.write(p)
		v = v[c:]
	}
}

func (b *binWriter) f32s(v []float32) {
	for len(v) > 0 && b.err == nil {
		c := min(len(v), 1<<14)
		p := b.buf[:0]
		for _, x := range v[:c] {
			p = binary.LittleEndian.AppendUint32(p, math.Float32bits(x))
		}
		b.buf = p
		b.write(p)
		v = v[c:]
	}
}

// Save writes the index (vectors, ids, graph and options) to w so that
// [LoadHNSW] restores it without a rebuild. Searches of the loaded index
// return exactly what this one returns.
func (h *HNSW) Save(w io.Writer) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.dims < 1 || h.dims > maxDims {
		return fmt.Errorf("%w: index has %d dimensions", ErrDims, h.dims)
	}
	bw := &binWriter{w: bufio.NewWriterSize(w, 1<<16), crc: crc32.New(crcTable), buf: make([]byte, 0, 1<<16)}
	bw.write([]byte(hnswMagic))
	bw.u32(hnswVersion)
	for _, v := range []int{h.dims, h.m, h.m0, h.efC, h.efS} {
		bw.u32(uint32(v))
	}
	bw.u64(math.Float64bits(h.ml))
	bw.u64(h.rng)
	n := len(h.ids)
	bw.u64(uint64(n))
	bw.u64(uint64(h.entry))
	bw.u32(uint32(h.maxLevel))
	for i, id := range h.ids {
		p := binary.LittleEndian.AppendUint64(bw.buf[:0], uint64(id))
		bw.write(append(p, h.levels[i]))
	}
	bw.f32s(h.vecs)
	bw.u32s(h.links0)
	for _, up := range h.upper {
		bw.u32s(up)
	}
	if bw.err != nil {
		return fmt.Errorf("saving vector graph: %w", bw.err)
	}
	sum := bw.crc.Sum32()
	if _, err := bw.w.Write(binary.LittleEndian.AppendUint32(nil, sum)); err != nil {
		return fmt.Errorf("saving vector graph: %w", err)
	}
	if err := bw.w.Flush(); err != nil {
		return fmt.Errorf("saving vector graph: %w", err)
	}
	return nil
}

type binReader struct {
	r   *bufio.Reader
	crc hash.Hash32
	buf []byte
	err error
}

func (b *binReader) read(n int) []byte {
	if b.err != nil {
		return nil
	}
	if cap(b.buf) < n {
		b.buf = make([]byte, n)
	}
	p := b.buf[:n]
	if _, err := io.ReadFull(b.r, p); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		b.err = err
		return nil
	}
	b.crc.Write(p)
	return p
}

func (b *binReader) u32() uint32 {
	if p := b.read(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (b *binReader) u64() uint64 {
	if p := b.read(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// u32s reads count values, growing the slice only as data arrives so that a
// corrupt count cannot trigger a huge allocation (at most twice what was
// read); it doubles, so that a large graph is not copied over and over
// (append grows a large slice by a quarter at a time: at 100k vectors of
// 1,024 dimensions that copying was most of the load).
func (b *binReader) u32s(dst []uint32, count int) []uint32 {
	for count > 0 && b.err == nil {
		c := min(count, 1<<14)
		dst = growFor(dst, c, count)
		p := b.read(4 * c)
		for i := 0; p != nil && i < c; i++ {
			dst = append(dst, binary.LittleEndian.Uint32(p[4*i:]))
		}
		count -= c
	}
	return dst
}

// f32s reads count values, growing the slice as u32s does.
func (b *binReader) f32s(dst []float32, count int) []float32 {
	for count > 0 && b.err == nil {
		c := min(count, 1<<14)
		dst = growFor(dst, c, count)
		p := b.read(4 * c)
		for i := 0; p != nil && i < c; i++ {
			dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:])))
		}
		count -= c
	}
	return dst
}

// growFor makes room in dst for the next c values of the count still to
// read: at least doubling its capacity, never past what is left to read.
func growFor[T any](dst []T, c, count int) []T {
	if cap(dst)-len(dst) >= c {
		return dst
	}
	return slices.Grow(dst, min(count, max(c, len(dst))))
}

func corrupt(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, a...))
}

// LoadHNSW reads an index written by [HNSW.Save]. It returns an error
// wrapping [ErrCorrupt] for a file that is not such an index, is truncated,
// or fails its checks or checksum.
func LoadHNSW(r io.Reader) (*HNSW, error) {
	br := &binReader{r: bufio.NewReaderSize(r, 1<<16), crc: crc32.New(crcTable)}
	if string(br.read(len(hnswMagic))) != hnswMagic {
		if br.err != nil {
			return nil, corrupt("reading header: %v", br.err)
		}
		return nil, corrupt("not a saved vector graph")
	}
	if v := br.u32(); v != hnswVersion {
		return nil, corrupt("unknown version %d", v)
	}
	dims, m, m0 := int(br.u32()), int(br.u32()), int(br.u32())
	efC, efS := int(br.u32()), int(br.u32())
	ml := math.Float64frombits(br.u64())
	rng := br.u64()
	n64 := br.u64()
	entry := int64(br.u64())
	top := int(br.u32())
	switch {
	case br.err != nil:
		return nil, corrupt("reading header: %v", br.err)
	case dims < 1 || dims > maxDims:
		return nil, corrupt("dimensions %d", dims)
	case m < 2 || m > maxM || m0 != 2*m:
		return nil, corrupt("M %d, M0 %d", m, m0)
	case efC < 1 || efC > maxEf || efS < 1 || efS > maxEf:
		return nil, corrupt("ef %d/%d", efC, efS)
	case !(ml > 0 && ml < 10):
		return nil, corrupt("level factor %v", ml)
	case n64 > maxRows:
		return nil, corrupt("%d vectors", n64)
	case top > maxLevelCap:
		return nil, corrupt("top level %d", top)
	}
	n := int(n64)
	if (n == 0) != (entry == -1) || entry < -1 || entry >= int64(n) {
		return nil, corrupt("entry node %d of %d", entry, n)
	}
	h := &HNSW{
		dims: dims, m: m, m0: m0, efC: efC, efS: efS, ml: ml, rng: rng,
		entry: entry, maxLevel: top, byID: make(map[int64]uint32),
	}
	for i := 0; i < n && br.err == nil; i++ {
		p := br.read(9)
		if p == nil {
			break
		}
		id, lv := int64(binary.LittleEndian.Uint64(p)), p[8]
		if int(lv) > top {
			return nil, corrupt("node %d has level %d above the top %d", i, lv, top)
		}
		if _, dup := h.byID[id]; dup {
			return nil, corrupt("duplicate id %d", id)
		}
		h.byID[id] = uint32(i)
		h.ids = append(h.ids, id)
		h.levels = append(h.levels, lv)
	}
	h.vecs = br.f32s(nil, n*dims)
	h.links0 = br.u32s(nil, n*(m0+1))
	if br.err != nil {
		return nil, corrupt("reading nodes: %v", br.err)
	}
	if n > 0 && int(h.levels[entry]) != top {
		return nil, corrupt("entry node %d is not on the top level", entry)
	}
	for _, x := range h.vecs {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, corrupt("non-finite vector value")
		}
	}
	h.upper = make([][]uint32, n)
	for i, lv := range h.levels {
		if lv > 0 {
			h.upper[i] = br.u32s(make([]uint32, 0, int(lv)*(m+1)), int(lv)*(m+1))
		}
	}
	if br.err != nil {
		return nil, corrupt("reading links: %v", br.err)
	}
	want := br.crc.Sum32()
	var tail [4]byte
	if _, err := io.ReadFull(br.r, tail[:]); err != nil {
		return nil, corrupt("reading checksum: %v", err)
	}
	if binary.LittleEndian.Uint32(tail[:]) != want {
		return nil, corrupt("checksum mismatch")
	}
	for i := range n {
		for l := 0; l <= int(h.levels[i]); l++ {
			s := h.slot(uint32(i), l)
			if int(s[0]) > h.capacity(l) {
				return nil, corrupt("node %d has %d links on layer %d", i, s[0], l)
			}
			for _, x := range s[1 : 1+s[0]] {
				if int(x) >= n || int(h.levels[x]) < l {
					return nil, corrupt("node %d links to %d on layer %d", i, x, l)
				}
			}
		}
	}
	return h, nil
}
