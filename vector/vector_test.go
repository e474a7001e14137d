package vector

import (
	"errors"
	"math"
	"testing"
)

func TestDot(t *testing.T) {
	r := rng(1)
	for _, n := range []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 384, 1023, 1024} {
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		var want, mag float64
		for i := range a {
			want += float64(a[i]) * float64(b[i])
			mag += math.Abs(float64(a[i]) * float64(b[i]))
		}
		got := float64(Dot(a, b))
		if math.Abs(got-want) > 1e-5*(mag+1) {
			t.Errorf("n=%d: Dot = %v, want %v", n, got, want)
		}
		if Dot(a, b) != Dot(b, a) {
			t.Errorf("n=%d: Dot not symmetric", n)
		}
	}
	// Mismatched lengths use the shorter one and do not panic.
	if got := Dot([]float32{1, 2, 3}, []float32{4, 5}); got != 14 {
		t.Errorf("Dot of mismatched lengths = %v, want 14", got)
	}
	if got := Dot(nil, []float32{1}); got != 0 {
		t.Errorf("Dot(nil, x) = %v", got)
	}
}

// TestDotKernels checks that the kernel Dot runs (the assembly one where
// the CPU has it) agrees with the portable Go loop and with a float64
// reference on random inputs of every length up to 80 and around 1,024,
// from unaligned starts.
func TestDotKernels(t *testing.T) {
	t.Logf("assembly kernel: %v", hasFMA)
	r := rng(7)
	var lens []int
	for n := range 81 {
		lens = append(lens, n)
	}
	lens = append(lens, 127, 128, 129, 383, 384, 385, 1017, 1023, 1024, 1025, 1031, 4099)
	buf := make([]float32, 2*4099+32)
	for _, n := range lens {
		for trial := range 20 {
			for i := range buf {
				buf[i] = float32(r.NormFloat64())
			}
			oa, ob := r.IntN(8), r.IntN(8)
			a := buf[oa : oa+n]
			b := buf[4099+8+ob : 4099+8+ob+n+trial%3] // b may be longer
			var want, mag float64
			for i := range a {
				want += float64(a[i]) * float64(b[i])
				mag += math.Abs(float64(a[i]) * float64(b[i]))
			}
			tol := 1e-6 * (mag + 1)
			got, ref := float64(dot(a, b)), float64(dotGo(a, b))
			if math.Abs(got-want) > tol || math.Abs(ref-want) > tol {
				t.Fatalf("n=%d: dot = %v, dotGo = %v, float64 = %v", n, got, ref, want)
			}
			if got != float64(Dot(a, b[:n])) {
				t.Fatalf("n=%d: Dot differs from its kernel", n)
			}
		}
	}
}

// TestDotI8 checks the int8 kernel (assembly where the CPU has AVX2)
// against an exact sum, including the extreme codes ±127.
func TestDotI8(t *testing.T) {
	r := rng(8)
	for _, n := range []int{0, 1, 5, 31, 32, 33, 63, 64, 65, 96, 127, 1024, 1056, 1061, 65536} {
		for trial := range 5 {
			a, b := make([]int8, n), make([]int8, n+trial)
			for i := range b {
				b[i] = int8(r.IntN(255) - 127)
				if trial == 0 {
					b[i] = 127 // extremes: no saturation
				}
			}
			for i := range a {
				a[i] = int8(r.IntN(255) - 127)
				if trial == 0 {
					a[i] = int8(-127 + 254*(i%2))
				}
			}
			var want int64
			for i := range a {
				want += int64(a[i]) * int64(b[i])
			}
			if got := dotI8(a, b); int64(got) != want {
				t.Fatalf("n=%d trial %d: dotI8 = %d, want %d", n, trial, got, want)
			}
			if got := dotI8Go(a, b); int64(got) != want {
				t.Fatalf("n=%d trial %d: dotI8Go = %d, want %d", n, trial, got, want)
			}
		}
	}
}

func TestNormalize(t *testing.T) {
	v := []float32{3, 4}
	if !Normalize(v) || v[0] != 0.6 || v[1] != 0.8 {
		t.Errorf("Normalize(3,4) = %v", v)
	}
	v = unitVecs(rng(2), 1, 1024)
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if math.Abs(s-1) > 1e-6 {
		t.Errorf("norm² after Normalize = %v", s)
	}
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	for _, bad := range [][]float32{nil, {}, {0, 0, 0}, {1, nan}, {inf, 1}} {
		c := append([]float32(nil), bad...)
		if Normalize(c) {
			t.Errorf("Normalize(%v) = true", bad)
		}
		for i := range c {
			if math.Float32bits(c[i]) != math.Float32bits(bad[i]) {
				t.Errorf("Normalize(%v) changed it to %v", bad, c)
			}
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	v := []float32{0, 1, -1, 0.1, float32(math.Inf(-1)), math.MaxFloat32, math.SmallestNonzeroFloat32, float32(math.NaN())}
	b := Encode(v)
	if len(b) != 4*len(v) {
		t.Fatalf("len(Encode) = %d", len(b))
	}
	if b[4] != 0x00 || b[7] != 0x3f { // 1.0 = 0x3f800000, little-endian
		t.Errorf("Encode(1) bytes = % x, want 00 00 80 3f", b[4:8])
	}
	got, err := Decode(b, len(v))
	if err != nil {
		t.Fatal(err)
	}
	for i := range v {
		if math.Float32bits(got[i]) != math.Float32bits(v[i]) {
			t.Errorf("round trip [%d]: %v != %v", i, got[i], v[i])
		}
	}
	u := unitVecs(rng(3), 1, 384)
	got, err = Decode(Encode(u), 384)
	if err != nil || len(got) != 384 {
		t.Fatalf("Decode: %v", err)
	}
	for i := range u {
		if got[i] != u[i] {
			t.Fatalf("384-d round trip differs at %d", i)
		}
	}
	for _, c := range []struct {
		n, dims int
	}{{0, 0}, {4, 0}, {4, -1}, {3, 1}, {5, 1}, {8, 1}, {0, 1}, {4 * 383, 384}, {4*384 + 1, 384}} {
		if _, err := Decode(make([]byte, c.n), c.dims); !errors.Is(err, ErrDims) {
			t.Errorf("Decode(%d bytes, %d dims) error = %v, want ErrDims", c.n, c.dims, err)
		}
	}
}

func TestRecall(t *testing.T) {
	h := func(ids ...int64) []Hit {
		out := make([]Hit, len(ids))
		for i, id := range ids {
			out[i] = Hit{ID: id, Score: float32(10 - i)}
		}
		return out
	}
	exact := [][]Hit{h(1, 2, 3, 4), h(5, 6, 7, 8), h()}
	approx := [][]Hit{h(1, 2, 3, 4), h(6, 9, 5, 10), h(1)}
	// Query 0: 1; query 1: 2/4 at k=4 (5 and 6), 1/2 at k=2 (6 only); query 2: empty → 1.
	if got, want := Recall(exact, approx, 4), (1+0.5+1)/3.0; math.Abs(got-want) > 1e-12 {
		t.Errorf("Recall@4 = %v, want %v", got, want)
	}
	if got, want := Recall(exact, approx, 2), (1+0.5+1)/3.0; math.Abs(got-want) > 1e-12 {
		t.Errorf("Recall@2 = %v, want %v", got, want)
	}
	if got, want := Recall(exact, approx[:1], 4), (1+0+1)/3.0; math.Abs(got-want) > 1e-12 {
		t.Errorf("Recall with missing queries = %v, want %v", got, want)
	}
	if Recall(nil, nil, 10) != 0 || Recall(exact, approx, 0) != 0 {
		t.Error("Recall of nothing should be 0")
	}
}

func TestTopK(t *testing.T) {
	r := rng(4)
	for _, k := range []int{0, 1, 2, 5, 100} {
		tk := newTopK(k)
		var all []Hit
		for i := range 300 {
			x := Hit{ID: int64(r.IntN(50)) + int64(i)*1000, Score: float32(r.IntN(20))}
			all = append(all, x)
			tk.push(x)
		}
		sortHits(all)
		sortHits(tk.h)
		want := all[:min(k, len(all))]
		if len(tk.h) != len(want) {
			t.Fatalf("k=%d: kept %d", k, len(tk.h))
		}
		for i := range want {
			if tk.h[i] != want[i] {
				t.Fatalf("k=%d: [%d] = %v, want %v", k, i, tk.h[i], want[i])
			}
		}
	}
}

func TestHNSWOptionsDefaults(t *testing.T) {
	o := HNSWOptions{}.WithDefaults()
	if o.M != DefaultM || o.EfConstruction != DefaultEfConstruction || o.EfSearch != DefaultEfSearch || o.Seed != 1 || o.Workers != 0 {
		t.Errorf("defaults = %+v", o)
	}
	o = HNSWOptions{M: 1000, EfSearch: 1 << 30, EfConstruction: 7, Seed: 5, Workers: -2}.WithDefaults()
	if o.M != maxM || o.EfSearch != maxEf || o.EfConstruction != 7 || o.Seed != 5 || o.Workers != 0 {
		t.Errorf("clamped = %+v", o)
	}
	h := NewHNSW(4, HNSWOptions{M: 8, EfSearch: 10})
	if h.M() != 8 || h.EfSearch() != 10 || h.EfConstruction() != DefaultEfConstruction {
		t.Errorf("NewHNSW ignores options: M %d ef %d efC %d", h.M(), h.EfSearch(), h.EfConstruction())
	}
}

func TestAuto(t *testing.T) {
	if _, ok := Auto(8, DefaultThreshold-1, 0, HNSWOptions{}).(*Exact); !ok {
		t.Error("Auto below the threshold is not Exact")
	}
	if _, ok := Auto(8, DefaultThreshold, 0, HNSWOptions{}).(*HNSW); !ok {
		t.Error("Auto at the threshold is not HNSW")
	}
	if _, ok := Auto(8, 99, 100, HNSWOptions{}).(*Exact); !ok {
		t.Error("Auto(threshold 100, n 99) is not Exact")
	}
	if _, ok := Auto(8, 100, 100, HNSWOptions{}).(*HNSW); !ok {
		t.Error("Auto(threshold 100, n 100) is not HNSW")
	}
}

// testErrors checks the bad inputs every Searcher must reject without
// panicking.
func testErrors(t *testing.T, mk func(dims int) Searcher) {
	t.Helper()
	s := mk(4)
	if s.Dims() != 4 || s.Len() != 0 {
		t.Fatalf("new index: Dims %d Len %d", s.Dims(), s.Len())
	}
	// Empty index.
	hits, err := s.Search([]float32{1, 0, 0, 0}, 10)
	if err != nil || len(hits) != 0 {
		t.Errorf("Search of empty index = %v, %v", hits, err)
	}
	if err := s.Add(1, []float32{1, 0, 0}); !errors.Is(err, ErrDims) {
		t.Errorf("Add of 3 dims to 4: %v", err)
	}
	if err := s.Add(1, nil); !errors.Is(err, ErrDims) {
		t.Errorf("Add of nil: %v", err)
	}
	if err := s.Add(1, []float32{float32(math.NaN()), 0, 0, 0}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Add of NaN: %v", err)
	}
	if err := s.Add(1, []float32{1, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(1, []float32{0, 1, 0, 0}); !errors.Is(err, ErrDuplicateID) {
		t.Errorf("Add of a duplicate id: %v", err)
	}
	if s.Len() != 1 {
		t.Errorf("Len after failed Adds = %d", s.Len())
	}
	if c, ok := s.(interface{ Contains(int64) bool }); !ok || !c.Contains(1) || c.Contains(2) {
		t.Errorf("Contains is missing or wrong")
	}
	if _, err := s.Search([]float32{1, 0, 0, 0, 0}, 1); !errors.Is(err, ErrDims) {
		t.Errorf("Search with 5 dims: %v", err)
	}
	if _, err := s.Search([]float32{1, 0, 0, float32(math.Inf(1))}, 1); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Search with Inf: %v", err)
	}
	if _, err := s.Search([]float32{1, 0, 0, 0}, -1); !errors.Is(err, ErrBadK) {
		t.Errorf("Search with k=-1: %v", err)
	}
	if hits, err := s.Search([]float32{1, 0, 0, 0}, 0); err != nil || len(hits) != 0 {
		t.Errorf("Search with k=0 = %v, %v", hits, err)
	}
	if hits, err := s.Search([]float32{1, 0, 0, 0}, 5); err != nil || len(hits) != 1 || hits[0].ID != 1 {
		t.Errorf("Search with k > Len = %v, %v", hits, err)
	}
	for _, d := range []int{0, -3} {
		bad := mk(d)
		if err := bad.Add(1, []float32{}); !errors.Is(err, ErrDims) {
			t.Errorf("dims %d: Add: %v", d, err)
		}
		if _, err := bad.Search(nil, 1); !errors.Is(err, ErrDims) {
			t.Errorf("dims %d: Search: %v", d, err)
		}
	}
}
