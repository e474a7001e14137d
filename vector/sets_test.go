package vector

import (
	"sync"
	"testing"
)

// testSet is a data set with held-out queries and their exact top 50.
type testSet struct {
	name    string
	dims    int
	data    []float32
	ids     []int64
	queries []float32
	exact   [][]Hit
}

func (s *testSet) vecs() [][]float32 {
	out := make([][]float32, len(s.ids))
	for i := range out {
		out[i] = row(s.data, s.dims, i)
	}
	return out
}

const (
	setK       = 50
	setQueries = 100
)

var (
	setsOnce sync.Once
	sets     []*testSet
)

// recallSets returns the shared data sets of the recall tests, built once:
//
//   - uniform: 5,000 unit vectors of 128 dimensions drawn uniformly on the
//     sphere, queries drawn the same way: the hardest case for a graph (no
//     structure, every point nearly equidistant);
//   - clustered: 10,000 unit vectors of 384 dimensions from a mixture of
//     100 gaussians (skewed sizes, within-cluster cosine about 0.6),
//     queries fresh samples of the same mixture: closer to embeddings of
//     notes.
//
// Ids are scrambled (not row numbers) to catch id/row mix-ups.
func recallSets(t testing.TB) []*testSet {
	setsOnce.Do(func() {
		r := rng(100)
		u := &testSet{name: "uniform", dims: 128}
		u.data = unitVecs(r, 5000, u.dims)
		u.queries = unitVecs(r, setQueries, u.dims)
		c := &testSet{name: "clustered", dims: 384}
		mx := newMixture(r, c.dims, 100, 0.8)
		c.data = mx.sample(r, 10000)
		c.queries = mx.sample(r, setQueries)
		for _, s := range []*testSet{u, c} {
			n := len(s.data) / s.dims
			s.ids = make([]int64, n)
			for i := range s.ids {
				s.ids[i] = int64(i)*7919%1_000_003 + 1_000_000_000
			}
			e, err := NewExactFromMatrix(s.dims, s.ids, s.data)
			if err != nil {
				panic(err)
			}
			s.exact = searchAll(t, e, s.queries, setK)
		}
		sets = []*testSet{u, c}
	})
	return sets
}
