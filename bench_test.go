package oraculo_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/cpuclock"
	"github.com/oraculo/oraculo/internal/synth"
	"github.com/oraculo/oraculo/retrieve"
)

// BenchmarkIngest measures ingest throughput (MB/s of notes) into a fresh
// index: walk, read, hash, chunk, analyse and write.
func BenchmarkIngest(b *testing.B) {
	notes := b.TempDir()
	size, err := synth.Write(notes, 2000, 10, 400)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(size)
	b.ResetTimer()
	cpu := cpuclock.Process()
	for i := range b.N {
		eng, err := oraculo.Open(ctx, filepath.Join(b.TempDir(), fmt.Sprintf("i%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
			b.Fatal(err)
		}
		eng.Close()
	}
	b.ReportMetric((cpuclock.Process()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkReingestUnchanged measures a re-run over notes that did not
// change: read and hash only.
func BenchmarkReingestUnchanged(b *testing.B) {
	notes := b.TempDir()
	size, err := synth.Write(notes, 2000, 10, 400)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	eng, err := oraculo.Open(ctx, filepath.Join(b.TempDir(), "u.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchIndex builds an index of about n chunks (one session of ~120
// words per chunk) in b's temporary directory, removed when b ends.
// With $ORACULO_BENCH_CACHE naming a directory, the index is kept there
// instead (bm25-<n>.db) and later runs reuse it: a 100k-chunk index takes
// minutes to build. Delete that directory when the synthetic notes or the
// index's schema change.
func benchIndex(b *testing.B, n int) string {
	cache := os.Getenv("ORACULO_BENCH_CACHE")
	if cache == "" {
		return buildBenchIndex(b, n, filepath.Join(b.TempDir(), "bench.db"))
	}
	db := filepath.Join(cache, fmt.Sprintf("bm25-%d.db", n))
	if _, err := os.Stat(db); err == nil {
		b.Logf("index of %d sessions reused from %s", n, db)
		return db
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		b.Fatal(err)
	}
	// Built under another name and renamed once complete, so that an
	// interrupted build is never reused.
	tmp := fmt.Sprintf("%s.tmp-%d", db, os.Getpid())
	defer func() {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(tmp + suffix)
		}
	}()
	buildBenchIndex(b, n, tmp)
	if err := os.Rename(tmp, db); err != nil {
		b.Fatal(err)
	}
	return db
}

// buildBenchIndex writes the synthetic notes in b's temporary directory
// and ingests them into db.
func buildBenchIndex(b *testing.B, n int, db string) string {
	notes := filepath.Join(b.TempDir(), "notes")
	if _, err := synth.Write(notes, n, 50, 120); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	eng, err := oraculo.Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	st, _ := eng.Stats(ctx)
	b.Logf("index of %d sessions: %d chunks, %d paragraphs, %d bytes", n, st.Chunks, st.Children, st.Bytes)
	return db
}

// benchTailQuestions are the 200 questions for the latency percentiles
// (see [synth.TailQuestions]); every one has a term the analyser keeps.
func benchTailQuestions(an *analysis.Analyzer) []string {
	return synth.TailQuestions(func(q string) bool { return index.MatchQuery(an.Terms(q)) != "" })
}

// reportPercentiles reports the median and 95th percentile of per-query
// durations, in milliseconds.
func reportPercentiles(b *testing.B, durs []time.Duration) {
	slices.Sort(durs)
	at := func(p float64) float64 {
		return float64(durs[int(p*float64(len(durs)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}

// BenchmarkBM25 compares a full Oráculo keyword search (analysis, FTS5
// query, small-to-big jump to parents, loading chunks) with the same FTS5
// query issued directly, at three index sizes. The ratio of the two is the
// overhead Oráculo adds. $ORACULO_BENCH_SIZES chooses the sizes (e.g.
// "1000,10000"); the indexes are removed at the end unless
// $ORACULO_BENCH_CACHE keeps them (see benchIndex).
func BenchmarkBM25(b *testing.B) {
	sizes := []int{1000, 10000, 100000}
	if s := os.Getenv("ORACULO_BENCH_SIZES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			var n int
			fmt.Sscan(f, &n)
			sizes = append(sizes, n)
		}
	}
	ctx := context.Background()
	const k = 10
	// ORACULO_BENCH_DB names an index to measure instead of the synthetic
	// ones (a user's own); with ORACULO_BENCH_EMBEDDER (a provider, e.g.
	// hashing) the search runs the dense path too.
	only := os.Getenv("ORACULO_BENCH_DB")
	if only != "" {
		sizes = []int{0}
	}
	for _, n := range sizes {
		db := only
		if db == "" {
			db = benchIndex(b, n)
		}
		var opts []oraculo.Option
		if p := os.Getenv("ORACULO_BENCH_EMBEDDER"); p != "" { // e.g. hashing
			opts = append(opts, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: p}))
		}
		eng, err := oraculo.Open(ctx, db, opts...)
		if err != nil {
			b.Fatal(err)
		}
		if only != "" {
			st, err := eng.Stats(ctx)
			if err != nil {
				b.Fatal(err)
			}
			n = st.Chunks
			b.Logf("%s: %d chunks, paths %v, dense vectors %d, graph %v", db, n, st.Retrieval.Paths, st.Retrieval.DenseVectors, st.Retrieval.Graph)
		}
		an, _ := analysis.New("es")
		questions := benchTailQuestions(an)
		b.Run(fmt.Sprintf("chunks=%d/oraculo", n), func(b *testing.B) {
			// One pass first: the percentiles are of a warm index (page
			// cache, counts of common terms), as a running server's are.
			for _, q := range questions {
				if _, err := eng.Search(ctx, q, oraculo.SearchOptions{K: k}); err != nil {
					b.Fatal(err)
				}
			}
			durs := make([]time.Duration, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				if _, err := eng.Search(ctx, questions[i%len(questions)], oraculo.SearchOptions{K: k}); err != nil {
					b.Fatal(err)
				}
				durs[i] = time.Since(start)
			}
			reportPercentiles(b, durs)
		})
		b.Run(fmt.Sprintf("chunks=%d/raw-fts5", n), func(b *testing.B) {
			queries := make([]string, len(questions))
			for i, q := range questions {
				queries[i] = index.MatchQuery(an.Terms(q))
			}
			// The keyword path's own FTS5 query, without the jump to parents
			// and without loading chunks.
			stmt, err := openIndex(b, db).DB().Prepare(`SELECT rowid, bm25(children_fts, 1.0, 1.0) AS score FROM children_fts
				WHERE children_fts MATCH ? ORDER BY score LIMIT ?`)
			if err != nil {
				b.Fatal(err)
			}
			defer stmt.Close()
			durs := make([]time.Duration, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				rows, err := stmt.Query(queries[i%len(queries)], retrieve.Depth(k))
				if err != nil {
					b.Fatal(err)
				}
				for rows.Next() {
					var id int64
					var s float64
					rows.Scan(&id, &s)
				}
				rows.Close()
				durs[i] = time.Since(start)
			}
			reportPercentiles(b, durs)
		})
		eng.Close()
	}
}
