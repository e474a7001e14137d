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
	"runtime"
	"slices"
	"unsafe"
)

// The saved form of an HNSW index, all little-endian. Version 3 lays every
// array out at an offset aligned for its type, so that [MapHNSW] can use a
// memory-mapped file in place, without copying or decoding it:
//
//	magic "ORVHNSW\x00", version u32 = 3
//	dims, M, M0, EfConstruction, EfSearch u32; mL f64; level PRNG state u64
//	n u64; entry i64 (-1 when empty); top level u32
//	upper u64: how many u32 the upper-layer links take
//	zeros up to byte 128 (the header's size)
//	n i64 ids
//	n u8 levels, then zeros up to a multiple of 4
//	n·dims f32 vectors
//	n·(M0+1) u32 layer-0 links (count, then M0 slots)
//	for each node with level > 0, in node order: level·(M+1) u32
//	n·S i8 codes (S = dims rounded up to 32, the padding zero)
//	n f32 code scales
//	CRC-32C (Castagnoli) of every byte above, u32
//
// Version 2 (still read by LoadHNSW, which makes the codes) had no codes
// nor scales; version 1 also had no upper count nor padding, and each
// node's id and level together after the header.
//
// LoadHNSW checks every field and the checksum, so a truncated or corrupt
// file is an error, never a panic or a graph that fails later.
const (
	hnswMagic   = "ORVHNSW\x00"
	hnswVersion = 3
	// hnswHeader is the size of a version 2 or 3 header.
	hnswHeader = 128
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
	if littleEndian() { // the bytes in memory are the bytes on disk
		b.write(asBytes(v))
		return
	}
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
	if littleEndian() {
		b.write(asBytes(v))
		return
	}
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

// asBytes returns the bytes that hold v.
func asBytes[T uint32 | float32 | int64](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(v[0])))
}

// Save writes the index (vectors, ids, graph and options) to w so that
// [LoadHNSW] restores it without a rebuild, and [MapHNSW] maps it from a
// file. Searches of the loaded index return exactly what this one returns.
func (h *HNSW) Save(w io.Writer) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.save(w, hnswVersion, nil)
}

func (h *HNSW) save(w io.Writer, version int, rows Rows) error {
	if h.dims < 1 || h.dims > maxDims {
		return fmt.Errorf("%w: index has %d dimensions", ErrDims, h.dims)
	}
	bw := &binWriter{w: bufio.NewWriterSize(w, 1<<16), crc: crc32.New(crcTable), buf: make([]byte, 0, 1<<16)}
	bw.write([]byte(hnswMagic))
	bw.u32(uint32(version))
	for _, v := range []int{h.dims, h.m, h.m0, h.efC, h.efS} {
		bw.u32(uint32(v))
	}
	bw.u64(math.Float64bits(h.ml))
	bw.u64(h.rng)
	n := len(h.ids)
	bw.u64(uint64(n))
	bw.u64(uint64(h.entry))
	bw.u32(uint32(h.maxLevel))
	if version == 1 {
		for i, id := range h.ids {
			p := binary.LittleEndian.AppendUint64(bw.buf[:0], uint64(id))
			bw.write(append(p, h.levels[i]))
		}
	} else {
		upper := 0
		for _, up := range h.upper {
			upper += len(up)
		}
		bw.u64(uint64(upper))
		bw.write(make([]byte, hnswHeader-hnswFixed))
		for i := 0; i < n && bw.err == nil; i += 1 << 13 {
			p := bw.buf[:0]
			for _, id := range h.ids[i:min(n, i+1<<13)] {
				p = binary.LittleEndian.AppendUint64(p, uint64(id))
			}
			bw.buf = p
			bw.write(p)
		}
		bw.write(h.levels)
		bw.write(make([]byte, pad4(n)))
	}
	h.writeVectors(bw, rows)
	bw.u32s(h.links0)
	for _, up := range h.upper {
		bw.u32s(up)
	}
	if version >= 3 {
		h.writeCodes(bw)
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

// writeCodes writes the codes and their scales (made here for a graph that
// has none, which only a test makes).
func (h *HNSW) writeCodes(bw *binWriter) {
	codes, scales := h.codes, h.cscale
	if len(scales) != len(h.ids) {
		c := &HNSW{idTable: idTable[uint32]{dims: h.dims, ids: h.ids}, vecs: h.vecs, cstride: codeStride(h.dims)}
		c.buildCodes(1)
		codes, scales = c.codes, c.cscale
	}
	if len(codes) > 0 {
		bw.write(unsafe.Slice((*byte)(unsafe.Pointer(&codes[0])), len(codes)))
	}
	bw.f32s(scales)
}

// hnswFixed is the size of the fields of a version 2 header, before its
// padding.
const hnswFixed = 8 + 4 + 5*4 + 8 + 8 + 8 + 8 + 4 + 8

// pad4 is the padding after n one-byte levels.
func pad4(n int) int { return (4 - n%4) % 4 }

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
	return readInto(b, dst, count, binary.LittleEndian.Uint32, func(x uint32) uint32 { return x })
}

// f32s reads count values, growing the slice as u32s does.
func (b *binReader) f32s(dst []float32, count int) []float32 {
	return readInto(b, dst, count, binary.LittleEndian.Uint32, math.Float32frombits)
}

// readInto appends count 4-byte values to dst. On a little-endian machine
// the bytes are read straight into the slice's memory; elsewhere each is
// decoded.
func readInto[T uint32 | float32](b *binReader, dst []T, count int, u func([]byte) uint32, conv func(uint32) T) []T {
	for count > 0 && b.err == nil {
		c := min(count, 1<<16)
		dst = growFor(dst, c, count)
		if littleEndian() {
			n := len(dst)
			dst = dst[:n+c]
			p := asBytes(dst[n:])
			if _, err := io.ReadFull(b.r, p); err != nil {
				if errors.Is(err, io.EOF) {
					err = io.ErrUnexpectedEOF
				}
				b.err = err
				return dst[:n]
			}
			b.crc.Write(p)
		} else {
			p := b.read(4 * c)
			for i := 0; p != nil && i < c; i++ {
				dst = append(dst, conv(u(p[4*i:])))
			}
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

// header holds the fixed fields of a saved index.
type header struct {
	version         int
	dims, m, m0     int
	efC, efS        int
	ml              float64
	rng             uint64
	n               int
	entry           int64
	top             int
	upper           int // version 2: u32 values of upper-layer links
	n64, upperCount uint64
}

// readHeader reads the header's fields after the magic.
func readHeader(br *binReader) header {
	var hd header
	hd.version = int(br.u32())
	hd.dims, hd.m, hd.m0 = int(br.u32()), int(br.u32()), int(br.u32())
	hd.efC, hd.efS = int(br.u32()), int(br.u32())
	hd.ml = math.Float64frombits(br.u64())
	hd.rng = br.u64()
	hd.n64 = br.u64()
	hd.entry = int64(br.u64())
	hd.top = int(br.u32())
	if hd.version >= 2 {
		hd.upperCount = br.u64()
	}
	return hd
}

// check validates the header's fields.
func (hd *header) check() error {
	switch {
	case hd.version < 1 || hd.version > hnswVersion:
		return corrupt("unknown version %d", hd.version)
	case hd.dims < 1 || hd.dims > maxDims:
		return corrupt("dimensions %d", hd.dims)
	case hd.m < 2 || hd.m > maxM || hd.m0 != 2*hd.m:
		return corrupt("M %d, M0 %d", hd.m, hd.m0)
	case hd.efC < 1 || hd.efC > maxEf || hd.efS < 1 || hd.efS > maxEf:
		return corrupt("ef %d/%d", hd.efC, hd.efS)
	case !(hd.ml > 0 && hd.ml < 10):
		return corrupt("level factor %v", hd.ml)
	case hd.n64 > maxRows:
		return corrupt("%d vectors", hd.n64)
	case hd.top > maxLevelCap:
		return corrupt("top level %d", hd.top)
	case hd.upperCount > uint64(hd.n64)*uint64(maxLevelCap*(hd.m+1)):
		return corrupt("%d upper links for %d vectors", hd.upperCount, hd.n64)
	}
	hd.n, hd.upper = int(hd.n64), int(hd.upperCount)
	if (hd.n == 0) != (hd.entry == -1) || hd.entry < -1 || hd.entry >= int64(hd.n) {
		return corrupt("entry node %d of %d", hd.entry, hd.n)
	}
	return nil
}

// newFromHeader returns an empty index with the header's options.
func newFromHeader(hd header) *HNSW {
	return &HNSW{
		idTable: idTable[uint32]{dims: hd.dims, byID: make(map[int64]uint32, min(hd.n, 1<<20))},
		m:       hd.m, m0: hd.m0, efC: hd.efC, efS: hd.efS, ml: hd.ml, rng: hd.rng,
		entry: hd.entry, maxLevel: hd.top, cstride: codeStride(hd.dims),
	}
}

// LoadHNSW reads an index written by [HNSW.Save] (either version). It
// returns an error wrapping [ErrCorrupt] for a file that is not such an
// index, is truncated, or fails its checks or checksum.
func LoadHNSW(r io.Reader) (*HNSW, error) {
	br := &binReader{r: bufio.NewReaderSize(r, 1<<16), crc: crc32.New(crcTable)}
	if string(br.read(len(hnswMagic))) != hnswMagic {
		if br.err != nil {
			return nil, corrupt("reading header: %v", br.err)
		}
		return nil, corrupt("not a saved vector graph")
	}
	hd := readHeader(br)
	if br.err != nil {
		return nil, corrupt("reading header: %v", br.err)
	}
	if err := hd.check(); err != nil {
		return nil, err
	}
	n, top := hd.n, hd.top
	h := newFromHeader(hd)
	addNode := func(i int, id int64, lv uint8) error {
		if int(lv) > top {
			return corrupt("node %d has level %d above the top %d", i, lv, top)
		}
		if _, dup := h.byID[id]; dup {
			return corrupt("duplicate id %d", id)
		}
		h.byID[id] = uint32(i)
		return nil
	}
	if hd.version == 1 {
		for i := 0; i < n && br.err == nil; i++ {
			p := br.read(9)
			if p == nil {
				break
			}
			id, lv := int64(binary.LittleEndian.Uint64(p)), p[8]
			if err := addNode(i, id, lv); err != nil {
				return nil, err
			}
			h.ids = append(h.ids, id)
			h.levels = append(h.levels, lv)
		}
	} else {
		for _, b := range br.read(hnswHeader - hnswFixed) {
			if b != 0 {
				return nil, corrupt("header padding is not zero")
			}
		}
		for i := 0; i < n && br.err == nil; i += 1 << 13 {
			c := min(n-i, 1<<13)
			h.ids = growFor(h.ids, c, n-i)
			p := br.read(8 * c)
			for j := 0; p != nil && j < c; j++ {
				h.ids = append(h.ids, int64(binary.LittleEndian.Uint64(p[8*j:])))
			}
		}
		for i := 0; i < n && br.err == nil; i += 1 << 16 {
			c := min(n-i, 1<<16)
			h.levels = growFor(h.levels, c, n-i)
			h.levels = append(h.levels, br.read(c)...)
		}
		for _, b := range br.read(pad4(n)) {
			if b != 0 {
				return nil, corrupt("padding after the levels is not zero")
			}
		}
		if br.err == nil {
			for i, id := range h.ids {
				if err := addNode(i, id, h.levels[i]); err != nil {
					return nil, err
				}
			}
		}
	}
	h.vecs = br.f32s(nil, n*hd.dims)
	h.links0 = br.u32s(nil, n*(hd.m0+1))
	if br.err != nil {
		return nil, corrupt("reading nodes: %v", br.err)
	}
	if err := h.checkLevels(hd); err != nil {
		return nil, err
	}
	for _, x := range h.vecs {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, corrupt("non-finite vector value")
		}
	}
	h.upper = make([][]uint32, n)
	for i, lv := range h.levels {
		if lv > 0 {
			h.upper[i] = br.u32s(make([]uint32, 0, int(lv)*(hd.m+1)), int(lv)*(hd.m+1))
		}
	}
	if br.err != nil {
		return nil, corrupt("reading links: %v", br.err)
	}
	if err := h.readCodes(br, hd.version); err != nil {
		return nil, err
	}
	want := br.crc.Sum32()
	var tail [4]byte
	if _, err := io.ReadFull(br.r, tail[:]); err != nil {
		return nil, corrupt("reading checksum: %v", err)
	}
	if binary.LittleEndian.Uint32(tail[:]) != want {
		return nil, corrupt("checksum mismatch")
	}
	if err := h.checkLinks(); err != nil {
		return nil, err
	}
	return h, nil
}

// readCodes reads the codes and scales of a version 3 graph, or makes
// those of an older one.
func (h *HNSW) readCodes(br *binReader, version int) error {
	n := len(h.ids)
	h.cstride = codeStride(h.dims)
	if version < 3 {
		h.buildCodes(runtime.GOMAXPROCS(0))
		return nil
	}
	h.codes = make([]int8, 0, n*h.cstride)
	for i := 0; i < n*h.cstride && br.err == nil; i += 1 << 16 {
		p := br.read(min(n*h.cstride-i, 1<<16))
		h.codes = append(h.codes, unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(p))), len(p))...)
	}
	h.cscale = br.f32s(nil, n)
	if br.err != nil {
		return corrupt("reading codes: %v", br.err)
	}
	return checkFinite(h.cscale)
}

// checkLevels checks that the entry node is on the top level and, for
// version 2, that the upper links take the room the header says.
func (h *HNSW) checkLevels(hd header) error {
	if hd.n > 0 && int(h.levels[hd.entry]) != hd.top {
		return corrupt("entry node %d is not on the top level", hd.entry)
	}
	if hd.version >= 2 {
		sum := 0
		for _, lv := range h.levels {
			if int(lv) > hd.top {
				return corrupt("a node has level %d above the top %d", lv, hd.top)
			}
			sum += int(lv) * (hd.m + 1)
		}
		if sum != hd.upper {
			return corrupt("upper links take %d values, the header says %d", sum, hd.upper)
		}
	}
	return nil
}

// checkLinks checks every link count and target, so that a search of the
// graph cannot index out of range.
func (h *HNSW) checkLinks() error {
	n := len(h.ids)
	for i := range n {
		for l := 0; l <= int(h.levels[i]); l++ {
			s := h.slot(uint32(i), l)
			if int(s[0]) > h.capacity(l) {
				return corrupt("node %d has %d links on layer %d", i, s[0], l)
			}
			for _, x := range s[1 : 1+s[0]] {
				if int(x) >= n || int(h.levels[x]) < l {
					return corrupt("node %d links to %d on layer %d", i, x, l)
				}
			}
		}
	}
	return nil
}

// SavedSize returns how many bytes Save writes: a buffer of that size
// holds the graph without growing.
func (h *HNSW) SavedSize() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	n, upper := len(h.ids), 0
	for _, up := range h.upper {
		upper += len(up)
	}
	return hnswHeader + 8*n + n + pad4(n) + 4*n*h.dims + 4*len(h.links0) + 4*upper + n*codeStride(h.dims) + 4*n + 4
}
