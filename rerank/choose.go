package rerank

import "github.com/oraculo/oraculo/chat"

// Choose is the reranker of an answer: set, the one the engine was given,
// else model's ([LLM], prompting in lang), else none (nil: [Reorder]
// keeps the fused order).
func Choose(set Reranker, model chat.Model, lang string) Reranker {
	if set == nil && model != nil {
		return &LLM{Model: model, Lang: lang}
	}
	return set
}
