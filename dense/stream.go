package dense

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/oraculo/oraculo/internal/interruptible"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// vectorStreamer is a store that reads its vectors one at a time, in id
// order, and saves a graph built from their codes with the vectors read
// again as they are written ([vector.BuildHNSWCodes]): a graph is then
// built anew without ever holding every vector (the SQLite index).
type vectorStreamer interface {
	EachVector(ctx context.Context, model string, fn func(id int64, v []float32) error) error
	SaveHNSWRows(ctx context.Context, model string, g *vector.HNSW, rows vector.Rows) error
}

// How a built graph is searched, chosen at build time by a recall check
// on the index's own vectors (see selfCheck) and stored under
// searchKey: walked, or its codes scanned whole when a walk finds too
// little (vectors with little structure, such as the hashing embedder's).
const (
	searchWalk = "graph"
	searchScan = "scan"
	// minWalkRecall is the recall@10 against an exact scan from which the
	// walk is used.
	minWalkRecall = 0.95
	// checkQueries is how many of the index's vectors the check asks for
	// their neighbours.
	checkQueries = 100
	checkK       = 10
)

func searchKey(model string) string { return "graph_search/" + model }

// streamBuild builds anew the graph of model over the vectors st streams
// (about n of them), holding their codes, not the vectors, saves it with
// the vectors streamed again, and chooses how it is to be searched by
// checking the saved graph's recall: it returns the ids the graph holds
// and the choice to store.
func streamBuild(ctx context.Context, st Store, vs vectorStreamer, model string, n int) ([]int64, string, error) {
	dims, err := firstDims(ctx, vs, model)
	if err != nil || dims == 0 {
		return nil, "", err
	}
	chk := newSelfCheck(n)
	build := func() (*vector.HNSW, error) {
		return vector.BuildHNSWCodes(dims, n, func(yield func(int64, []float32) error) error {
			return vs.EachVector(ctx, model, func(id int64, v []float32) error {
				chk.sample(id, v)
				return yield(id, v)
			})
		}, vector.HNSWOptions{})
	}
	h, err := interruptible.Run(ctx, build)
	if err != nil {
		return nil, "", fmt.Errorf("building the vector graph: %w", err)
	}
	// Saved with the vectors read again, which the check's exact
	// neighbours are found among as they pass.
	rows := func(yield func(int64, []float32) error) error {
		return vs.EachVector(ctx, model, func(id int64, v []float32) error {
			chk.score(id, v)
			return yield(id, v)
		})
	}
	if err := vs.SaveHNSWRows(ctx, model, h, rows); err != nil {
		return nil, "", err
	}
	ids, _ := h.Matrix()
	// The graph checked is the one saved, mapped as a search maps it.
	g, _, err := storedGraph(ctx, st, model)
	if err != nil || g == nil {
		return ids, "", err
	}
	recall, err := chk.recall(g.Search)
	if err != nil {
		return nil, "", err
	}
	return ids, choice(recall), nil
}

// errFirst stops a stream after its first row.
var errFirst = errors.New("first row read")

// firstDims returns the dimensions of model's first vector (0 when there
// is none).
func firstDims(ctx context.Context, vs vectorStreamer, model string) (int, error) {
	dims := 0
	err := vs.EachVector(ctx, model, func(_ int64, v []float32) error {
		dims = len(v)
		return errFirst
	})
	if err != nil && !errors.Is(err, errFirst) {
		return 0, err
	}
	return dims, nil
}

// selfCheck measures a graph's recall@10 on the index's own vectors: a
// sample of them as queries, each one's own chunk left out, their exact
// neighbours found as the vectors stream past.
type selfCheck struct {
	every, seen int
	ids         []int64
	queries     [][]float32
	exact       [][]vector.Hit // per query, the best checkK+1, best first
}

func newSelfCheck(n int) *selfCheck {
	return &selfCheck{every: max(1, n/checkQueries)}
}

// sample keeps a copy of every every-th vector as a query.
func (c *selfCheck) sample(id int64, v []float32) {
	if c.seen%c.every == 0 && len(c.ids) < checkQueries {
		c.ids = append(c.ids, id)
		c.queries = append(c.queries, slices.Clone(v))
		c.exact = append(c.exact, nil)
	}
	c.seen++
}

// score counts vector v (of chunk id) in every query's exact neighbours.
func (c *selfCheck) score(id int64, v []float32) {
	for i, q := range c.queries {
		if id == c.ids[i] {
			continue
		}
		s := vector.Dot(q, v)
		best := c.exact[i]
		if len(best) == checkK && !better(vector.Hit{ID: id, Score: s}, best[checkK-1]) {
			continue
		}
		at, _ := slices.BinarySearchFunc(best, vector.Hit{ID: id, Score: s}, func(a, b vector.Hit) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		best = slices.Insert(best, at, vector.Hit{ID: id, Score: s})
		c.exact[i] = best[:min(len(best), checkK)]
	}
}

// better orders hits as searches do: higher score, then smaller id.
func better(a, b vector.Hit) bool {
	return a.Score > b.Score || a.Score == b.Score && a.ID < b.ID
}

// recall searches every query as the dense path does (retrieve.FixedDepth
// neighbours, the first checkK kept, the query's own chunk left out) and
// returns the share of the exact neighbours found.
func (c *selfCheck) recall(search func([]float32, int) ([]vector.Hit, error)) (float64, error) {
	if len(c.queries) == 0 {
		return 1, nil
	}
	var total float64
	for i, q := range c.queries {
		hits, err := search(q, retrieve.FixedDepth+1)
		if err != nil {
			return 0, err
		}
		hits = slices.DeleteFunc(hits, func(h vector.Hit) bool { return h.ID == c.ids[i] })
		hits = hits[:min(checkK, len(hits))]
		want := c.exact[i]
		if len(want) == 0 {
			total++
			continue
		}
		found := 0
		for _, w := range want {
			if slices.ContainsFunc(hits, func(h vector.Hit) bool { return h.ID == w.ID }) {
				found++
			}
		}
		total += float64(found) / float64(len(want))
	}
	return total / float64(len(c.queries)), nil
}

// choice is what is stored under searchKey: how the graph is searched
// and the walk's recall that decided it.
func choice(walkRecall float64) string {
	mode := searchWalk
	if walkRecall < minWalkRecall {
		mode = searchScan
	}
	return fmt.Sprintf("%s recall@10=%.3f", mode, walkRecall)
}

// storedChoice reads how model's graph is to be searched (searchWalk
// when nothing was stored: a graph built before the check).
func storedChoice(ctx context.Context, st store.Settings, model string) (mode string, recall float64, err error) {
	v, err := st.Meta(ctx, searchKey(model))
	if err != nil {
		return "", 0, err
	}
	mode, rest, _ := strings.Cut(v, " ")
	if mode != searchScan {
		return searchWalk, 0, nil
	}
	recall, _ = strconv.ParseFloat(strings.TrimPrefix(rest, "recall@10="), 64)
	return mode, recall, nil
}

// codeScan searches a graph by scanning every node's codes
// ([vector.HNSW.ScanCodes]) rather than walking it: the build's choice
// when the walk's recall on the index's own vectors fell short.
type codeScan struct{ *vector.HNSW }

// Search returns the k best of every node's codes, rescored exactly.
func (c codeScan) Search(q []float32, k int) ([]vector.Hit, error) { return c.ScanCodes(q, k) }
