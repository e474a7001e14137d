package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/eval"
)

// EvalConfigs returns the configurations the evaluation harness runs on
// this engine: every ablation of the retrieval paths, each path alone
// first and all of them together last.
func (e *Engine) EvalConfigs() []eval.Config {
	var out []eval.Config
	for _, paths := range e.Ablations() {
		out = append(out, eval.Config{Name: eval.ConfigName(paths), Paths: paths, Search: e.Searcher(paths...)})
	}
	return out
}

// Searcher adapts [Engine.Search] with the given paths to the harness.
func (e *Engine) Searcher(paths ...string) eval.Searcher {
	return func(ctx context.Context, q string, k int) ([]eval.Retrieved, []eval.Stage, error) {
		var tr Trace
		hits, err := e.Search(ctx, q, SearchOptions{K: k, Paths: paths, Trace: &tr})
		if err != nil {
			return nil, nil, err
		}
		out := make([]eval.Retrieved, len(hits))
		for i, h := range hits {
			out[i] = eval.Retrieved{File: h.File, Headings: h.Headings, Text: h.Text}
		}
		stages := make([]eval.Stage, len(tr.Stages))
		for i, s := range tr.Stages {
			stages[i] = eval.Stage{Name: s.Stage, Duration: s.Duration}
		}
		return out, stages, nil
	}
}
