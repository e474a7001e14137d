package vector

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// rng returns a deterministic generator for a test.
func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// unitVecs returns n random unit vectors (uniform on the sphere) as a flat
// matrix.
func unitVecs(r *rand.Rand, n, dims int) []float32 {
	m := make([]float32, n*dims)
	for i := range n {
		v := m[i*dims : (i+1)*dims]
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		Normalize(v)
	}
	return m
}

// mixture is a mixture of gaussians on the sphere: clusters random unit
// centres; a sample is a centre plus isotropic noise of expected norm
// spread, renormalised. Cluster sizes are skewed (a few large topics, many
// small ones), like chunks of notes. With spread 0.8 two points of one
// cluster have a cosine near 0.6 and points of different clusters near 0.
type mixture struct {
	dims    int
	centres []float32
	sigma   float64
}

func newMixture(r *rand.Rand, dims, clusters int, spread float64) *mixture {
	return &mixture{dims: dims, centres: unitVecs(r, clusters, dims), sigma: spread / math.Sqrt(float64(dims))}
}

// sample draws n unit vectors as a flat matrix.
func (mx *mixture) sample(r *rand.Rand, n int) []float32 {
	d := mx.dims
	k := len(mx.centres) / d
	m := make([]float32, n*d)
	for i := range n {
		c := int(float64(k) * math.Pow(r.Float64(), 2)) // Zipf-like
		cv := mx.centres[c*d : (c+1)*d]
		v := m[i*d : (i+1)*d]
		for j := range v {
			v[j] = cv[j] + float32(r.NormFloat64()*mx.sigma)
		}
		Normalize(v)
	}
	return m
}

// row returns row i of a flat matrix.
func row(m []float32, dims, i int) []float32 { return m[i*dims : (i+1)*dims] }

// naiveSearch is the single-threaded reference: score every row with Dot,
// sort by (score desc, id asc), cut at k.
func naiveSearch(m []float32, ids []int64, dims int, q []float32, k int) []Hit {
	all := make([]Hit, len(ids))
	for i, id := range ids {
		all[i] = Hit{ID: id, Score: Dot(q, row(m, dims, i))}
	}
	slices.SortFunc(all, func(a, b Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	return all[:min(k, len(all))]
}

// fill adds every row of m to s with ids[i].
func fill(t testing.TB, s Searcher, m []float32, ids []int64) {
	t.Helper()
	d := s.Dims()
	for i, id := range ids {
		if err := s.Add(id, row(m, d, i)); err != nil {
			t.Fatalf("Add(%d): %v", id, err)
		}
	}
}

// seqIDs returns ids base, base+stride, ... (n of them).
func seqIDs(n int, base, stride int64) []int64 {
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = base + int64(i)*stride
	}
	return ids
}

// searchAll runs every query (rows of qs) against s.
func searchAll(t testing.TB, s Searcher, qs []float32, k int) [][]Hit {
	t.Helper()
	d := s.Dims()
	out := make([][]Hit, len(qs)/d)
	for i := range out {
		h, err := s.Search(row(qs, d, i), k)
		if err != nil {
			t.Fatalf("Search: %v", err)
		}
		out[i] = h
	}
	return out
}

// checkSorted fails unless hits are best first with ties by smaller id.
func checkSorted(t testing.TB, hits []Hit) {
	t.Helper()
	for i := 1; i < len(hits); i++ {
		if better(hits[i], hits[i-1]) || hits[i] == hits[i-1] {
			t.Fatalf("hits out of order at %d: %v then %v", i, hits[i-1], hits[i])
		}
	}
}
