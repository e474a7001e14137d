package oraculo_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/benchrun"
	"github.com/oraculo/oraculo/internal/cpuclock"
	"github.com/oraculo/oraculo/internal/synth"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/visibility"
)

// benchIngestConfig is the configuration a fresh engine ingests with: the
// default language and chunking, every note public.
func benchIngestConfig(b *testing.B) ingest.Config {
	b.Helper()
	an, err := analysis.New(oraculo.DefaultLang)
	if err != nil {
		b.Fatal(err)
	}
	return ingest.Config{
		Stamp:       "bench",
		Chunking:    chunk.Options{MaxWords: chunk.DefaultMaxWords, OverlapWords: chunk.DefaultOverlapWords, Lang: oraculo.DefaultLang},
		Terms:       an.Terms,
		AppendTerms: an.AppendTerms,
		Decide:      func(store.VisibilityRecord) visibility.Decision { return visibility.Decision{} },
	}
}

// BenchmarkIngestRawFTS5 is the floor BenchmarkIngest is measured
// against: the paragraphs of the same notes (analysed beforehand, not
// timed) inserted straight into an FTS5 table like the index's, in one
// transaction, on a fresh file with the index's journal settings. MB/s are
// of the notes, as in BenchmarkIngest.
func BenchmarkIngestRawFTS5(b *testing.B) {
	notes := b.TempDir()
	size, err := synth.Write(notes, 2000, 10, 400)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	w := &benchrun.Records{}
	if _, err := ingest.Update(ctx, w, notes, benchIngestConfig(b)); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	cpu := cpuclock.Process()
	for i := range b.N {
		if _, err := benchrun.RawFTS5Insert(filepath.Join(b.TempDir(), fmt.Sprintf("raw%d.db", i)), w.Docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuclock.Process()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkIngestNotes measures the notes stage of an ingest alone (walk,
// read, hash, chunk, analyse and write into a fresh index: ingest.Update),
// without the compendium BenchmarkIngest also builds.
func BenchmarkIngestNotes(b *testing.B) {
	notes := b.TempDir()
	size, err := synth.Write(notes, 2000, 10, 400)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cfg := benchIngestConfig(b)
	b.SetBytes(size)
	b.ResetTimer()
	cpu := cpuclock.Process()
	for i := range b.N {
		ix, err := index.Open(ctx, filepath.Join(b.TempDir(), fmt.Sprintf("n%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ingest.Update(ctx, ix, notes, cfg); err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
	b.ReportMetric((cpuclock.Process()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkIngestWikilinks ingests, into a fresh index, a vault whose one
// note links to links distinct notes (synth.WriteLinkIndex: an Obsidian
// index of every note, with aliases and mentions), the whole ingest with
// the compendium and every mention. It reports the CPU seconds of an
// ingest beside the wall time: the machine may be shared. The cost must
// grow with the note, not with its square (20,000 links took 10 to 400
// seconds; 100,000 never finished).
func BenchmarkIngestWikilinks(b *testing.B) {
	for _, links := range []int{20000, 100000} {
		b.Run(fmt.Sprintf("links=%d", links), func(b *testing.B) {
			notes := b.TempDir()
			size, err := synth.WriteLinkIndex(notes, links)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.SetBytes(size)
			cpu := cpuclock.Process()
			b.ResetTimer()
			for i := range b.N {
				eng, err := oraculo.Open(ctx, filepath.Join(b.TempDir(), fmt.Sprintf("w%d.db", i)))
				if err != nil {
					b.Fatal(err)
				}
				rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if rep.Entities < links {
					b.Fatalf("%d entities from %d links", rep.Entities, links)
				}
				eng.Close()
			}
			b.ReportMetric((cpuclock.Process()-cpu).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}
