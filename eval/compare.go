package eval

import (
	"math"
	"sort"
)

// MetricNames are the metrics compared and tabulated, in order.
var MetricNames = []string{"R@1", "R@5", "R@8", "R@20", "R@50", "MRR@50", "nDCG@10", "cov@8", "cov@50"}

// Value returns a metric by its name in MetricNames, NaN when unknown.
func (m Metrics) Value(name string) float64 {
	switch name {
	case "R@1":
		return m.Recall[1]
	case "R@5":
		return m.Recall[5]
	case "R@8":
		return m.Recall[8]
	case "R@20":
		return m.Recall[20]
	case "R@50":
		return m.Recall[50]
	case "MRR@50":
		return m.MRR
	case "nDCG@10":
		return m.NDCG10
	case "cov@8":
		return m.Coverage8
	case "cov@50":
		return m.Coverage50
	}
	return math.NaN()
}

// CompareRow is one metric of one configuration and mode in two runs. A or
// B is NaN when that run lacks the configuration.
type CompareRow struct {
	Config string  `json:"config"`
	Mode   string  `json:"mode"`
	Metric string  `json:"metric"`
	A      float64 `json:"a"`
	B      float64 `json:"b"`
	Delta  float64 `json:"delta"`
}

// RankChange is a question whose rank moved between two runs' last
// configurations (0 means not found).
type RankChange struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	A        int    `json:"a"`
	B        int    `json:"b"`
}

// Comparison sets two runs side by side.
type Comparison struct {
	Rows []CompareRow `json:"rows"`
	// Better and Worse list the questions whose first relevant rank moved
	// in the last configuration of each run.
	Better []RankChange `json:"better"`
	Worse  []RankChange `json:"worse"`
}

// Compare lines up every configuration present in either run.
func Compare(a, b *Report) Comparison {
	var names []string
	seen := map[string]bool{}
	for _, r := range append(append([]*Result(nil), a.Configs...), b.Configs...) {
		if !seen[r.Name] {
			seen[r.Name] = true
			names = append(names, r.Name)
		}
	}
	var c Comparison
	for _, name := range names {
		ra, rb := a.Config(name), b.Config(name)
		for _, mode := range []string{"chunk", "note"} {
			for _, metric := range MetricNames {
				row := CompareRow{Config: name, Mode: mode, Metric: metric, A: math.NaN(), B: math.NaN()}
				if ra != nil {
					row.A = ra.mode(mode).Value(metric)
				}
				if rb != nil {
					row.B = rb.mode(mode).Value(metric)
				}
				row.Delta = row.B - row.A
				c.Rows = append(c.Rows, row)
			}
		}
	}
	fa, fb := a.Final(), b.Final()
	ranks := map[string]Outcome{}
	for _, o := range fa.Outcomes {
		ranks[o.ID] = o
	}
	for _, o := range fb.Outcomes {
		old, ok := ranks[o.ID]
		if !ok || old.Rank == o.Rank {
			continue
		}
		ch := RankChange{ID: o.ID, Question: o.Question, A: old.Rank, B: o.Rank}
		if missOrder(o.Rank) < missOrder(old.Rank) {
			c.Better = append(c.Better, ch)
		} else {
			c.Worse = append(c.Worse, ch)
		}
	}
	sort.Slice(c.Better, func(i, j int) bool { return c.Better[i].ID < c.Better[j].ID })
	sort.Slice(c.Worse, func(i, j int) bool { return c.Worse[i].ID < c.Worse[j].ID })
	return c
}

func (r *Result) mode(name string) Metrics {
	if name == "note" {
		return r.Note
	}
	return r.Chunk
}
