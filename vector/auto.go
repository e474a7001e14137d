package vector

// DefaultThreshold is the engine's default for [Auto]: indexes of fewer
// vectors are searched exactly, larger ones with [HNSW].
//
// Why 20,000 (figures at 1,024 dimensions on this project's 2-core
// machine, k = 50): below it an exact scan needs no graph and loses
// nothing. 20,000 vectors are 80 MB scanned in about 3 ms (1.4 ms per
// 10,000, linear: 14 ms at 100,000, 135 ms at a million), well under the
// time of embedding the question, with no build time, no graph memory and
// recall 1. An HNSW graph answers in 0.4 to 0.7 ms at recall@50 0.98 to
// 0.99 (EfSearch 64, clustered data, 10,000 to 100,000 vectors) but costs
// a build (about 4 s per 10,000 vectors, 82 s for 100,000, with AddBatch;
// persist it with Save) and is only as good as the data's structure: on
// vectors without any (uniform on the sphere) its recall collapses (0.29
// at 10,000, 0.05 at 100,000) and hnswlib measures the same. Real
// embeddings of notes are clustered, but the exact scan stays the safer
// choice while it is cheap; above 20,000 the graph's tenfold-and-more
// speed-up starts to matter.
const DefaultThreshold = 20000

// Auto returns the searcher for an index that will hold n vectors of dims
// dimensions: an [Exact] below threshold vectors and an [HNSW] built with
// opts at or above it. A threshold < 1 means [DefaultThreshold].
func Auto(dims, n, threshold int, opts HNSWOptions) Searcher {
	if threshold < 1 {
		threshold = DefaultThreshold
	}
	if n < threshold {
		e := NewExact(dims)
		e.Reserve(n)
		return e
	}
	return NewHNSW(dims, opts)
}

// Recall compares approximate results with exact ones: for each query i,
// the share of the ids of exact[i][:k] that approx[i][:k] contains, averaged
// over the queries of exact. A query whose exact list is empty counts as
// 1; a query missing from approx counts as 0. It returns 0 for k < 1 or no
// query.
func Recall(exact, approx [][]Hit, k int) float64 {
	if k < 1 || len(exact) == 0 {
		return 0
	}
	var total float64
	for i, ex := range exact {
		ex = ex[:min(k, len(ex))]
		if len(ex) == 0 {
			total++
			continue
		}
		if i >= len(approx) {
			continue
		}
		ap := approx[i][:min(k, len(approx[i]))]
		in := make(map[int64]struct{}, len(ap))
		for _, h := range ap {
			in[h.ID] = struct{}{}
		}
		found := 0
		for _, h := range ex {
			if _, ok := in[h.ID]; ok {
				found++
			}
		}
		total += float64(found) / float64(len(ex))
	}
	return total / float64(len(exact))
}
