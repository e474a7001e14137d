package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// Filter restricts a search, an answer or an evaluation to some sessions,
// folders or front-matter tags, before anything is ranked. The zero Filter
// restricts nothing.
type Filter = store.Filter

// Errors a caller may act on, re-exported so that programs built on the
// engine (the server, the MCP server) need no other package of it.
var (
	// ErrNoChunk: no chunk has the id asked for (or the caller may not
	// see it).
	ErrNoChunk = store.ErrNoChunk
	// ErrUnknownPath: a retrieval path name the engine does not know.
	ErrUnknownPath = retrieve.ErrUnknownPath
	// ErrPathUnavailable: a known retrieval path that cannot run on this
	// index (the dense path without an embedder, say).
	ErrPathUnavailable = retrieve.ErrPathUnavailable
)

// ValidMemoryScope reports whether scope is one a memory entry may have:
// campaign, dm, player:NAME or session:N with N a positive integer; the
// error names the scope and wraps [ErrInvalidMemory].
func ValidMemoryScope(scope string) error { return store.ValidMemoryScope(scope) }

// Unsupported is the mark an answer writes after a sentence that claims
// something without a valid citation: Spanish when lang is "es", English
// otherwise (see [answer.Unsupported]).
func Unsupported(lang string) string { return answer.Unsupported(lang) }

// Snippet is the first line of a chunk's text that says something: not a
// heading, not a line that only marks a session ("## Sesión 12"); else its
// first line ([FirstLine]).
func Snippet(text string) string { return chunk.Snippet(text) }

// ProbeEmbedder embeds text once, as a question, with em (an engine's
// [Engine.Embedder]): the length of the one vector it gave, 0 when it
// gave none or not one.
func ProbeEmbedder(ctx context.Context, em embed.Embedder, text string) (int, error) {
	return embed.Probe(ctx, em, text)
}

// ProbeChat asks m (an engine's [Engine.ChatModel]) for a reply of a few
// words to prompt.
func ProbeChat(ctx context.Context, m chat.Model, prompt string) (string, error) {
	return chat.Probe(ctx, m, prompt)
}
