// Package answer is the text work between retrieval and the user: it
// assembles the evidence a model sees (full chunks, one per session, then
// one-line summaries in their own block), writes the prompts, checks that
// every citation in an answer names delivered evidence, abstains when the
// evidence is missing, answers extractively when there is no model, and
// expands follow-up questions for retrieval.
//
// Its files follow the stages [github.com/oraculo/oraculo.Engine.Ask]
// composes: converse (converse.go, followup.go), assemble (context.go),
// long-term memory (memory.go: the block and labels of the entries that
// package memory chose), generate's prompt
// (prompt.go), extract (extractive.go, grounding.go) and verify
// (citations.go, abstain.go, verdict.go).
//
// Everything here is pure: text in, text out, no I/O and no panics on any
// input. A citation is the exact label of a delivered [Item] in square
// brackets, "[" + label + "]"; see [Verify].
package answer
