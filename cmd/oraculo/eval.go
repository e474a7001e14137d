package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/eval/report"
)

// evalFlags are eval's flags.
type evalFlags struct {
	index      *indexFlags
	golden     *string
	k          *int
	asJSON     *bool
	reportDir  *string
	diagnose   *bool
	compare    *bool
	from       *string
	answers    *bool
	extractive *bool
	filter     func() (oraculo.Filter, error)
	models     *modelFlags
}

func newEvalFlags(name string, stderr io.Writer) (*flag.FlagSet, *evalFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &evalFlags{index: ix}
	f.golden = fs.String("golden", "", "golden set: one JSON question per line")
	f.k = fs.Int("k", 50, "retrieval depth: how many chunks each configuration returns")
	f.asJSON = fs.Bool("json", false, "print the whole report as JSON")
	f.reportDir = fs.String("report", "", "write a self-contained HTML report (and report.json) into this folder")
	f.diagnose = fs.Bool("diagnose", false, "say which failure the figures point to, and why")
	f.compare = fs.Bool("compare", false, "compare two reports written with --json: oraculo eval --compare A.json B.json")
	f.from = fs.String("from", "", "use a report written with --json instead of running the golden set")
	f.answers = fs.Bool("answers", false, "also answer every question: Recall@8 after reranking, abstention accuracy, citation validity")
	f.extractive = fs.Bool("extractive", false, "with --answers: answer without the chat model")
	f.filter = filterFlags(fs)
	f.models = newModelFlags(fs)
	return fs, f
}

// cmdEval measures retrieval against a golden set (or reads a report
// measured before) and prints the report, or compares two reports.
func cmdEval(ctx context.Context, f *evalFlags, rest []string, s stdio) error {
	filter, err := f.filter()
	if err != nil {
		return err
	}
	if *f.compare {
		return evalCompare(rest, *f.asJSON, s.out)
	}
	if len(rest) > 0 {
		return usageError{fmt.Errorf("%s: %q", msg("eval-extra-args"), strings.Join(rest, " "))}
	}
	if *f.k < 1 {
		return usageError{errors.New(msg("bad-k"))}
	}
	rep, err := f.report(ctx, filter, s.err)
	if err != nil {
		return err
	}
	if *f.reportDir != "" {
		path, err := report.WriteDir(*f.reportDir, rep, lang)
		if err != nil {
			return err
		}
		fmt.Fprintln(s.err, msg("eval-report-written", path))
	}
	if *f.asJSON {
		return writeJSON(s.out, rep)
	}
	printReport(s.out, rep)
	if *f.diagnose {
		printDiagnosis(s.out, eval.Diagnose(rep, lang))
	}
	return nil
}

// evalCompare compares the two reports that args name.
func evalCompare(args []string, asJSON bool, stdout io.Writer) error {
	if len(args) != 2 {
		return usageError{errors.New(msg("eval-compare-args"))}
	}
	a, err := eval.LoadReport(args[0])
	if err != nil {
		return err
	}
	b, err := eval.LoadReport(args[1])
	if err != nil {
		return err
	}
	c := eval.Compare(a, b)
	if asJSON {
		return writeJSON(stdout, c)
	}
	printComparison(stdout, args[0], args[1], c)
	return nil
}

// report is the report --from names, or the golden set's, measured now.
func (f *evalFlags) report(ctx context.Context, filter oraculo.Filter, stderr io.Writer) (*eval.Report, error) {
	switch {
	case *f.from != "":
		return eval.LoadReport(*f.from)
	case *f.golden != "":
		return f.evaluate(ctx, filter, stderr)
	}
	return nil, usageError{errors.New(msg("eval-needs-golden"))}
}

// evaluate runs the golden set on the index: every configuration, the
// vector index's recall, and with --answers the answers.
func (f *evalFlags) evaluate(ctx context.Context, filter oraculo.Filter, stderr io.Writer) (*eval.Report, error) {
	qs, err := eval.Load(*f.golden)
	if err != nil {
		return nil, err
	}
	var answerModels []oraculo.Option
	if *f.answers {
		answerModels = []oraculo.Option{oraculo.WithChat(f.models.chat()), oraculo.WithReranker(f.models.rerank())}
	}
	eng, err := openEngine(ctx, f.index, true, f.models.embedder(), stderr, answerModels...)
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	configs, err := eval.Configs(ctx, eng, filter)
	if err != nil {
		return nil, err
	}
	rep, err := eval.Evaluate(ctx, *f.golden, qs, configs, *f.k)
	if err != nil {
		return nil, err
	}
	rep.Index = eng.DBPath()
	rep.Settings = eng.Settings()
	texts := make([]string, 0, len(qs))
	for _, q := range qs {
		texts = append(texts, q.Question)
	}
	if rep.ANN, err = eval.CheckANN(ctx, eng, texts, *f.k); err != nil {
		return nil, err
	}
	if *f.answers {
		mode := "extractive"
		if m := eng.ChatModel(); m != nil && !*f.extractive {
			mode = m.ID()
		}
		if rep.Answers, err = eval.EvaluateAnswers(ctx, qs, mode, eval.EngineAsker(eng, oraculo.AskOptions{Extractive: *f.extractive, Filter: filter})); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

func f3(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return fmt.Sprintf("%.3f", v)
}

func rankText(r int) string {
	if r == 0 {
		return "—"
	}
	return fmt.Sprint(r)
}

// printReport prints an evaluation for people: every configuration's
// figures, the final one's by kind of question, latencies, the vector
// index and the answers, and the questions missed.
func printReport(w io.Writer, r *eval.Report) {
	kinds := make([]string, 0, len(r.Kinds))
	for kind, n := range r.Kinds {
		kinds = append(kinds, fmt.Sprintf("%s %d", kind, n))
	}
	sort.Strings(kinds)
	fmt.Fprintln(w, msg("eval-header", r.Golden, r.Questions, r.Questions-r.Unanswerable, strings.Join(kinds, ", "), r.K))
	fmt.Fprintln(w)
	printConfigs(w, r)
	printByKind(w, r.Final())
	printLatency(w, r)
	printANNAndAnswers(w, r)
	printMisses(w, r)
}

// printConfigs prints each configuration's metrics, by chunk and by note.
func printConfigs(w io.Writer, r *eval.Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\n", msg("eval-config"), msg("eval-mode"), strings.Join(eval.MetricNames, "\t"))
	for _, c := range r.Configs {
		for _, mode := range []struct {
			name string
			m    eval.Metrics
		}{{msg("eval-mode-chunk"), c.Chunk}, {msg("eval-mode-note"), c.Note}} {
			vals := make([]string, len(eval.MetricNames))
			for i, name := range eval.MetricNames {
				vals[i] = f3(mode.m.Value(name))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Name, mode.name, strings.Join(vals, "\t"))
		}
	}
	tw.Flush()
}

// printByKind prints the final configuration's figures by kind of question.
func printByKind(w io.Writer, final *eval.Result) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, msg("eval-by-kind", final.Name))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tn\tR@1\tR@8\tR@50\tMRR@50\tcov@8\tcov@50\n", msg("eval-kind"))
	for _, kind := range []string{eval.KindSingle, eval.KindMulti, eval.KindParaphrase} {
		m, ok := final.ByKind[kind]
		if !ok {
			continue
		}
		c := m.Chunk
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", kind, c.Questions, f3(c.Recall[1]), f3(c.Recall[8]), f3(c.Recall[50]), f3(c.MRR), f3(c.Coverage8), f3(c.Coverage50))
	}
	tw.Flush()
}

// printLatency prints each configuration's latency by stage.
func printLatency(w io.Writer, r *eval.Report) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, msg("eval-latency"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", msg("eval-config"), msg("eval-stage"), msg("eval-median"), "p95")
	for _, c := range r.Configs {
		for _, s := range c.Stages() {
			l := c.Latency[s]
			fmt.Fprintf(tw, "%s\t%s\t%.2f ms\t%.2f ms\n", c.Name, s, l.MedianMS, l.P95MS)
		}
	}
	tw.Flush()
}

// printANNAndAnswers prints the vector index's recall and the answers'
// figures, when measured.
func printANNAndAnswers(w io.Writer, r *eval.Report) {
	if a := r.ANN; a != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, msg("eval-ann", a.Index, a.K, a.Recall, a.Queries, a.Model, a.Vectors, inUse(a.InUse)))
		fmt.Fprintln(w, msg("eval-ann-10", min(10, a.K), a.Recall10))
	}
	if a := r.Answers; a != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, msg("eval-answers", a.Mode))
		fmt.Fprintln(w, msg("eval-answers-rerank", a.FusedRecall8, a.RerankRecall8, a.Reranked, a.Answerable+a.Unanswerable))
		for _, reason := range a.FallbackReasons() {
			fmt.Fprintf(w, "    %s: %d\n", reason, a.Fallbacks[reason])
		}
		fmt.Fprintln(w, msg("eval-answers-abstain", a.AbstentionAccuracy, a.AbstainedUnanswerable, a.Unanswerable, a.AbstainedAnswerable, a.Answerable))
		fmt.Fprintln(w, msg("eval-answers-cite", a.CitationValidity, a.ValidCitations, a.Citations, a.CitedAnswers))
	}
}

// printMisses lists the questions the final configuration missed.
func printMisses(w io.Writer, r *eval.Report) {
	notFound, outside := 0, 0
	for _, m := range r.Misses {
		switch {
		case m.Rank == 0:
			notFound++
		case m.Rank > eval.ContextSize:
			outside++
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, msg("eval-misses", r.Final().Name, len(r.Misses), outside, notFound, r.K))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, m := range r.Misses {
		if i == maxListed {
			fmt.Fprintln(tw, msg("and-more", len(r.Misses)-maxListed))
			break
		}
		var byPath []string
		for p, rank := range m.ByPath {
			byPath = append(byPath, p+":"+rankText(rank))
		}
		sort.Strings(byPath)
		fmt.Fprintf(tw, "  %s\t%s\t%s %s\t%s\t%s\n", m.ID, m.Kind, msg("eval-rank"), rankText(m.Rank), strings.Join(byPath, " "), clip(m.Question, 80))
	}
	tw.Flush()
}

func inUse(b bool) string {
	if b {
		return msg("eval-ann-in-use")
	}
	return msg("eval-ann-not-in-use")
}

func printDiagnosis(w io.Writer, findings []eval.Finding) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, msg("eval-diagnosis"))
	for _, f := range findings {
		fmt.Fprintf(w, "- [%s] %s\n  %s\n", f.Problem, f.Evidence, f.Advice)
	}
}

func printComparison(w io.Writer, a, b string, c eval.Comparison) {
	fmt.Fprintln(w, msg("eval-compare-header", a, b))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\t%s\t%s\tA\tB\tΔ\t\n", msg("eval-config"), msg("eval-mode"), msg("eval-metric"))
	for _, r := range c.Rows {
		delta := "—"
		if !math.IsNaN(r.Delta) {
			delta = fmt.Sprintf("%+.3f", r.Delta)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Config, r.Mode, r.Metric, f3(r.A), f3(r.B), delta)
	}
	tw.Flush()
	for _, part := range []struct {
		title   string
		changes []eval.RankChange
	}{{msg("eval-better", len(c.Better)), c.Better}, {msg("eval-worse", len(c.Worse)), c.Worse}} {
		fmt.Fprintln(w)
		fmt.Fprintln(w, part.title)
		for _, ch := range part.changes {
			fmt.Fprintf(w, "  %s  %s → %s  %s\n", ch.ID, rankText(ch.A), rankText(ch.B), clip(ch.Question, 80))
		}
	}
}
