package oraculo

import (
	"context"
	"fmt"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/vector"
)

// EvalConfigs returns the configurations the evaluation harness runs on
// this engine: every ablation of the retrieval paths, each path alone
// first and all of them together last; a filter, when given, restricts
// every search (eval --session, --folder, --tag).
func (e *Engine) EvalConfigs(ctx context.Context, filter ...index.Filter) ([]eval.Config, error) {
	ablations, err := e.Ablations(ctx)
	if err != nil {
		return nil, err
	}
	var f index.Filter
	if len(filter) > 0 {
		f = filter[0]
	}
	var out []eval.Config
	for _, paths := range ablations {
		out = append(out, eval.Config{Name: eval.ConfigName(paths), Paths: paths, Search: e.searcher(f, paths...)})
	}
	return out, nil
}

// Searcher adapts [Engine.Search] with the given paths to the harness.
func (e *Engine) Searcher(paths ...string) eval.Searcher {
	return e.searcher(index.Filter{}, paths...)
}

func (e *Engine) searcher(f index.Filter, paths ...string) eval.Searcher {
	return func(ctx context.Context, q string, k int) ([]eval.Retrieved, []eval.Stage, error) {
		var tr Trace
		hits, err := e.Search(ctx, q, SearchOptions{K: k, Paths: paths, Trace: &tr, Filter: f})
		if err != nil {
			return nil, nil, err
		}
		out := retrievedOf(hits)
		stages := make([]eval.Stage, len(tr.Stages))
		for i, s := range tr.Stages {
			stages[i] = eval.Stage{Name: s.Stage, Duration: s.Duration}
		}
		return out, stages, nil
	}
}

// CheckANN measures what approximate vector search loses against exact
// search on the same questions: the recall@k of an HNSW graph over the
// index's vectors, built for the check when search does not use one yet.
// It returns nil when the dense path is off.
func (e *Engine) CheckANN(ctx context.Context, questions []string, k int) (*eval.ANNCheck, error) {
	st, err := e.denseIndex(ctx)
	if err != nil || st == nil {
		return nil, err
	}
	approx, inUse := st.search, true
	if _, exact := approx.(*vector.Exact); exact {
		if approx, err = st.buildHNSW(); err != nil {
			return nil, err
		}
		inUse = false
	}
	em := e.Embedder()
	var exactHits, approxHits [][]vector.Hit
	err = embed.Batch{Retries: 1, Done: func(start int, vecs [][]float32) error {
		for _, v := range vecs {
			if !vector.Normalize(v) {
				continue
			}
			x, err := st.exact.Search(v, k)
			if err != nil {
				return err
			}
			a, err := approx.Search(v, k)
			if err != nil {
				return err
			}
			exactHits, approxHits = append(exactHits, x), append(approxHits, a)
		}
		return nil
	}}.Run(ctx, em, embed.Query, questions)
	if err != nil {
		return nil, err
	}
	opts := vector.HNSWOptions{}
	return &eval.ANNCheck{
		Model: em.ID(), Vectors: st.exact.Len(), Index: fmt.Sprintf("hnsw M=%d ef=%d", opts.WithDefaults().M, opts.WithDefaults().EfSearch),
		Queries: len(exactHits), K: k, Recall: vector.Recall(exactHits, approxHits, k), InUse: inUse,
	}, nil
}

// Asker adapts [Engine.Ask] to the harness's answer evaluation.
func (e *Engine) Asker(opts AskOptions) eval.Asker {
	return func(ctx context.Context, q string) (eval.AnswerOutcome, error) {
		a, err := e.Ask(ctx, q, opts)
		if err != nil {
			return eval.AnswerOutcome{}, err
		}
		out := eval.AnswerOutcome{
			Candidates: retrievedOf(a.Candidates), Fused: retrievedOf(a.Fused),
			Reranked: a.Rerank.Reranked, Fallback: a.Rerank.Fallback, Abstained: a.Abstained,
		}
		for _, c := range a.Citations {
			out.Citations++
			if c.Valid {
				out.Valid++
			}
		}
		return out, nil
	}
}

func retrievedOf(hits []Hit) []eval.Retrieved {
	out := make([]eval.Retrieved, len(hits))
	for i, h := range hits {
		out[i] = eval.Retrieved{File: h.File, Headings: h.Headings, Text: h.Text}
	}
	return out
}
