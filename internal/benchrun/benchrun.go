// Package benchrun times a search engine over a list of questions, one
// after another, and summarises the time of each stage in percentiles:
// what `oraculo bench` reports on a user's own index.
//
// The first question is reported apart (it pays for whatever the engine
// loads on first use); the percentiles and the throughput are of the
// questions after it.
package benchrun

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"
)

// Stage is how long one stage of one query took.
type Stage struct {
	Name     string
	Duration time.Duration
}

// Sample is what one query reports: its stages, in the order they ran
// (a stage that ran twice counts once, with both durations added), and
// how many results it returned.
type Sample struct {
	Stages []Stage
	Hits   int
}

// Query runs one question.
type Query func(ctx context.Context, question string) (Sample, error)

// StageStats summarises one stage over the warm queries, in milliseconds.
// Percentiles are nearest-rank: each is a duration some query took, and
// P50 ≤ P95 ≤ P99 ≤ Max always hold.
type StageStats struct {
	Stage string  `json:"stage"`
	Count int     `json:"count"`
	P50   float64 `json:"p50_ms"`
	P95   float64 `json:"p95_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
	Mean  float64 `json:"mean_ms"`
}

// Result is one run over the questions.
type Result struct {
	// Queries is how many questions ran; NoHits how many of them returned
	// nothing.
	Queries int `json:"queries"`
	NoHits  int `json:"no_hits"`
	// FirstMS is the first query's time per stage ("total" included):
	// the cold query, which loads what the engine keeps for the next ones.
	FirstMS map[string]float64 `json:"first_ms"`
	// Stages summarise the queries after the first (all of them when
	// only one ran), in the order the stages ran, "total" last.
	Stages []StageStats `json:"stages"`
	// WallSeconds is the time of the whole run, first query included;
	// QueriesPerSecond the rate of the queries after the first.
	WallSeconds      float64 `json:"wall_seconds"`
	QueriesPerSecond float64 `json:"queries_per_second"`
}

// Run asks every question in turn and summarises the times. progress,
// when set, is called after each question. It stops at the first error,
// or when ctx is done.
func Run(ctx context.Context, questions []string, q Query, progress func(done, total int)) (Result, error) {
	if len(questions) == 0 {
		return Result{}, fmt.Errorf("no questions to run")
	}
	var (
		res     = Result{Queries: len(questions)}
		samples = make([]Sample, 0, len(questions))
		start   = time.Now()
		warm    time.Time
	)
	for i, question := range questions {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		if i == 1 {
			warm = time.Now()
		}
		s, err := q(ctx, question)
		if err != nil {
			return Result{}, fmt.Errorf("question %d (%q): %w", i+1, question, err)
		}
		if s.Hits == 0 {
			res.NoHits++
		}
		samples = append(samples, s)
		if progress != nil {
			progress(i+1, len(questions))
		}
	}
	end := time.Now()
	res.WallSeconds = end.Sub(start).Seconds()
	res.FirstMS = map[string]float64{}
	for _, st := range merged(samples[0].Stages) {
		res.FirstMS[st.Name] = ms(st.Duration)
	}
	rest, n, since := samples[1:], len(samples)-1, warm
	if n == 0 {
		rest, n, since = samples, 1, start
	}
	if el := end.Sub(since).Seconds(); el > 0 {
		res.QueriesPerSecond = float64(n) / el
	}
	res.Stages = Summarise(rest)
	return res, nil
}

// Summarise gives the percentiles of each stage over samples, stages in
// the order they first ran, "total" last.
func Summarise(samples []Sample) []StageStats {
	var order []string
	byStage := map[string][]time.Duration{}
	for _, s := range samples {
		for _, st := range merged(s.Stages) {
			if _, ok := byStage[st.Name]; !ok {
				order = append(order, st.Name)
			}
			byStage[st.Name] = append(byStage[st.Name], st.Duration)
		}
	}
	if i := slices.Index(order, "total"); i >= 0 {
		order = append(slices.Delete(order, i, i+1), "total")
	}
	out := make([]StageStats, 0, len(order))
	for _, name := range order {
		ds := byStage[name]
		slices.Sort(ds)
		var sum time.Duration
		for _, d := range ds {
			sum += d
		}
		out = append(out, StageStats{
			Stage: name,
			Count: len(ds),
			P50:   ms(Percentile(ds, 50)),
			P95:   ms(Percentile(ds, 95)),
			P99:   ms(Percentile(ds, 99)),
			Max:   ms(ds[len(ds)-1]),
			Mean:  ms(sum / time.Duration(len(ds))),
		})
	}
	return out
}

// Percentile is the nearest-rank p-th percentile (0 < p ≤ 100) of sorted
// durations: the smallest one that at least p percent of them do not
// exceed. It is 0 for none.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// merged adds up the durations of a stage that ran more than once,
// keeping the order in which stages first ran.
func merged(stages []Stage) []Stage {
	out := make([]Stage, 0, len(stages))
	for _, st := range stages {
		if i := slices.IndexFunc(out, func(o Stage) bool { return o.Name == st.Name }); i >= 0 {
			out[i].Duration += st.Duration
			continue
		}
		out = append(out, st)
	}
	return out
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
