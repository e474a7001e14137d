package answer

import "github.com/oraculo/oraculo/store"

// AskOptions tune one answer (the engine's Ask).
type AskOptions struct {
	// Candidates is how many fused candidates are reranked (default 40).
	Candidates int
	// Paths restricts retrieval (default: every available path).
	Paths []string
	// Filter restricts retrieval to some sessions, folders or tags.
	Filter store.Filter
	// History holds the conversation's earlier turns, oldest first: a
	// question that does not stand alone is searched together with the
	// previous one, and the model sees them.
	History []Turn
	// Lang is the answer's language, "es" or "en" (default: the
	// question's).
	Lang string
	// Extractive answers without the chat model even when there is one.
	Extractive bool
	// OnDelta receives the generated answer as it streams (raw, before
	// verification; the verified text is in the returned Answer). The
	// model's reasoning never reaches it, nor the Answer.
	OnDelta func(string)
	// OnThinking, when set, is called when the chat model starts
	// reasoning while it writes the answer, before the deltas that follow
	// (see chat.Request.OnThinking): a front end can say that the model is
	// thinking until the next delta.
	OnThinking func()
	// OnVerified, when set, receives the answer's verified text while the
	// chat model writes it: each time a sentence is complete (see
	// [Settled]) and its citations checked, the segments of the
	// verified text so far, each call's text starting with the previous
	// call's. A sentence without a valid citation comes marked (see
	// [CheckSettled]), and the last one only once the next has begun.
	// It is not called before a citation is valid (an answer with
	// none is replaced by an abstention), nor for an extractive
	// answer, which is whole at once. The Answer's Segments go on from the
	// last call's, unless the chat model failed midway and the answer was
	// extracted from the notes instead.
	OnVerified func([]PublicSegment)
}
