package eval

import (
	"context"
	"fmt"
	"sort"
)

// AnswerOutcome is what the harness needs to know of one answer.
type AnswerOutcome struct {
	// Candidates are the chunks after reranking, best first; Fused the
	// same candidates in fused order, before reranking.
	Candidates []Retrieved
	Fused      []Retrieved
	Reranked   bool
	// Fallback says why the reranker kept the fused order.
	Fallback  string
	Abstained bool
	// Citations counts the answer's citations; Valid those that name
	// evidence delivered with it.
	Citations int
	Valid     int
}

// Asker answers one question for the harness.
type Asker func(ctx context.Context, question string) (AnswerOutcome, error)

// AnswerReport measures the stages after retrieval on a golden set:
// reranking, abstention and citations.
type AnswerReport struct {
	// Mode describes what answered ("extractive", or the chat model).
	Mode string `json:"mode"`
	// Answerable and Unanswerable count the questions asked.
	Answerable   int `json:"answerable"`
	Unanswerable int `json:"unanswerable"`
	// FusedRecall8 and RerankRecall8 are Recall@8 of the answerable
	// questions before and after reranking (equal when the reranker fell
	// back every time).
	FusedRecall8  float64 `json:"fused_recall_at_8"`
	RerankRecall8 float64 `json:"rerank_recall_at_8"`
	// Reranked counts questions the reranker reordered; Fallbacks the
	// reasons it kept the fused order, with how often.
	Reranked  int            `json:"reranked"`
	Fallbacks map[string]int `json:"fallbacks"`
	// AbstentionAccuracy is the share of all questions where the system
	// abstained exactly when the question has no answer in the notes.
	AbstentionAccuracy    float64 `json:"abstention_accuracy"`
	AbstainedUnanswerable int     `json:"abstained_unanswerable"`
	AbstainedAnswerable   int     `json:"abstained_answerable"`
	// Citations and ValidCitations count every citation of every answer;
	// CitationValidity is their ratio (1 when there are none).
	Citations        int     `json:"citations"`
	ValidCitations   int     `json:"valid_citations"`
	CitationValidity float64 `json:"citation_validity"`
	// CitedAnswers is the share of answers (not abstentions) with at
	// least one valid citation.
	CitedAnswers float64 `json:"cited_answers"`
}

// EvaluateAnswers asks every question and judges what came back.
func EvaluateAnswers(ctx context.Context, qs []Question, mode string, ask Asker) (*AnswerReport, error) {
	r := &AnswerReport{Mode: mode, Fallbacks: map[string]int{}}
	var fused, reranked, correct, answered, cited int
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out, err := ask(ctx, q.Question)
		if err != nil {
			return nil, fmt.Errorf("question %s: %w", q.ID, err)
		}
		unanswerable := q.Kind == KindUnanswerable
		if out.Abstained == unanswerable {
			correct++
		}
		if unanswerable {
			r.Unanswerable++
			if out.Abstained {
				r.AbstainedUnanswerable++
			}
		} else {
			r.Answerable++
			if out.Abstained {
				r.AbstainedAnswerable++
			}
			if o := Judge(q, out.Fused); o.Rank > 0 && o.Rank <= ContextSize {
				fused++
			}
			if o := Judge(q, out.Candidates); o.Rank > 0 && o.Rank <= ContextSize {
				reranked++
			}
		}
		if out.Reranked {
			r.Reranked++
		} else if out.Fallback != "" {
			r.Fallbacks[out.Fallback]++
		}
		r.Citations += out.Citations
		r.ValidCitations += out.Valid
		if !out.Abstained {
			answered++
			if out.Valid > 0 {
				cited++
			}
		}
	}
	if r.Answerable > 0 {
		r.FusedRecall8 = float64(fused) / float64(r.Answerable)
		r.RerankRecall8 = float64(reranked) / float64(r.Answerable)
	}
	if n := r.Answerable + r.Unanswerable; n > 0 {
		r.AbstentionAccuracy = float64(correct) / float64(n)
	}
	r.CitationValidity = 1
	if r.Citations > 0 {
		r.CitationValidity = float64(r.ValidCitations) / float64(r.Citations)
	}
	if answered > 0 {
		r.CitedAnswers = float64(cited) / float64(answered)
	}
	return r, nil
}

// FallbackReasons returns the fallback reasons, most frequent first.
func (r *AnswerReport) FallbackReasons() []string {
	out := make([]string, 0, len(r.Fallbacks))
	for k := range r.Fallbacks {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if r.Fallbacks[out[i]] != r.Fallbacks[out[j]] {
			return r.Fallbacks[out[i]] > r.Fallbacks[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}
