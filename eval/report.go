package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"
)

// Report is a whole evaluation run: every configuration on one golden set.
// Its JSON form is what `oraculo eval --json` prints and `--compare` reads.
type Report struct {
	Golden string `json:"golden"`
	Index  string `json:"index"`
	// K is the depth each configuration was asked for.
	K       int       `json:"k"`
	Created time.Time `json:"created"`
	// Settings describes the index (language, chunking) for the record.
	Settings any `json:"settings,omitempty"`
	// Questions counts the whole set; Unanswerable those without sources.
	Questions    int            `json:"questions"`
	Unanswerable int            `json:"unanswerable"`
	Kinds        map[string]int `json:"kinds"`
	// Configs are the ablations, each path alone first, all together last.
	Configs []*Result `json:"configs"`
	// Misses are the questions the last configuration did not rank first.
	Misses []Miss `json:"misses"`
	// ANN compares approximate with exact vector search on the same
	// questions, when the dense path is on (seed 002: the trap nobody checks).
	ANN *ANNCheck `json:"ann,omitempty"`
	// Answers measures reranking, abstention and citations, when asked for
	// (oraculo eval --answers).
	Answers *AnswerReport `json:"answers,omitempty"`
}

// ANNCheck is the recall an approximate vector index keeps against exact
// search over the same vectors and questions.
type ANNCheck struct {
	Model   string `json:"model"`
	Vectors int    `json:"vectors"`
	// Index names the approximate index checked ("hnsw M=16 ef=64").
	Index   string  `json:"index"`
	Queries int     `json:"queries"`
	K       int     `json:"k"`
	Recall  float64 `json:"recall"`
	// Recall10 is the same recall over the first 10 neighbours of each
	// search (at most K): what the dense path keeps near the top.
	Recall10 float64 `json:"recall_at_10"`
	// InUse says whether search uses the approximate index at this size
	// (below the threshold it scans exactly, and the check shows what the
	// index would lose when the notes grow).
	InUse bool `json:"in_use"`
}

// Miss is a question whose source did not come back first: where it did
// come back, and which path found it.
type Miss struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Kind     string `json:"kind"`
	// Rank is where the first relevant chunk came back in the last
	// configuration (0: not within the depth).
	Rank     int `json:"rank"`
	FileRank int `json:"file_rank"`
	// ByPath maps each single-path configuration to its rank there.
	ByPath map[string]int `json:"by_path"`
}

// Final returns the last configuration (all paths together), or nil.
func (r *Report) Final() *Result {
	if len(r.Configs) == 0 {
		return nil
	}
	return r.Configs[len(r.Configs)-1]
}

// Config returns the configuration with that name, or nil.
func (r *Report) Config(name string) *Result {
	for _, c := range r.Configs {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Evaluate runs every configuration over the golden set and gathers the
// misses of the last one.
func Evaluate(ctx context.Context, golden string, qs []Question, configs []Config, k int) (*Report, error) {
	if len(configs) == 0 {
		return nil, fmt.Errorf("no configuration to evaluate")
	}
	rep := &Report{Golden: golden, K: k, Created: time.Now().UTC().Truncate(time.Second), Questions: len(qs), Kinds: map[string]int{}}
	for _, q := range qs {
		rep.Kinds[q.Kind]++
		if q.Kind == KindUnanswerable {
			rep.Unanswerable++
		}
	}
	for _, c := range configs {
		res, err := Run(ctx, qs, c, k)
		if err != nil {
			return nil, fmt.Errorf("configuration %q: %w", c.Name, err)
		}
		rep.Configs = append(rep.Configs, res)
	}
	rep.Misses = rep.ListMisses()
	return rep, nil
}

// ListMisses lists the questions whose source did not come back first in
// the last configuration, worst first, with their rank in each
// single-path configuration (Evaluate sets Misses to it).
func (rep *Report) ListMisses() []Miss {
	final := rep.Final()
	var out []Miss
	for i, o := range final.Outcomes {
		if o.Rank == 1 {
			continue
		}
		m := Miss{ID: o.ID, Question: o.Question, Kind: o.Kind, Rank: o.Rank, FileRank: o.FileRank, ByPath: map[string]int{}}
		for _, c := range rep.Configs {
			if len(c.Paths) == 1 && i < len(c.Outcomes) && c.Outcomes[i].ID == o.ID {
				m.ByPath[c.Paths[0]] = c.Outcomes[i].Rank
			}
		}
		out = append(out, m)
	}
	// Worst first: not found at all, then the deepest.
	sort.SliceStable(out, func(i, j int) bool { return missOrder(out[i].Rank) > missOrder(out[j].Rank) })
	return out
}

func missOrder(rank int) int {
	if rank == 0 {
		return 1 << 30
	}
	return rank
}

// WriteJSON writes the report as indented JSON to path.
func (r *Report) WriteJSON(path string) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing report %q: %w", path, err)
	}
	return nil
}

// LoadReport reads a report written with --json.
func LoadReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading report: %w", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("report %q is not an evaluation report: %w", path, err)
	}
	if len(r.Configs) == 0 {
		return nil, fmt.Errorf("report %q has no configurations", path)
	}
	return &r, nil
}
