package eval

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Cutoffs are the ranks at which recall is reported: 1 and 5, 8 (what the
// model sees), 20 and 50 (the candidate set).
var Cutoffs = []int{1, 5, 8, 20, 50}

// ContextSize is how many chunks the model sees in full.
const ContextSize = 8

// Stage is the time one stage of a search took.
type Stage struct {
	Name     string
	Duration time.Duration
}

// Searcher returns the ranked chunks for a question, and optionally how
// long each stage of the search took.
type Searcher func(ctx context.Context, question string, k int) ([]Retrieved, []Stage, error)

// Config is one configuration to evaluate: a name and how to search.
type Config struct {
	// Name identifies the configuration in reports ("bm25", "bm25+dense").
	Name string
	// Paths are the retrieval paths it uses.
	Paths  []string
	Search Searcher
}

// Metrics are averages over a set of answerable questions.
type Metrics struct {
	Questions int `json:"questions"`
	// Recall maps each cutoff to the share of questions whose first
	// relevant result came back within it.
	Recall map[int]float64 `json:"recall"`
	MRR    float64         `json:"mrr_at_50"`
	NDCG10 float64         `json:"ndcg_at_10"`
	// Coverage8 and Coverage50 are the mean share of a question's sources
	// covered by the first 8 and 50 results.
	Coverage8  float64 `json:"coverage_at_8"`
	Coverage50 float64 `json:"coverage_at_50"`
}

// Modes are the two ways results are counted.
type Modes struct {
	// Chunk counts every chunk.
	Chunk Metrics `json:"chunk"`
	// Note gives one slot per note: only the first result of each file
	// counts, so that configurations with different chunk sizes compare.
	Note Metrics `json:"note"`
}

// Outcome is one question's result in one configuration.
type Outcome struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Kind     string `json:"kind"`
	Sources  int    `json:"sources"`
	// Rank is the rank of the first relevant chunk, 0 when none came back
	// within the depth; NoteRank the same with one slot per note.
	Rank     int `json:"rank"`
	NoteRank int `json:"note_rank"`
	// FileRank is the rank of the first chunk from a source's file,
	// relevant or not: a FileRank within the context with a Rank outside it
	// means the right note but the wrong part of it.
	FileRank   int     `json:"file_rank"`
	Coverage8  float64 `json:"coverage_at_8"`
	Coverage50 float64 `json:"coverage_at_50"`
	// NoteCoverage8 and NoteCoverage50 count one slot per note.
	NoteCoverage8  float64 `json:"note_coverage_at_8"`
	NoteCoverage50 float64 `json:"note_coverage_at_50"`
	NDCG10         float64 `json:"ndcg_at_10"`
	NoteNDCG10     float64 `json:"note_ndcg_at_10"`
}

// Latency summarises one stage's durations over a run.
type Latency struct {
	MedianMS float64 `json:"median_ms"`
	P95MS    float64 `json:"p95_ms"`
	Count    int     `json:"count"`
}

// Result is one configuration's evaluation.
type Result struct {
	Name  string   `json:"name"`
	Paths []string `json:"paths"`
	Modes
	// ByKind holds the same metrics for each kind of question.
	ByKind   map[string]Modes   `json:"by_kind"`
	Latency  map[string]Latency `json:"latency"`
	Outcomes []Outcome          `json:"outcomes"`
}

// Run asks every answerable question with depth k and judges the results.
func Run(ctx context.Context, qs []Question, cfg Config, k int) (*Result, error) {
	res := &Result{Name: cfg.Name, Paths: cfg.Paths, ByKind: map[string]Modes{}, Latency: map[string]Latency{}}
	stages := map[string][]time.Duration{}
	for _, q := range qs {
		if q.Kind == KindUnanswerable {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		got, trace, err := cfg.Search(ctx, q.Question, k)
		if err != nil {
			return nil, fmt.Errorf("question %q: %w", q.ID, err)
		}
		for _, s := range trace {
			stages[s.Name] = append(stages[s.Name], s.Duration)
		}
		res.Outcomes = append(res.Outcomes, Judge(q, got))
	}
	if len(res.Outcomes) == 0 {
		return nil, fmt.Errorf("the golden set has no answerable question")
	}
	res.Summarise()
	for name, ds := range stages {
		res.Latency[name] = latencyOf(ds)
	}
	return res, nil
}

// Summarise sets the metrics, overall and by kind of question, to the
// averages of the outcomes (Run does it after judging every question).
func (r *Result) Summarise() {
	r.Modes = average(r.Outcomes)
	byKind := map[string][]Outcome{}
	for _, o := range r.Outcomes {
		byKind[o.Kind] = append(byKind[o.Kind], o)
	}
	r.ByKind = map[string]Modes{}
	for kind, os := range byKind {
		r.ByKind[kind] = average(os)
	}
}

// Judge scores one question's ranked results.
func Judge(q Question, got []Retrieved) Outcome {
	rel := make([]bool, len(got))
	covers := make([][]int, len(got))
	files := make([]string, len(got))
	fileRank := 0
	for i, r := range got {
		covers[i] = q.Matches(r)
		rel[i] = len(covers[i]) > 0
		files[i] = r.File
		if fileRank == 0 {
			for _, s := range q.Sources {
				if s.File == r.File {
					fileRank = i + 1
					break
				}
			}
		}
	}
	var noteRel []bool
	var noteCovers [][]int
	for _, i := range OneSlotPerNote(files) {
		noteRel = append(noteRel, rel[i])
		noteCovers = append(noteCovers, covers[i])
	}
	n := len(q.Sources)
	return Outcome{
		ID: q.ID, Question: q.Question, Kind: q.Kind, Sources: n,
		Rank: FirstRelevant(rel), NoteRank: FirstRelevant(noteRel), FileRank: fileRank,
		Coverage8: CoverageAt(covers, n, ContextSize), Coverage50: CoverageAt(covers, n, 50),
		NoteCoverage8: CoverageAt(noteCovers, n, ContextSize), NoteCoverage50: CoverageAt(noteCovers, n, 50),
		NDCG10: NDCGAt(rel, n, 10), NoteNDCG10: NDCGAt(noteRel, n, 10),
	}
}

func average(os []Outcome) Modes {
	m := Modes{
		Chunk: Metrics{Questions: len(os), Recall: map[int]float64{}},
		Note:  Metrics{Questions: len(os), Recall: map[int]float64{}},
	}
	for _, o := range os {
		for _, c := range Cutoffs {
			if o.Rank > 0 && o.Rank <= c {
				m.Chunk.Recall[c]++
			}
			if o.NoteRank > 0 && o.NoteRank <= c {
				m.Note.Recall[c]++
			}
		}
		if o.Rank > 0 && o.Rank <= 50 {
			m.Chunk.MRR += 1 / float64(o.Rank)
		}
		if o.NoteRank > 0 && o.NoteRank <= 50 {
			m.Note.MRR += 1 / float64(o.NoteRank)
		}
		m.Chunk.NDCG10 += o.NDCG10
		m.Note.NDCG10 += o.NoteNDCG10
		m.Chunk.Coverage8 += o.Coverage8
		m.Chunk.Coverage50 += o.Coverage50
		m.Note.Coverage8 += o.NoteCoverage8
		m.Note.Coverage50 += o.NoteCoverage50
	}
	n := float64(len(os))
	if n == 0 {
		return m
	}
	for _, mm := range []*Metrics{&m.Chunk, &m.Note} {
		for c := range mm.Recall {
			mm.Recall[c] /= n
		}
		mm.MRR /= n
		mm.NDCG10 /= n
		mm.Coverage8 /= n
		mm.Coverage50 /= n
	}
	return m
}

func latencyOf(ds []time.Duration) Latency {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return Latency{MedianMS: ms(percentile(s, 0.5)), P95MS: ms(percentile(s, 0.95)), Count: len(s)}
}

// percentile of sorted durations, nearest rank.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// Stages returns the names of the stages timed in this run, sorted.
func (r *Result) Stages() []string {
	stages := make([]string, 0, len(r.Latency))
	for s := range r.Latency {
		stages = append(stages, s)
	}
	sort.Strings(stages)
	return stages
}

// ConfigName names a combination of paths: "bm25", "bm25+dense".
func ConfigName(paths []string) string { return strings.Join(paths, "+") }
