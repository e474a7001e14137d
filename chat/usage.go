package chat

import (
	"context"
	"sync"

	"github.com/oraculo/oraculo/internal/tokens"
)

// Usage is the tokens of a chat call, or of many: what the model read
// (every message sent: system prompt, context, history, question) and
// what it wrote.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
}

// Total is PromptTokens + CompletionTokens.
func (u Usage) Total() int { return u.PromptTokens + u.CompletionTokens }

// NotReported stands for a count the server did not report, in what
// [Request.OnUsage] is given.
const NotReported = -1

// reportCounts passes to count the counts a server reported, a nil one
// being one it left out ([NotReported]); nothing when it left out both.
func reportCounts(prompt, completion *int, count func(Usage)) {
	if prompt == nil && completion == nil {
		return
	}
	u := Usage{PromptTokens: NotReported, CompletionTokens: NotReported}
	if prompt != nil {
		u.PromptTokens = *prompt
	}
	if completion != nil {
		u.CompletionTokens = *completion
	}
	count(u)
}

// Estimate returns the tokens of a call that sent msgs and got reply, as
// [tokens.Messages] and [tokens.Count] estimate them: the user's model
// has its own tokenizer.
func Estimate(msgs []Message, reply string) Usage {
	contents := make([]string, len(msgs))
	for i, m := range msgs {
		contents[i] = m.Content
	}
	return Usage{PromptTokens: tokens.Messages(contents), CompletionTokens: tokens.Count(reply)}
}

// Metered is what a [Meter] counted.
type Metered struct {
	Usage
	// Calls is how many calls were counted.
	Calls int
	// Estimated: some count is an estimate (see [Estimate]), the server
	// having reported none, or a prompt count too small to be the whole
	// prompt.
	Estimated bool
}

// Meter is a Model that counts the tokens of the calls made through it,
// preferring the counts the server reports (Ollama's prompt_eval_count
// and eval_count, an OpenAI-style usage) and estimating those it does not
// (see [Estimate]). A call that failed before any of the reply came is
// not counted: whether the server read the prompt is unknown. A Meter is
// safe for concurrent use.
type Meter struct {
	model Model

	mu    sync.Mutex
	total Metered
}

// NewMeter returns a Meter over model.
func NewMeter(model Model) *Meter { return &Meter{model: model} }

// ID returns the metered model's ID.
func (m *Meter) ID() string { return m.model.ID() }

// Chat calls the metered model and counts the call; see [Model.Chat].
func (m *Meter) Chat(ctx context.Context, req Request, onDelta func(string)) (string, error) {
	reported := Usage{PromptTokens: NotReported, CompletionTokens: NotReported}
	onUsage := req.OnUsage
	req.OnUsage = func(u Usage) {
		reported = u
		if onUsage != nil {
			onUsage(u)
		}
	}
	reply, err := m.model.Chat(ctx, req, onDelta)
	if err != nil && reply == "" {
		return reply, err
	}
	u, estimated := counted(reported, req.Messages, reply)
	m.mu.Lock()
	m.total.PromptTokens += u.PromptTokens
	m.total.CompletionTokens += u.CompletionTokens
	m.total.Calls++
	m.total.Estimated = m.total.Estimated || estimated
	m.mu.Unlock()
	return reply, err
}

// Total returns what the meter counted so far.
func (m *Meter) Total() Metered {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total
}

// counted is a call's usage: the counts the server reported, and the
// estimate of those it did not (see [Estimate]); it reports whether any
// count is estimated. A prompt count under one token per 8 bytes of the
// messages (every tokenizer counts at least twice that) is not the whole
// prompt: Ollama and llama-server have counted only the part not already
// in their cache. The estimate replaces it.
func counted(reported Usage, msgs []Message, reply string) (Usage, bool) {
	u, estimated := reported, false
	size := 0
	for _, m := range msgs {
		size += len(m.Content)
	}
	if u.PromptTokens < 0 || u.PromptTokens < size/8 {
		u.PromptTokens, estimated = Estimate(msgs, "").PromptTokens, true
	}
	if u.CompletionTokens < 0 {
		u.CompletionTokens, estimated = tokens.Count(reply), true
	}
	return u, estimated
}
