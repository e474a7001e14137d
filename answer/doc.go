// Package answer is the text work between retrieval and the user: it
// assembles the evidence a model sees (full chunks, one per session, then
// one-line summaries in their own block), writes the prompts, checks that
// every citation in an answer names delivered evidence, abstains when the
// evidence is missing, answers extractively when there is no model, and
// expands follow-up questions for retrieval.
//
// Its files follow the stages [github.com/oraculo/oraculo.Engine.Ask]
// composes: converse (converse.go, followup.go, names.go), assemble
// (context.go, and delivery.go: the evidence with each item's public id),
// long-term memory (memory.go: the block and labels of the entries that
// package memory chose), the draft (draft.go: generated, or extracted when
// there is no model or it fails, fallback.go; notes.go the index lookups),
// generate's prompt (prompt.go), extract (extractive.go, grounding.go),
// verify (citations.go, abstain.go, verdict.go; as the model writes,
// settled.go and verifyasitgoes.go) and the verdict in its public shape
// (publish.go).
//
// Everything here is pure, text in, text out, with no panics on any
// input, but for the draft ([Write]): it calls the chat model and asks
// the index through [Notes]. A citation is the exact label of a delivered
// [Item] in square brackets, "[" + label + "]"; see [Verify].
package answer
