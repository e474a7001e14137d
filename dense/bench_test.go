package dense

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/cpuclock"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/vector"
)

// The benchmarks below run on a real index, named by
// $ORACULO_BENCH_DENSE_DB (skipped without it), made by ingest with its
// embedder (`oraculo ingest --db DB --embedder hashing VAULT`):
//
//	ORACULO_BENCH_DENSE_DB=/work/bench/dense/100k.db go test ./dense/ -run '^$' -bench 'GraphBuild' -benchtime 1x -timeout 60m
//	ORACULO_BENCH_DENSE_DB=/work/bench/dense/100k.db go test ./dense/ -run '^$' -bench 'GraphSearch' -benchtime 1x -timeout 60m
//
// $ORACULO_BENCH_HNSW ("M=16,efc=128") sets the build's options,
// $ORACULO_BENCH_EF the searches' EfSearch, $ORACULO_BENCH_DENSE_N a
// smaller set (the first N vectors; the build benchmark only). The
// queries are 200 of the index's own vectors, spread over it, each one's
// own chunk left out of both the exact and the approximate neighbours: the
// neighbours of a chunk-like question among the real vectors.

const (
	benchQueries = 200
	benchK       = 10
)

// realSet is an index's vectors with queries and their exact neighbours.
type realSet struct {
	ix      *index.Index
	model   string
	vs      []float32
	ids     []int64
	dims    int
	queries []int // rows of vs
	exact   [][]vector.Hit
}

func loadRealSet(b *testing.B) *realSet {
	path := os.Getenv("ORACULO_BENCH_DENSE_DB")
	if path == "" {
		b.Skip("set ORACULO_BENCH_DENSE_DB to an index made by oraculo ingest with an embedder")
	}
	ctx := context.Background()
	ix, err := index.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	counts, err := ix.EmbeddingCounts(ctx)
	if err != nil {
		b.Fatal(err)
	}
	rs := &realSet{ix: ix}
	for m, c := range counts {
		if c > counts[rs.model] {
			rs.model = m
		}
	}
	v, _, err := ix.LoadVectors(ctx, rs.model)
	if err != nil || len(v.IDs) < 2*benchQueries {
		b.Fatalf("vectors of %q: %d, %v", rs.model, len(v.IDs), err)
	}
	rs.vs, rs.ids, rs.dims = v.Data, v.IDs, v.Dims
	if n, err := strconv.Atoi(os.Getenv("ORACULO_BENCH_DENSE_N")); err == nil && n >= 2*benchQueries && n < len(rs.ids) {
		rs.vs, rs.ids = rs.vs[:n*rs.dims], rs.ids[:n]
	}
	ex, err := vector.NewExactFromMatrix(rs.dims, rs.ids, rs.vs)
	if err != nil {
		b.Fatal(err)
	}
	for i := range benchQueries {
		r := i * len(rs.ids) / benchQueries
		rs.queries = append(rs.queries, r)
		hits, err := ex.Search(rs.row(r), benchK+1)
		if err != nil {
			b.Fatal(err)
		}
		rs.exact = append(rs.exact, rs.others(hits, r, benchK))
	}
	return rs
}

func (rs *realSet) row(r int) []float32 { return rs.vs[r*rs.dims : (r+1)*rs.dims] }

// others returns the first k hits that are not row r's own chunk.
func (rs *realSet) others(hits []vector.Hit, r, k int) []vector.Hit {
	hits = slices.DeleteFunc(slices.Clone(hits), func(h vector.Hit) bool { return h.ID == rs.ids[r] })
	return hits[:min(k, len(hits))]
}

// recall searches g as the dense path does (retrieve.FixedDepth
// neighbours, the first benchK kept) and returns the recall@10 against
// the exact neighbours and the latencies.
func (rs *realSet) recall(b *testing.B, search func([]float32, int) ([]vector.Hit, error)) (float64, []time.Duration) {
	got := make([][]vector.Hit, len(rs.queries))
	lat := make([]time.Duration, len(rs.queries))
	for i, r := range rs.queries {
		t0 := time.Now()
		hits, err := search(rs.row(r), retrieve.FixedDepth)
		lat[i] = time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		got[i] = rs.others(hits, r, benchK)
	}
	slices.Sort(lat)
	return vector.Recall(rs.exact, got, benchK), lat
}

// benchOptions reads $ORACULO_BENCH_HNSW ("M=16,efc=128").
func benchOptions(b *testing.B) vector.HNSWOptions {
	var o vector.HNSWOptions
	for kv := range strings.SplitSeq(os.Getenv("ORACULO_BENCH_HNSW"), ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		switch {
		case kv == "":
		case err != nil:
			b.Fatalf("ORACULO_BENCH_HNSW: %q", kv)
		case strings.EqualFold(k, "M"):
			o.M = n
		case strings.EqualFold(k, "efc"):
			o.EfConstruction = n
		}
	}
	return o
}

// BenchmarkGraphBuild builds the graph over a real index's vectors as
// ingest does ([vector.BuildHNSWCodes] over the vectors streamed, saved
// with [vector.HNSW.SaveRows] and mapped; $ORACULO_BENCH_BUILD=float
// builds over every vector in memory, [vector.BuildHNSW], as ingest did
// before) and reports the wall and CPU seconds of the build and the
// recall@10 of its searches against an exact scan.
func BenchmarkGraphBuild(b *testing.B) {
	rs := loadRealSet(b)
	opts := benchOptions(b)
	float := os.Getenv("ORACULO_BENCH_BUILD") == "float"
	rows := func(yield func(int64, []float32) error) error {
		for i, id := range rs.ids {
			if err := yield(id, rs.row(i)); err != nil {
				return err
			}
		}
		return nil
	}
	var g *vector.HNSW
	b.ResetTimer()
	cpu0 := cpuclock.Process()
	for range b.N {
		var err error
		if float {
			g, err = vector.BuildHNSW(rs.dims, slices.Clone(rs.ids), slices.Clone(rs.vs), opts)
		} else {
			g, err = vector.BuildHNSWCodes(rs.dims, len(rs.ids), rows, opts)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuclock.Process()-cpu0).Seconds()/float64(b.N), "cpu-s/build")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/build")
	b.StopTimer()
	if !float {
		g = savedAndMapped(b, g, rows)
	}
	for _, ef := range []int{64, 200, 400} {
		g.SetEfSearch(ef)
		rec, lat := rs.recall(b, g.Search)
		b.ReportMetric(rec, fmt.Sprintf("recall@10-ef%d", ef))
		b.ReportMetric(ms(lat[len(lat)*95/100]), fmt.Sprintf("p95-ms-ef%d", ef))
	}
	b.Logf("%d vectors, M %d, efConstruction %d, float %v", len(rs.ids), g.M(), g.EfConstruction(), float)
}

// savedAndMapped saves a graph built from codes with its vectors (rows)
// in a file and maps it, as ingest saves it and a search maps it.
func savedAndMapped(b *testing.B, g *vector.HNSW, rows vector.Rows) *vector.HNSW {
	path := b.TempDir() + "/g.hnsw"
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := g.SaveRows(w, rows); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	m, err := vector.MapHNSW(path, false)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkGraphSearch maps the graph ingest stored for a real index (as
// serve does) and reports the searches' recall@10 against an exact scan,
// their p50 and p95, the same of the graph-free scan of the codes
// ([vector.HNSW.ScanCodes], "scan-"), and the memory of the mapping that they left
// resident, per vector (from /proc/self/smaps): what a serving process
// keeps of the graph.
func BenchmarkGraphSearch(b *testing.B) {
	rs := loadRealSet(b)
	g, err := rs.ix.MapGraph(context.Background(), rs.model)
	if err != nil || g == nil {
		b.Fatalf("mapping the graph of %q: %v", rs.model, err)
	}
	if ef, err := strconv.Atoi(os.Getenv("ORACULO_BENCH_EF")); err == nil {
		g.SetEfSearch(ef)
	}
	b.ResetTimer()
	var rec float64
	var lat []time.Duration
	for range b.N {
		rec, lat = rs.recall(b, g.Search)
	}
	b.StopTimer()
	b.ReportMetric(rec, "recall@10")
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*95/100]), "p95-ms")
	rec, lat = rs.recall(b, g.ScanCodes)
	b.ReportMetric(rec, "scan-recall@10")
	b.ReportMetric(ms(lat[len(lat)/2]), "scan-p50-ms")
	b.ReportMetric(ms(lat[len(lat)*95/100]), "scan-p95-ms")
	b.Logf("%d vectors, EfSearch %d", g.Len(), g.EfSearch())
	if kb, ok := mappedRSS(b, ".hnsw"); ok {
		b.ReportMetric(float64(kb)*1024/float64(g.Len()), "resident-B/vector")
		b.ReportMetric(float64(kb)/1024, "resident-MB")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// mappedRSS returns the resident kilobytes of the mappings of files whose
// name ends with suffix, from /proc/self/smaps (false where there is none).
func mappedRSS(b *testing.B, suffix string) (int, bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in, total := false, 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 5 && strings.Contains(fields[0], "-"):
			in = strings.HasSuffix(fields[len(fields)-1], suffix)
		case in && len(fields) >= 2 && fields[0] == "Rss:":
			kb, err := strconv.Atoi(fields[1])
			if err != nil {
				b.Fatal(err)
			}
			total += kb
		}
	}
	return total, true
}
