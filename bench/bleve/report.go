package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/oraculo/oraculo/internal/benchrun"
)

// report is the run's result; its JSON (--json) is what
// scripts/bench-sizes.sh reads.
type report struct {
	Index      string  `json:"index"`
	Questions  int     `json:"questions"`
	Distinct   int     `json:"distinct"`
	K          int     `json:"k"`
	Rounds     int     `json:"rounds"`
	Scoring    string  `json:"bleve_scoring"`
	LoadBefore string  `json:"loadavg_before"`
	LoadAfter  string  `json:"loadavg_after"`
	Oraculo    engine  `json:"oraculo"`
	Bleve      engine  `json:"bleve"`
	P50Ratio   float64 `json:"p50_ratio"`
	P95Ratio   float64 `json:"p95_ratio"`
}

// engine is one engine's figures: its build, and its timed passes
// (Queries of them, percentiles nearest-rank, in milliseconds).
type engine struct {
	Build   build   `json:"build"`
	Queries int     `json:"queries"`
	NoHits  int     `json:"no_hits"`
	P50     float64 `json:"p50_ms"`
	P95     float64 `json:"p95_ms"`
	P99     float64 `json:"p99_ms"`
	Mean    float64 `json:"mean_ms"`
	CPU     float64 `json:"cpu_s"`
}

// set fills e's query figures from t.
func (e *engine) set(t timing) {
	durs := slices.Clone(t.durs)
	slices.Sort(durs)
	e.Queries, e.NoHits, e.CPU = len(durs), t.noHits, t.cpu.Seconds()
	e.P50 = ms(benchrun.Percentile(durs, 50))
	e.P95 = ms(benchrun.Percentile(durs, 95))
	e.P99 = ms(benchrun.Percentile(durs, 99))
	var sum time.Duration
	for _, d := range durs {
		sum += d
	}
	if len(durs) > 0 {
		e.Mean = ms(sum / time.Duration(len(durs)))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// ratios sets Oráculo's percentiles over Bleve's.
func (r *report) ratios() {
	if r.Bleve.P50 > 0 {
		r.P50Ratio = r.Oraculo.P50 / r.Bleve.P50
	}
	if r.Bleve.P95 > 0 {
		r.P95Ratio = r.Oraculo.P95 / r.Bleve.P95
	}
}

func (r report) writeJSON(w io.Writer) error {
	r.ratios()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// print writes the report as a table, one line per engine.
func (r report) print(w io.Writer) {
	r.ratios()
	fmt.Fprintf(w, "index %s: %d chunks; %d questions (%d distinct), k %d, %d rounds alternated; Bleve %s\n",
		r.Index, r.Oraculo.Build.Docs, r.Questions, r.Distinct, r.K, r.Rounds, r.Scoring)
	fmt.Fprintf(w, "load average %s before, %s after\n", r.LoadBefore, r.LoadAfter)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "engine\tbuild s\tbuild CPU s\tsize MB\tp50 ms\tp95 ms\tp99 ms\tmean ms\tCPU s\tqueries\tno hits\t")
	for _, e := range []struct {
		name string
		e    engine
	}{{"oraculo", r.Oraculo}, {"bleve", r.Bleve}} {
		bs, bc := "-", "-"
		if e.e.Build.Made {
			bs, bc = fmt.Sprintf("%.1f", e.e.Build.Wall), fmt.Sprintf("%.1f", e.e.Build.CPU)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t%d\t\n", e.name, bs, bc,
			float64(e.e.Build.Bytes)/1e6, e.e.P50, e.e.P95, e.e.P99, e.e.Mean, e.e.CPU, e.e.Queries, e.e.NoHits)
	}
	tw.Flush()
	fmt.Fprintf(w, "oraculo / bleve: p50 ×%.2f, p95 ×%.2f\n", r.P50Ratio, r.P95Ratio)
}
