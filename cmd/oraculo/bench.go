package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/benchrun"
)

// benchReport is the JSON of `oraculo bench --json`; its field names are
// public (README, "Benchmark your own vault").
type benchReport struct {
	Index     benchIndex      `json:"index"`
	Questions benchQuestions  `json:"questions"`
	K         int             `json:"k"`
	Role      string          `json:"role"`
	Search    benchrun.Result `json:"search"`
	// Ask is present with --ask: extractive answers, stages in ms.
	Ask *benchrun.Result `json:"ask,omitempty"`
	// PeakRSS is the process's peak resident set size while the questions
	// ran (null where the system does not say).
	PeakRSS *int64       `json:"peak_rss_bytes"`
	Machine benchMachine `json:"machine"`
}

type benchIndex struct {
	Path         string   `json:"path"`
	Bytes        int64    `json:"bytes"`
	Documents    int      `json:"documents"`
	Chunks       int      `json:"chunks"`
	Entities     int      `json:"entities"`
	Paths        []string `json:"paths"`
	DenseModel   string   `json:"dense_model,omitempty"`
	DenseVectors int      `json:"dense_vectors"`
	Graph        bool     `json:"graph"`
}

type benchQuestions struct {
	// Source is "file" (File names it) or "generated" (from the index's
	// own text with Seed).
	Source string `json:"source"`
	File   string `json:"file,omitempty"`
	Seed   uint64 `json:"seed,omitempty"`
	// Distinct counts the different questions; --n runs them in a cycle.
	Distinct int `json:"distinct"`
}

type benchMachine struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
	CPUs int    `json:"cpus"`
	Go   string `json:"go"`
}

// defaultBenchQuestions is how many questions are made from the index
// when neither --questions nor --n says.
const defaultBenchQuestions = 100

// benchFlags are bench's flags.
type benchFlags struct {
	index         *indexFlags
	as            flag.Value
	questionsFile *string
	k             *int
	n             *int
	seed          *uint64
	paths         *string
	ask           *bool
	asJSON        *bool
	embedder      func() oraculo.EmbedderConfig
}

func newBenchFlags(name string, stderr io.Writer) (*flag.FlagSet, *benchFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &benchFlags{index: ix, as: fs.Lookup("as").Value}
	f.questionsFile = fs.String("questions", "", "questions to time: one per line, or a golden set (JSONL, as eval reads) (default: made from the index's own text)")
	f.k = fs.Int("k", oraculo.DefaultK, "how many chunks each search returns")
	f.n = fs.Int("n", 0, "how many questions to run, cycling through the file's if it has fewer (default: all of the file's, or 100 made from the index)")
	f.seed = fs.Uint64("seed", 1, "seed of the questions made from the index")
	f.paths = fs.String("paths", "", "retrieval paths, comma-separated: bm25, dense, entity (default: all available)")
	f.ask = fs.Bool("ask", false, "also time an extractive answer (no chat model) to every question")
	f.asJSON = fs.Bool("json", false, "print the report as JSON")
	f.embedder = embedderFlags(fs)
	return fs, f
}

// cmdBench times searches (and with --ask answers) on the index and
// prints the latency per stage, throughput and peak memory.
func cmdBench(ctx context.Context, f *benchFlags, rest []string, s stdio) error {
	if len(rest) > 0 {
		return usageError{errors.New(msg("bench-args", strings.Join(rest, " ")))}
	}
	if *f.k < 1 {
		return usageError{errors.New(msg("bad-k"))}
	}
	if *f.n < 0 {
		return usageError{errors.New(msg("bench-bad-n"))}
	}
	eng, err := openEngine(ctx, f.index, true, f.embedder(), s.err)
	if err != nil {
		return err
	}
	defer eng.Close()
	rep := benchReport{K: *f.k, Role: oraculo.RoleDM}
	if r := f.as.String(); r != "" {
		rep.Role = r
	}
	questions, err := f.questions(ctx, eng, &rep)
	if err != nil {
		return err
	}
	// The peak that matters is the searches', not that of reading every
	// chunk to make the questions.
	runtime.GC()
	debug.FreeOSMemory()
	benchrun.ResetPeakRSS()
	if err := f.time(ctx, eng, questions, &rep, s.err); err != nil {
		return err
	}
	if rss, ok := benchrun.PeakRSS(); ok {
		rep.PeakRSS = &rss
	}
	// Stats last: it loads what the first search is timed loading.
	if rep.Index, err = benchIndexOf(ctx, eng); err != nil {
		return err
	}
	rep.Machine = benchMachine{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), Go: runtime.Version()}
	if *f.asJSON {
		return writeJSON(s.out, rep)
	}
	printBench(s.out, rep)
	return nil
}

// questions are the questions to time, --n of them, from --questions or
// made from the index; rep says where they came from.
func (f *benchFlags) questions(ctx context.Context, eng *oraculo.Engine, rep *benchReport) ([]string, error) {
	var questions []string
	var err error
	if *f.questionsFile != "" {
		if questions, err = benchrun.Load(*f.questionsFile); err != nil {
			return nil, err
		}
		rep.Questions = benchQuestions{Source: "file", File: *f.questionsFile}
	} else {
		if questions, err = benchrun.FromIndex(ctx, eng, cmp.Or(*f.n, defaultBenchQuestions), *f.seed); err != nil {
			return nil, err
		}
		rep.Questions = benchQuestions{Source: "generated", Seed: *f.seed}
	}
	rep.Questions.Distinct = len(slices.Compact(slices.Sorted(slices.Values(questions))))
	return cycle(questions, *f.n), nil
}

// time runs the questions as searches, and with --ask as extractive
// answers, into rep.
func (f *benchFlags) time(ctx context.Context, eng *oraculo.Engine, questions []string, rep *benchReport, stderr io.Writer) error {
	var searchOpts oraculo.SearchOptions
	if *f.paths != "" {
		searchOpts.Paths = strings.Split(*f.paths, ",")
	}
	search := func(ctx context.Context, q string) (benchrun.Sample, error) {
		o := searchOpts
		o.K, o.Trace = *f.k, &oraculo.Trace{}
		hits, err := eng.Search(ctx, q, o)
		if err != nil {
			return benchrun.Sample{}, err
		}
		s := benchrun.Sample{Hits: len(hits)}
		for _, st := range o.Trace.Stages {
			s.Stages = append(s.Stages, benchrun.Stage{Name: st.Stage, Duration: st.Duration})
		}
		return s, nil
	}
	var err error
	if rep.Search, err = benchrun.Run(ctx, questions, search, benchProgress(stderr, msg("bench-searching"))); err != nil {
		return err
	}
	if !*f.ask {
		return nil
	}
	answer := func(ctx context.Context, q string) (benchrun.Sample, error) {
		a, err := eng.Ask(ctx, q, oraculo.AskOptions{Extractive: true, Paths: searchOpts.Paths})
		if err != nil {
			return benchrun.Sample{}, err
		}
		return benchrun.Sample{Stages: askStages(a.Timings), Hits: len(a.Evidence)}, nil
	}
	res, err := benchrun.Run(ctx, questions, answer, benchProgress(stderr, msg("bench-answering")))
	if err != nil {
		return err
	}
	rep.Ask = &res
	return nil
}

// benchIndexOf is what the report says of the index.
func benchIndexOf(ctx context.Context, eng *oraculo.Engine) (benchIndex, error) {
	st, err := eng.Stats(ctx)
	if err != nil {
		return benchIndex{}, err
	}
	return benchIndex{
		Path: st.Path, Bytes: st.Bytes, Documents: st.Documents, Chunks: st.Chunks, Entities: st.Entities,
		Paths: st.Retrieval.Paths, DenseModel: st.Retrieval.DenseModel, DenseVectors: st.Retrieval.DenseVectors, Graph: st.Retrieval.Graph,
	}, nil
}

// cycle repeats qs up to n questions (n 0: qs as they are).
func cycle(qs []string, n int) []string {
	if n == 0 || n == len(qs) {
		return qs
	}
	out := make([]string, n)
	for i := range out {
		out[i] = qs[i%len(qs)]
	}
	return out
}

// askStageOrder is the order of Ask's timings (Answer.Timings).
var askStageOrder = []string{"search", "rerank", "answer", "verify", "total"}

func askStages(t oraculo.Timings) []benchrun.Stage {
	var out []benchrun.Stage
	for _, name := range askStageOrder {
		if v, ok := t[name]; ok {
			out = append(out, benchrun.Stage{Name: name, Duration: time.Duration(v * float64(time.Millisecond))})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(t)) {
		if !slices.Contains(askStageOrder, name) {
			out = append(out, benchrun.Stage{Name: name, Duration: time.Duration(t[name] * float64(time.Millisecond))})
		}
	}
	return out
}

// benchProgress redraws "label done/total" on a terminal; elsewhere
// (logs, pipes, tests) it says nothing.
func benchProgress(w io.Writer, label string) func(done, total int) {
	if !isTerminal(w) {
		return nil
	}
	var last time.Time
	return func(done, total int) {
		if done == total {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond {
			last = now
			fmt.Fprintf(w, "\r\033[K%s %d/%d", label, done, total)
		}
	}
}

func printBench(w io.Writer, r benchReport) {
	paths := strings.Join(r.Index.Paths, ", ")
	if r.Index.DenseModel != "" {
		paths += fmt.Sprintf(" (%s: %d)", r.Index.DenseModel, r.Index.DenseVectors)
	}
	fmt.Fprintln(w, msg("bench-index", r.Index.Path, r.Index.Chunks, r.Index.Documents, humanBytes(r.Index.Bytes), paths))
	if r.Questions.Source == "file" {
		fmt.Fprintln(w, msg("bench-questions-file", r.Questions.Distinct, r.Questions.File, r.Search.Queries, r.Role))
	} else {
		fmt.Fprintln(w, msg("bench-questions-generated", r.Search.Queries, r.Questions.Seed, r.Questions.Distinct, r.Role))
	}
	fmt.Fprintln(w, msg("bench-machine", r.Machine.OS, r.Machine.Arch, r.Machine.CPUs, r.Machine.Go))
	fmt.Fprintln(w)
	fmt.Fprintln(w, msg("bench-search", r.K))
	printBenchResult(w, r.Search, msg("bench-first-cold", r.Search.FirstMS["total"]))
	if r.Ask != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, msg("bench-ask"))
		printBenchResult(w, *r.Ask, msg("bench-first", r.Ask.FirstMS["total"]))
	}
	fmt.Fprintln(w)
	rss := msg("bench-na")
	if r.PeakRSS != nil {
		rss = humanBytes(*r.PeakRSS)
	}
	fmt.Fprintln(w, msg("bench-rss", rss))
}

func printBenchResult(w io.Writer, res benchrun.Result, first string) {
	fmt.Fprintln(w, msg("bench-rate", res.Queries, res.WallSeconds, res.QueriesPerSecond, res.NoHits))
	fmt.Fprintln(w, first)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  %s\tp50\tp95\tp99\tmax\t%s\n", msg("eval-stage"), msg("bench-first-col"))
	for _, s := range res.Stages {
		fmt.Fprintf(tw, "  %s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", s.Stage, s.P50, s.P95, s.P99, s.Max, res.FirstMS[s.Stage])
	}
	tw.Flush()
}
