package answer

import "github.com/oraculo/oraculo/chat"

// Sources of an answer's [Usage].
const (
	// UsageModel: the model server reported every count.
	UsageModel = "model"
	// UsageEstimate: some count is Oráculo's estimate (see
	// [chat.Estimate]), the server having reported none.
	UsageEstimate = "estimate"
	// UsageNone: no chat model was called (an extractive answer), or
	// none of its calls got a reply: no model tokens.
	UsageNone = "none"
)

// Usage is the tokens of the chat-model calls made for an answer: the
// reranking (when the chat model reranks) and the generation. Prompt
// tokens count everything sent (system prompt, evidence, history,
// question), completion tokens what the model wrote. A cross-encoder
// reranker and the annotations (made at ingest) are not chat calls of
// the answer. Its JSON shape is public (`ask --json`, "usage").
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// Calls is how many chat-model calls were counted.
	Calls int `json:"model_calls"`
	// Source is UsageModel, UsageEstimate or UsageNone.
	Source string `json:"source"`
}

// UsageOf is the usage of what a meter counted (see [chat.Meter]).
func UsageOf(m chat.Metered) Usage {
	u := Usage{PromptTokens: m.PromptTokens, CompletionTokens: m.CompletionTokens, TotalTokens: m.Total(), Calls: m.Calls, Source: UsageModel}
	switch {
	case m.Calls == 0:
		u.Source = UsageNone
	case m.Estimated:
		u.Source = UsageEstimate
	}
	return u
}
