package main

import (
	"context"
	"errors"
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

func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, ix := newIndexFlags("eval", stderr)
	golden := fs.String("golden", "", "golden set: one JSON question per line")
	k := fs.Int("k", 50, "retrieval depth: how many chunks each configuration returns")
	asJSON := fs.Bool("json", false, "print the whole report as JSON")
	reportDir := fs.String("report", "", "write a self-contained HTML report (and report.json) into this folder")
	diagnose := fs.Bool("diagnose", false, "say which failure the figures point to, and why")
	compare := fs.Bool("compare", false, "compare two reports written with --json: oraculo eval --compare A.json B.json")
	from := fs.String("from", "", "use a report written with --json instead of running the golden set")
	answers := fs.Bool("answers", false, "also answer every question: Recall@8 after reranking, abstention accuracy, citation validity")
	extractive := fs.Bool("extractive", false, "with --answers: answer without the chat model")
	filter := filterFlags(fs)
	models := newModelFlags(fs)
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	f, err := filter()
	if err != nil {
		return err
	}
	if *compare {
		if len(rest) != 2 {
			return usageError{errors.New(msg("eval-compare-args"))}
		}
		a, err := eval.LoadReport(rest[0])
		if err != nil {
			return err
		}
		b, err := eval.LoadReport(rest[1])
		if err != nil {
			return err
		}
		c := eval.Compare(a, b)
		if *asJSON {
			return writeJSON(stdout, c)
		}
		printComparison(stdout, rest[0], rest[1], c)
		return nil
	}
	if len(rest) > 0 {
		return usageError{fmt.Errorf("%s: %q", msg("eval-extra-args"), strings.Join(rest, " "))}
	}
	if *k < 1 {
		return usageError{errors.New(msg("bad-k"))}
	}
	var rep *eval.Report
	switch {
	case *from != "":
		if rep, err = eval.LoadReport(*from); err != nil {
			return err
		}
	case *golden != "":
		qs, err := eval.Load(*golden)
		if err != nil {
			return err
		}
		var answerModels []oraculo.Option
		if *answers {
			answerModels = []oraculo.Option{oraculo.WithChat(models.chat()), oraculo.WithReranker(models.rerank())}
		}
		eng, err := openEngine(ctx, ix, true, models.embedder(), stderr, answerModels...)
		if err != nil {
			return err
		}
		defer eng.Close()
		configs, err := eval.Configs(ctx, eng, f)
		if err != nil {
			return err
		}
		if rep, err = eval.Evaluate(ctx, *golden, qs, configs, *k); err != nil {
			return err
		}
		rep.Index = eng.DBPath()
		rep.Settings = eng.Settings()
		texts := make([]string, 0, len(qs))
		for _, q := range qs {
			texts = append(texts, q.Question)
		}
		if rep.ANN, err = eval.CheckANN(ctx, eng, texts, *k); err != nil {
			return err
		}
		if *answers {
			mode := "extractive"
			if m := eng.ChatModel(); m != nil && !*extractive {
				mode = m.ID()
			}
			if rep.Answers, err = eval.EvaluateAnswers(ctx, qs, mode, eval.EngineAsker(eng, oraculo.AskOptions{Extractive: *extractive, Filter: f})); err != nil {
				return err
			}
		}
	default:
		return usageError{errors.New(msg("eval-needs-golden"))}
	}
	if *reportDir != "" {
		path, err := report.WriteDir(*reportDir, rep, lang)
		if err != nil {
			return err
		}
		fmt.Fprintln(stderr, msg("eval-report-written", path))
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	printReport(stdout, rep)
	if *diagnose {
		printDiagnosis(stdout, eval.Diagnose(rep, lang))
	}
	return nil
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

func printReport(w io.Writer, r *eval.Report) {
	kinds := make([]string, 0, len(r.Kinds))
	for kind, n := range r.Kinds {
		kinds = append(kinds, fmt.Sprintf("%s %d", kind, n))
	}
	sort.Strings(kinds)
	fmt.Fprintln(w, msg("eval-header", r.Golden, r.Questions, r.Questions-r.Unanswerable, strings.Join(kinds, ", "), r.K))
	fmt.Fprintln(w)
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

	final := r.Final()
	fmt.Fprintln(w)
	fmt.Fprintln(w, msg("eval-by-kind", final.Name))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
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

	fmt.Fprintln(w)
	fmt.Fprintln(w, msg("eval-latency"))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", msg("eval-config"), msg("eval-stage"), msg("eval-median"), "p95")
	for _, c := range r.Configs {
		for _, s := range c.Stages() {
			l := c.Latency[s]
			fmt.Fprintf(tw, "%s\t%s\t%.2f ms\t%.2f ms\n", c.Name, s, l.MedianMS, l.P95MS)
		}
	}
	tw.Flush()

	if a := r.ANN; a != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, msg("eval-ann", a.Index, a.K, a.Recall, a.Queries, a.Model, a.Vectors, inUse(a.InUse)))
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
	fmt.Fprintln(w, msg("eval-misses", final.Name, len(r.Misses), outside, notFound, r.K))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
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
