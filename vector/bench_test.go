package vector

// Benchmarks. Run, from the repository root:
//
//	go test ./vector/ -run '^$' -bench 'ExactScan|Copy|QuantizedScan' -benchtime 2s
//	go test ./vector/ -run '^$' -bench 'HNSWBuild' -benchtime 1x
//	go test ./vector/ -run '^$' -bench 'HNSWSearch' -benchtime 2000x
//
// Sizes: 10,000 and 100,000 vectors of 1,024 dimensions always; 1,000,000
// (4 GiB of float32, plus 4 GiB for the copy's destination and 1 GiB of
// int8 codes) only with ORACULO_BENCH_1M=1. The HNSW benchmarks run 10,000
// vectors, and 100,000 only with ORACULO_BENCH_100K=1 (each 100k graph
// takes minutes to build on 2 cores).
//
// ExactScan and Copy report bytes per second over the same n·dims·4 bytes,
// so their ratio shows how close the scan is to memory bandwidth: Copy is
// one goroutine's copy() (it reads and writes each byte), Copy/…/parallel
// splits it across GOMAXPROCS goroutines like the scan. QuantizedScan
// reports n·dims bytes (the int8 codes it scans). HNSWSearch reports the
// recall@50 against Exact of its queries as a metric.

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/oraculo/oraculo/internal/cpuclock"
)

const benchDims = 1024

func benchSizes() []int {
	s := []int{10_000, 100_000}
	if os.Getenv("ORACULO_BENCH_1M") == "1" {
		s = append(s, 1_000_000)
	}
	return s
}

var (
	matMu    sync.Mutex
	matCache = map[int][]float32{}
)

// benchMatrix returns n random unit vectors of benchDims, generated once
// per size with a cheap xorshift generator across all cores (the 1M matrix
// takes a few seconds, not minutes).
func benchMatrix(n int) []float32 {
	matMu.Lock()
	defer matMu.Unlock()
	if m, ok := matCache[n]; ok {
		return m
	}
	m := make([]float32, n*benchDims)
	w := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for g := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := uint64(g+1) * 0x9e3779b97f4a7c15
			for i := g * n / w; i < (g+1)*n/w; i++ {
				v := m[i*benchDims : (i+1)*benchDims]
				for j := range v {
					s ^= s << 13
					s ^= s >> 7
					s ^= s << 17
					v[j] = float32(int32(s>>32)) / (1 << 31) // uniform in [-1, 1)
				}
				Normalize(v)
			}
		}()
	}
	wg.Wait()
	matCache[n] = m
	return m
}

func benchName(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("n=%dM", n/1_000_000)
	case n >= 1000:
		return fmt.Sprintf("n=%dk", n/1000)
	}
	return fmt.Sprintf("n=%d", n)
}

func BenchmarkExactScan(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(benchName(n), func(b *testing.B) {
			m := benchMatrix(n)
			e, err := NewExactFromMatrix(benchDims, seqIDs(n, 0, 1), m)
			if err != nil {
				b.Fatal(err)
			}
			qs := unitVecs(rng(1), 8, benchDims)
			b.SetBytes(int64(n) * benchDims * 4)
			b.ResetTimer()
			for i := range b.N {
				if _, err := e.Search(row(qs, benchDims, i%8), 50); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCopy(b *testing.B) {
	for _, n := range benchSizes() {
		src := benchMatrix(n)
		dst := make([]float32, len(src))
		copy(dst, src) // fault the destination's pages in before timing
		b.Run(benchName(n), func(b *testing.B) {
			b.SetBytes(int64(n) * benchDims * 4)
			for range b.N {
				copy(dst, src)
			}
		})
		b.Run(benchName(n)+"/parallel", func(b *testing.B) {
			b.SetBytes(int64(n) * benchDims * 4)
			w := runtime.GOMAXPROCS(0)
			for range b.N {
				var wg sync.WaitGroup
				for g := range w {
					lo, hi := g*len(src)/w, (g+1)*len(src)/w
					wg.Add(1)
					go func() {
						defer wg.Done()
						copy(dst[lo:hi], src[lo:hi])
					}()
				}
				wg.Wait()
			}
		})
		dst = nil
		runtime.GC()
	}
}

func BenchmarkQuantizedScan(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(benchName(n), func(b *testing.B) {
			x, err := NewQuantizedFromMatrix(benchDims, DefaultOversample, seqIDs(n, 0, 1), benchMatrix(n))
			if err != nil {
				b.Fatal(err)
			}
			qs := unitVecs(rng(1), 8, benchDims)
			b.SetBytes(int64(n) * benchDims)
			b.ResetTimer()
			for i := range b.N {
				if _, err := x.Search(row(qs, benchDims, i%8), 50); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// hnswBench is one data set of the HNSW benchmarks with its exact top 50.
type hnswBench struct {
	data, queries []float32
	ids           []int64
	exact         [][]Hit
}

func hnswSizes() []int {
	if os.Getenv("ORACULO_BENCH_100K") == "1" {
		return []int{10_000, 100_000}
	}
	return []int{10_000}
}

var (
	hbMu    sync.Mutex
	hbCache = map[string]*hnswBench{}
	hgCache = map[string]*HNSW{}
)

// hnswData returns n vectors of 1,024 dimensions: "uniform" on the sphere,
// or "clustered" from a mixture of n/100 gaussians (spread 0.8), with 200
// held-out queries of the same distribution.
func hnswData(b *testing.B, kind string, n int) *hnswBench {
	hbMu.Lock()
	defer hbMu.Unlock()
	key := fmt.Sprint(kind, n)
	if d, ok := hbCache[key]; ok {
		return d
	}
	r := rng(uint64(n))
	d := &hnswBench{ids: seqIDs(n, 0, 1)}
	if kind == "uniform" {
		d.data = unitVecs(r, n, benchDims)
		d.queries = unitVecs(r, 200, benchDims)
	} else {
		mx := newMixture(r, benchDims, n/100, 0.8)
		d.data = mx.sample(r, n)
		d.queries = mx.sample(r, 200)
	}
	e, err := NewExactFromMatrix(benchDims, d.ids, d.data)
	if err != nil {
		b.Fatal(err)
	}
	d.exact = searchAll(b, e, d.queries, 50)
	hbCache[key] = d
	return d
}

func buildBench(b *testing.B, d *hnswBench, batch bool) *HNSW {
	h := NewHNSW(benchDims, HNSWOptions{})
	if !batch {
		fill(b, h, d.data, d.ids)
		return h
	}
	vs := make([][]float32, len(d.ids))
	for i := range vs {
		vs[i] = row(d.data, benchDims, i)
	}
	if err := h.AddBatch(d.ids, vs); err != nil {
		b.Fatal(err)
	}
	return h
}

// BenchmarkHNSWBuild reports the time to build a graph (one op = one full
// build), with the parallel AddBatch and, at 10k, with sequential Add:
// wall seconds and the process's CPU seconds (user + system, all cores),
// which a busy shared machine inflates less.
func BenchmarkHNSWBuild(b *testing.B) {
	for _, kind := range []string{"uniform", "clustered"} {
		for _, n := range hnswSizes() {
			for _, batch := range []bool{true, false} {
				if !batch && n > 10_000 {
					continue
				}
				mode := "AddBatch"
				if !batch {
					mode = "Add"
				}
				b.Run(fmt.Sprintf("%s/%s/%s", kind, benchName(n), mode), func(b *testing.B) {
					d := hnswData(b, kind, n)
					b.ResetTimer()
					cpu0 := cpuclock.Process()
					var h *HNSW
					for range b.N {
						h = buildBench(b, d, batch)
					}
					b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/build")
					b.ReportMetric((cpuclock.Process()-cpu0).Seconds()/float64(b.N), "cpu-s/build")
					if batch {
						hbMu.Lock()
						hgCache[fmt.Sprint(kind, n)] = h
						hbMu.Unlock()
					}
				})
			}
		}
	}
}

// BenchmarkHNSWSearch reports query latency (k = 50) and recall@50 against
// Exact at several EfSearch values. Note that Search asks for max(k,
// EfSearch) candidates, so EfSearch 32 searches with 50.
func BenchmarkHNSWSearch(b *testing.B) {
	for _, kind := range []string{"uniform", "clustered"} {
		for _, n := range hnswSizes() {
			for _, ef := range []int{32, 64, 128, 256} {
				b.Run(fmt.Sprintf("%s/%s/ef=%d", kind, benchName(n), ef), func(b *testing.B) {
					// Data and graph are made here, not outside b.Run, so
					// that a -bench pattern naming one set builds only it.
					d, h := hnswGraph(b, kind, n)
					h.SetEfSearch(ef)
					got := searchAll(b, h, d.queries, 50)
					rec := Recall(d.exact, got, 50)
					nq := len(d.queries) / benchDims
					b.ResetTimer()
					for i := range b.N {
						if _, err := h.Search(row(d.queries, benchDims, i%nq), 50); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(rec, "recall@50")
				})
			}
		}
	}
}

// hnswGraph returns a data set and its graph: the one BenchmarkHNSWBuild
// left in the same run, else one built here (once per set).
func hnswGraph(b *testing.B, kind string, n int) (*hnswBench, *HNSW) {
	d := hnswData(b, kind, n)
	key := fmt.Sprint(kind, n)
	hbMu.Lock()
	h := hgCache[key]
	hbMu.Unlock()
	if h == nil {
		t0 := time.Now()
		h = buildBench(b, d, true)
		b.Logf("%s %s: built in %v", kind, benchName(n), time.Since(t0).Round(time.Millisecond))
		hbMu.Lock()
		hgCache[key] = h
		hbMu.Unlock()
	}
	return d, h
}

// BenchmarkDot measures the kernel alone on one pair of 1,024-dimension
// vectors (in cache).
func BenchmarkDot(b *testing.B) {
	v := unitVecs(rng(2), 2, benchDims)
	x, y := row(v, benchDims, 0), row(v, benchDims, 1)
	b.SetBytes(2 * benchDims * 4)
	var s float32
	for range b.N {
		s += Dot(x, y)
	}
	if math.IsNaN(float64(s)) {
		b.Fatal("NaN")
	}
}

// BenchmarkDotI8 measures the int8 kernel that graph builds walk with, on
// one pair of 1,024-code vectors (in cache).
func BenchmarkDotI8(b *testing.B) {
	v := unitVecs(rng(2), 2, benchDims)
	x, y := make([]int8, benchDims), make([]int8, benchDims)
	quantizeI8(x, row(v, benchDims, 0))
	quantizeI8(y, row(v, benchDims, 1))
	b.SetBytes(2 * benchDims)
	var s int32
	for range b.N {
		s += dotI8(x, y)
	}
	if s == 1 {
		b.Log(s)
	}
}
