package eval

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// Configs returns the configurations to evaluate on eng: every ablation
// of its available retrieval paths (see [Ablations]), each searching
// through [oraculo.Engine.Search] restricted by f (eval --session,
// --folder, --tag; the zero Filter restricts nothing).
func Configs(ctx context.Context, eng *oraculo.Engine, f store.Filter) ([]Config, error) {
	st, err := eng.Stats(ctx)
	if err != nil {
		return nil, err
	}
	var out []Config
	for _, paths := range Ablations(st.Retrieval.Paths) {
		out = append(out, Config{Name: ConfigName(paths), Paths: paths, Search: EngineSearcher(eng, f, paths...)})
	}
	return out, nil
}

// Ablations lists the combinations of paths to evaluate: every path
// alone, then every larger combination, all of them together last; each
// combination keeps the order of paths.
func Ablations(paths []string) [][]string {
	var out [][]string
	for size := 1; size <= len(paths); size++ {
		for mask := 1; mask < 1<<len(paths); mask++ {
			if bits.OnesCount(uint(mask)) != size {
				continue
			}
			var set []string
			for i, n := range paths {
				if mask&(1<<i) != 0 {
					set = append(set, n)
				}
			}
			out = append(out, set)
		}
	}
	return out
}

// EngineSearcher searches eng with the given paths (all available ones
// when none), restricted by f, and reports the time of each stage.
func EngineSearcher(eng *oraculo.Engine, f store.Filter, paths ...string) Searcher {
	return func(ctx context.Context, q string, k int) ([]Retrieved, []Stage, error) {
		var tr oraculo.Trace
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: k, Paths: paths, Trace: &tr, Filter: f})
		if err != nil {
			return nil, nil, err
		}
		stages := make([]Stage, len(tr.Stages))
		for i, s := range tr.Stages {
			stages[i] = Stage{Name: s.Stage, Duration: s.Duration}
		}
		return retrievedOf(hits), stages, nil
	}
}

// EngineAsker answers with [oraculo.Engine.Ask] and opts.
func EngineAsker(eng *oraculo.Engine, opts oraculo.AskOptions) Asker {
	return func(ctx context.Context, q string) (AnswerOutcome, error) {
		a, err := eng.Ask(ctx, q, opts)
		if err != nil {
			return AnswerOutcome{}, err
		}
		out := AnswerOutcome{
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

// CheckANN measures what approximate vector search loses against exact
// search on the same questions: the recall@k of the dense path searching
// approximately as search does ([oraculo.VectorsApprox]: walking the HNSW
// graph, or scanning its int8 codes when the build chose so; a graph
// built for the check when search does not use one yet) against it
// scanning every vector
// ([oraculo.VectorsExact]). Both run as a search does (the graph asked
// for retrieve.FixedDepth neighbours, or k when larger, the first k kept),
// so the figure is what search loses. It returns nil when the dense path
// is off.
func CheckANN(ctx context.Context, eng *oraculo.Engine, questions []string, k int) (*ANNCheck, error) {
	// The check is of the vector index, not of what a reader may see:
	// every vector counts, whatever the role eval reads as.
	ctx = oraculo.WithRole(ctx, oraculo.RoleDM)
	st, err := eng.Stats(ctx)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(st.Retrieval.Paths, retrieve.PathDense) {
		return nil, nil
	}
	nearest := func(q string, mode oraculo.VectorSearch) ([]string, error) {
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: k, Paths: []string{retrieve.PathDense}, Vectors: mode, NoPrior: true, NoAnalysis: true})
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.ID
		}
		return ids, err
	}
	var total, total10 float64
	queries := 0
	for _, q := range questions {
		exact, err := nearest(q, oraculo.VectorsExact)
		if errors.Is(err, embed.ErrResponse) {
			continue // the model has no usable vector for this question
		}
		if err != nil {
			return nil, err
		}
		approx, err := nearest(q, oraculo.VectorsApprox)
		if err != nil {
			return nil, err
		}
		queries++
		total += overlap(exact, approx, len(exact))
		total10 += overlap(exact, approx, 10)
	}
	check := &ANNCheck{Model: st.Retrieval.DenseModel, Vectors: st.Retrieval.DenseVectors, Queries: queries, K: k, InUse: st.Retrieval.Graph}
	opts := vector.HNSWOptions{}.WithDefaults()
	check.Index = fmt.Sprintf("hnsw M=%d ef=%d", opts.M, opts.EfSearch)
	if st.Retrieval.DenseScan {
		// What search uses: the graph's codes scanned, not walked.
		check.Index = fmt.Sprintf("hnsw M=%d, int8 codes scanned", opts.M)
	}
	if queries > 0 {
		check.Recall = total / float64(queries)
		check.Recall10 = total10 / float64(queries)
	}
	return check, nil
}

// overlap is the share of the first n of exact that the first n of approx
// holds (1 when exact is empty).
func overlap(exact, approx []string, n int) float64 {
	exact, approx = exact[:min(n, len(exact))], approx[:min(n, len(approx))]
	if len(exact) == 0 {
		return 1
	}
	found := 0
	for _, id := range exact {
		if slices.Contains(approx, id) {
			found++
		}
	}
	return float64(found) / float64(len(exact))
}

func retrievedOf(hits []oraculo.Hit) []Retrieved {
	out := make([]Retrieved, len(hits))
	for i, h := range hits {
		out[i] = Retrieved{File: h.File, Headings: h.Headings, Text: h.Text}
	}
	return out
}
