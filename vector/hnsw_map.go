package vector

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"runtime"
	"slices"
	"unsafe"
)

// ErrReadOnly reports an Add to a graph mapped from a file ([MapHNSW]).
var ErrReadOnly = errors.New("vector: the graph is mapped read-only from a file")

// MapHNSW opens a graph saved by [HNSW.Save] (version 3) in the file at
// path by mapping the file into memory read-only: the codes, vectors and
// links are used where they lie, not copied nor decoded, so opening costs
// no more than checking the header and the links (a few percent of the
// file), the pages are read only as searches touch them, and processes
// that map the same file share them. A search walks the codes and links
// and reads the few float32 vectors it rescores from the file, not through
// the mapping: the resident memory of a searched graph is its codes and
// links (about 1.2 KB per 1,024-dimension vector), not its vectors. The
// mapping is released, and the file closed, when the graph is no longer
// reachable.
//
// With verify, the checksum of the whole file and every vector are
// checked too (reading every page once), as [LoadHNSW] does; without it
// a flipped bit in a vector can change scores but cannot make a search
// fail or read outside the file. The mapped graph is read-only: Add and
// AddBatch return [ErrReadOnly].
//
// A file that is not a version 2 graph, is truncated or fails a check
// gives an error wrapping [ErrCorrupt]. On a big-endian machine, or where
// files cannot be mapped, the file is read and decoded into memory.
func MapHNSW(path string, verify bool) (*HNSW, error) {
	data, file, unmap, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	if !littleEndian() {
		defer unmap()
		return LoadHNSW(bytes.NewReader(data))
	}
	h, err := viewHNSW(data, verify)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	h.mapped = true
	if file != nil {
		h.file = file
	}
	runtime.AddCleanup(h, func(unmap func()) { unmap() }, unmap)
	return h, nil
}

func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// viewHNSW makes a graph whose slices point into data, a version 2 graph.
func viewHNSW(data []byte, verify bool) (*HNSW, error) {
	if len(data) < hnswHeader+4 || string(data[:len(hnswMagic)]) != hnswMagic {
		return nil, corrupt("not a saved vector graph")
	}
	br := &binReader{r: bufio.NewReader(bytes.NewReader(data[len(hnswMagic):hnswFixed])), crc: crc32.New(crcTable)}
	hd := readHeader(br)
	if br.err != nil {
		return nil, corrupt("reading header: %v", br.err)
	}
	if hd.version != hnswVersion {
		return nil, corrupt("version %d cannot be mapped", hd.version)
	}
	if err := hd.check(); err != nil {
		return nil, err
	}
	for _, b := range data[hnswFixed:hnswHeader] {
		if b != 0 {
			return nil, corrupt("header padding is not zero")
		}
	}
	n, dims := hd.n, hd.dims
	off := hnswHeader
	idsAt := off
	off += 8 * n
	levelsAt := off
	off += n + pad4(n)
	vecsAt := off
	off += 4 * n * dims
	linksAt := off
	off += 4 * n * (hd.m0 + 1)
	upperAt := off
	off += 4 * hd.upper
	cstride := codeStride(dims)
	codesAt := off
	off += n * cstride
	scalesAt := off
	off += 4 * n
	if off+4 != len(data) {
		return nil, corrupt("the file holds %d bytes, its header says %d", len(data), off+4)
	}
	if verify && crc32.Checksum(data[:off], crcTable) != binary.LittleEndian.Uint32(data[off:]) {
		return nil, corrupt("checksum mismatch")
	}
	h := newFromHeader(hd)
	h.ids = castSlice[int64](data, idsAt, n)
	h.levels = data[levelsAt : levelsAt+n : levelsAt+n]
	h.vecs = castSlice[float32](data, vecsAt, n*dims)
	h.links0 = castSlice[uint32](data, linksAt, n*(hd.m0+1))
	h.codes = castSlice[int8](data, codesAt, n*cstride)
	h.cscale = castSlice[float32](data, scalesAt, n)
	h.vecsAt = int64(vecsAt)
	upper := castSlice[uint32](data, upperAt, hd.upper)
	if err := h.checkLevels(hd); err != nil {
		return nil, err
	}
	h.upper = make([][]uint32, n)
	for i, lv := range h.levels {
		if lv > 0 {
			c := int(lv) * (hd.m + 1)
			h.upper[i], upper = upper[:c:c], upper[c:]
		}
	}
	for i, id := range h.ids {
		if _, dup := h.byID[id]; dup {
			return nil, corrupt("duplicate id %d", id)
		}
		h.byID[id] = uint32(i)
	}
	if err := h.checkLinks(); err != nil {
		return nil, err
	}
	if verify {
		if err := checkFinite(h.vecs); err != nil {
			return nil, err
		}
		if err := checkFinite(h.cscale); err != nil {
			return nil, err
		}
	}
	return h, nil
}

func checkFinite(v []float32) error {
	for _, x := range v {
		if x-x != 0 { // NaN or ±Inf
			return corrupt("non-finite vector value")
		}
	}
	return nil
}

// castSlice returns the n values of type T that data holds from byte off
// (aligned for T: the format aligns every array for its type, and a
// mapping starts on a page).
func castSlice[T int64 | uint32 | float32 | int8](data []byte, off, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&data[off])), n)
}

// Exact returns an exact index over the graph's own vectors: no second
// copy, and for a mapped graph no page read until it scans. It keeps the
// graph (and its mapping) alive. The vectors were checked when they were
// added, loaded or (with verify) mapped, so unlike [NewExactFromMatrix] it
// does not read them all to check them. The graph must not be added to
// while the exact index is used.
func (h *HNSW) Exact() *Exact {
	h.mu.RLock()
	defer h.mu.RUnlock()
	e := &Exact{idTable: idTable[int32]{dims: h.dims, ids: h.ids[:len(h.ids):len(h.ids)], byID: make(map[int64]int32, len(h.ids))}, data: h.vecs[:len(h.vecs):len(h.vecs)], owner: h}
	for i, id := range h.ids {
		e.byID[id] = int32(i)
	}
	return e
}

// Mappable reports whether a saved graph that starts with head (its first
// 12 bytes) is in the format [MapHNSW] maps.
func Mappable(head []byte) bool {
	return len(head) >= 12 && string(head[:8]) == hnswMagic && binary.LittleEndian.Uint32(head[8:]) == hnswVersion
}

// Clone returns a copy of the graph in memory of its own, which can be
// added to: of a mapped graph, a copy that no longer needs the file.
func (h *HNSW) Clone() *HNSW {
	h.mu.RLock()
	defer h.mu.RUnlock()
	c := &HNSW{
		idTable: idTable[uint32]{dims: h.dims, ids: slices.Clone(h.ids), byID: make(map[int64]uint32, len(h.ids))},
		m:       h.m, m0: h.m0, efC: h.efC, efS: h.efS, workers: h.workers, ml: h.ml, rng: h.rng,
		vecs: slices.Clone(h.vecs), levels: slices.Clone(h.levels),
		links0: slices.Clone(h.links0), upper: make([][]uint32, len(h.upper)),
		entry: h.entry, maxLevel: h.maxLevel,
		codes: slices.Clone(h.codes), cscale: slices.Clone(h.cscale), cstride: h.cstride,
	}
	for i, up := range h.upper {
		c.upper[i] = slices.Clone(up)
	}
	for i, id := range c.ids {
		c.byID[id] = uint32(i)
	}
	return c
}

// BuildHNSW builds a graph over a flat matrix (row i of data, dims values,
// is the vector of ids[i]) as AddBatch would, but takes ownership of data
// as the graph's own vectors instead of copying them: building over
// vectors just loaded costs no second copy. The caller must not use data
// afterwards.
func BuildHNSW(dims int, ids []int64, data []float32, opts HNSWOptions) (*HNSW, error) {
	if dims < 1 || dims > maxDims || len(data) != len(ids)*dims {
		return nil, fmt.Errorf("%w: %d values for %d ids of %d dimensions", ErrDims, len(data), len(ids), dims)
	}
	h := NewHNSW(dims, opts)
	rows := make([][]float32, len(ids))
	for i := range ids {
		rows[i] = data[i*dims : (i+1)*dims : (i+1)*dims]
	}
	// The graph's vectors start empty over data's memory: appending row
	// i writes it where it already is.
	h.vecs = data[:0]
	if err := h.AddBatch(ids, rows); err != nil {
		return nil, err
	}
	return h, nil
}
