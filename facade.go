package oraculo

import (
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
