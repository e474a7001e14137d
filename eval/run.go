package eval

import (
	"context"
	"fmt"
	"sort"
)

// Cutoffs are the ranks at which recall is reported: 1 and 5, 8 (what the
// model sees), 20 and 50 (the candidate set).
var Cutoffs = []int{1, 5, 8, 20, 50}

// Searcher returns the ranked chunks for a question.
type Searcher func(ctx context.Context, question string, k int) ([]Retrieved, error)

// Outcome is one question's result.
type Outcome struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Kind     string `json:"kind"`
	// Rank is the rank of the first relevant chunk (0: not in the list);
	// NoteRank the same with one slot per note.
	Rank       int     `json:"rank"`
	NoteRank   int     `json:"note_rank"`
	Coverage8  float64 `json:"coverage_at_8"`
	Coverage50 float64 `json:"coverage_at_50"`
	NDCG10     float64 `json:"ndcg_at_10"`
}

// Summary holds the averaged metrics of a run.
type Summary struct {
	Questions int `json:"questions"`
	// Recall maps each cutoff to the share of answerable questions whose
	// first relevant chunk came back within it; NoteRecall the same with
	// one slot per note.
	Recall     map[int]float64 `json:"recall"`
	NoteRecall map[int]float64 `json:"note_recall"`
	MRR        float64         `json:"mrr_at_50"`
	NoteMRR    float64         `json:"note_mrr_at_50"`
	NDCG10     float64         `json:"ndcg_at_10"`
	// Coverage of multi-source questions' sources at 8 and 50.
	MultiCoverage8  float64   `json:"multi_coverage_at_8"`
	MultiCoverage50 float64   `json:"multi_coverage_at_50"`
	Outcomes        []Outcome `json:"outcomes"`
}

// Run asks every answerable question with depth k and judges the results.
func Run(ctx context.Context, qs []Question, search Searcher, k int) (*Summary, error) {
	s := &Summary{Recall: map[int]float64{}, NoteRecall: map[int]float64{}}
	multi := 0
	for _, q := range qs {
		if q.Kind == KindUnanswerable {
			continue
		}
		got, err := search(ctx, q.Question, k)
		if err != nil {
			return nil, fmt.Errorf("question %q: %w", q.ID, err)
		}
		rel := make([]bool, len(got))
		covers := make([][]int, len(got))
		files := make([]string, len(got))
		for i, r := range got {
			covers[i] = q.Matches(r)
			rel[i] = len(covers[i]) > 0
			files[i] = r.File
		}
		var noteRel []bool
		for _, i := range OneSlotPerNote(files) {
			noteRel = append(noteRel, rel[i])
		}
		o := Outcome{
			ID: q.ID, Question: q.Question, Kind: q.Kind,
			Rank: FirstRelevant(rel), NoteRank: FirstRelevant(noteRel),
			Coverage8: CoverageAt(covers, len(q.Sources), 8), Coverage50: CoverageAt(covers, len(q.Sources), 50),
			NDCG10: NDCGAt(rel, len(q.Sources), 10),
		}
		s.Outcomes = append(s.Outcomes, o)
		for _, c := range Cutoffs {
			s.Recall[c] += RecallAt(rel, c)
			s.NoteRecall[c] += RecallAt(noteRel, c)
		}
		s.MRR += ReciprocalRank(rel, 50)
		s.NoteMRR += ReciprocalRank(noteRel, 50)
		s.NDCG10 += o.NDCG10
		if q.Kind == KindMulti {
			multi++
			s.MultiCoverage8 += o.Coverage8
			s.MultiCoverage50 += o.Coverage50
		}
	}
	n := float64(len(s.Outcomes))
	s.Questions = len(s.Outcomes)
	if n == 0 {
		return s, fmt.Errorf("the golden set has no answerable question")
	}
	for _, c := range Cutoffs {
		s.Recall[c] /= n
		s.NoteRecall[c] /= n
	}
	s.MRR /= n
	s.NoteMRR /= n
	s.NDCG10 /= n
	if multi > 0 {
		s.MultiCoverage8 /= float64(multi)
		s.MultiCoverage50 /= float64(multi)
	}
	sort.SliceStable(s.Outcomes, func(i, j int) bool { return s.Outcomes[i].ID < s.Outcomes[j].ID })
	return s, nil
}
