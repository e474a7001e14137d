// Command bleve times Oráculo's keyword search (BM25 + entity) beside
// Bleve's on the same chunks and the same questions, in the same run: the
// anchor of issue 31 ("a search engine's latency"). It is a module of its
// own so that Oráculo's module and binary do not take Bleve's
// dependencies.
//
//	cd bench/bleve && go run . --db INDEX.db --n 200
//	cd bench/bleve && go run . --size 10000 --n 200 --json
//
// With --db it reads an index built by `oraculo ingest`; with --size it
// writes that many synthetic one-chunk sessions (internal/synth), ingests
// them and times the ingest. Either way it indexes every chunk's text and
// headings in Bleve (Spanish analyser "es", BM25 unless --scoring tfidf,
// merged into one segment: Bleve's BM25 takes its average length per
// segment), times the build, then runs the questions through both
// engines: one warm-up pass each, then --rounds passes alternated, k
// chunks a question. It prints, per engine, the build's wall and CPU
// seconds, the index's size, the p50/p95/p99 of the questions' wall
// times, the CPU seconds of its passes, and the load average before and
// after.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bleve bench:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// errUsage marks a command line that cannot run.
var errUsage = errors.New("usage")

// config is the command line.
type config struct {
	db, work, bleveDir string
	size, n, k, rounds int
	seed               uint64
	questions, scoring string
	paths              string
	loadText, asJSON   bool
}

// parse reads the command line into a config.
func parse(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("bleve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.db, "db", "", "an Oráculo index built by `oraculo ingest` (or --size)")
	fs.IntVar(&c.size, "size", 0, "write and ingest this many synthetic one-chunk sessions instead of --db")
	fs.StringVar(&c.work, "work", "", "with --size, the folder for the notes and the index (default: a temporary one, removed)")
	fs.StringVar(&c.bleveDir, "bleve-dir", "", "where to keep Bleve's index; reused when it exists (default: a temporary one, removed)")
	fs.IntVar(&c.n, "n", 200, "how many questions")
	fs.StringVar(&c.questions, "questions", "", `"" made from the index as oraculo bench makes them (--seed), "tail" BenchmarkBM25's 200 of the synthetic notes, or a file (one a line, or a golden set)`)
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the questions made from the index")
	fs.IntVar(&c.k, "k", 10, "chunks a question")
	fs.IntVar(&c.rounds, "rounds", 3, "timed passes over the questions per engine, alternated")
	fs.StringVar(&c.scoring, "scoring", "bm25", "Bleve's scoring: bm25 or tfidf")
	fs.StringVar(&c.paths, "paths", "bm25,entity", "Oráculo's retrieval paths")
	fs.BoolVar(&c.loadText, "load-text", false, "Bleve stores each chunk's text and returns each hit's, as Oráculo's hits carry theirs")
	fs.BoolVar(&c.asJSON, "json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		return c, fmt.Errorf("%w: %w", errUsage, err)
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	case (c.db == "") == (c.size == 0):
		return c, fmt.Errorf("%w: give one of --db and --size", errUsage)
	case c.n < 1 || c.k < 1 || c.rounds < 1 || c.size < 0:
		return c, fmt.Errorf("%w: --n, --k and --rounds must be at least 1", errUsage)
	case c.scoring != "bm25" && c.scoring != "tfidf":
		return c, fmt.Errorf("%w: --scoring %q: want bm25 or tfidf", errUsage, c.scoring)
	}
	return c, nil
}

// run is the command: parse, build, measure, report.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parse(args, stderr)
	if err != nil {
		return err
	}
	rep, err := measure(ctx, c, stderr)
	if err != nil {
		return err
	}
	if c.asJSON {
		return rep.writeJSON(stdout)
	}
	rep.print(stdout)
	return nil
}
