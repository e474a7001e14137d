// Package answer is the text work between retrieval and the user: it
// assembles the evidence a model sees (full chunks, one per session, then
// one-line summaries in their own block), writes the prompts, checks that
// every citation in an answer names delivered evidence, abstains when the
// evidence is missing, answers extractively when there is no model, and
// expands follow-up questions for retrieval.
//
// Everything here is pure: text in, text out, no I/O and no panics on any
// input. A citation is the exact label of a delivered [Item] in square
// brackets, "[" + label + "]"; see [Verify].
package answer
