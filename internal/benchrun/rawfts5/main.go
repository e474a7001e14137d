// Command rawfts5 measures the floor a fresh ingest is compared against
// (BENCHMARKS.md, "fresh ingest ÷ raw FTS5 insert"): the paragraphs of a
// vault's notes, cut and analysed beforehand (not timed), inserted straight
// into an FTS5 table like the index's, in one transaction, on a fresh file
// with the index's journal settings — the same measure as the root
// package's BenchmarkIngestRawFTS5, on a folder of notes:
//
//	go run ./internal/benchrun/rawfts5 VAULT [SCRATCH.db]
//
// It prints one line: paragraphs, megabytes of notes, wall seconds, CPU
// seconds (user + system) of the insert alone, and MB/s of the notes.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/benchrun"
	"github.com/oraculo/oraculo/internal/cpuclock"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/visibility"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rawfts5 VAULT [SCRATCH.db]")
		os.Exit(2)
	}
	scratch := filepath.Join(os.TempDir(), fmt.Sprintf("rawfts5-%d.db", os.Getpid()))
	if len(os.Args) > 2 {
		scratch = os.Args[2]
	}
	if err := run(context.Background(), os.Args[1], scratch); err != nil {
		fmt.Fprintln(os.Stderr, "rawfts5:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, vault, scratch string) error {
	docs, size, err := analyse(ctx, vault)
	if err != nil {
		return err
	}
	if len(docs) == 0 {
		return fmt.Errorf("%s: no notes found", vault)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(scratch + suffix)
	}
	defer func() {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(scratch + suffix)
		}
	}()
	start, cpu := time.Now(), cpuclock.Process()
	n, err := benchrun.RawFTS5Insert(scratch, docs)
	if err != nil {
		return err
	}
	wall, used := time.Since(start), cpuclock.Process()-cpu
	mb := float64(size) / 1e6
	fmt.Printf("raw FTS5 insert: %d paragraphs, %.1f MB of notes, %.2f s wall, %.2f CPU-s, %.2f MB/s\n",
		n, mb, wall.Seconds(), used.Seconds(), mb/wall.Seconds())
	return nil
}

// analyse cuts and analyses the vault's notes as a fresh ingest does,
// keeping the records instead of writing them; size is the notes' bytes.
func analyse(ctx context.Context, vault string) ([]*store.DocumentRecord, int64, error) {
	an, err := analysis.New(oraculo.DefaultLang)
	if err != nil {
		return nil, 0, err
	}
	cfg := ingest.Config{
		Stamp:    "rawfts5",
		Chunking: chunk.Options{MaxWords: chunk.DefaultMaxWords, OverlapWords: chunk.DefaultOverlapWords, Lang: oraculo.DefaultLang},
		Terms:    an.Terms,
		Decide:   func(store.VisibilityRecord) visibility.Decision { return visibility.Decision{} },
	}
	w := &benchrun.Records{}
	if _, err := ingest.Update(ctx, w, vault, cfg); err != nil {
		return nil, 0, err
	}
	var size int64
	err = filepath.WalkDir(vault, func(_ string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(d.Name()) != ".md" {
			return err
		}
		info, err := d.Info()
		if err == nil {
			size += info.Size()
		}
		return err
	})
	return w.Docs, size, err
}
