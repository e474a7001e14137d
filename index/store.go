package index

import "github.com/oraculo/oraculo/store"

// The Index is the embedded implementation of [store.Store].
var (
	_ store.Store       = (*Index)(nil)
	_ store.TermCounter = (*Index)(nil)
)

// The data the index exchanges is defined by package store, so that code
// written against the interface needs no SQLite; the names below keep the
// index's own callers compiling unchanged.
type (
	// ChunkData is [store.ChunkData].
	ChunkData = store.ChunkData
	// StoredChunk is [store.Chunk].
	StoredChunk = store.Chunk
	// Match is [store.Match].
	Match = store.Match
	// BM25Options is [store.BM25Options].
	BM25Options = store.BM25Options
	// Filter is [store.Filter].
	Filter = store.Filter
	// Stats is [store.Stats].
	Stats = store.Stats
	// DocumentRecord is [store.DocumentRecord].
	DocumentRecord = store.DocumentRecord
	// ChunkRecord is [store.ChunkRecord].
	ChunkRecord = store.ChunkRecord
	// ChildRecord is [store.ChildRecord].
	ChildRecord = store.ChildRecord
	// DocumentState is [store.DocumentState].
	DocumentState = store.DocumentState
	// VisibilityRecord is [store.VisibilityRecord].
	VisibilityRecord = store.VisibilityRecord
	// Decider is [store.Decider].
	Decider = store.Decider
	// EntityRecord is [store.Entity].
	EntityRecord = store.Entity
	// EntityMention is [store.Mention].
	EntityMention = store.Mention
	// NoteSource is [store.NoteSource].
	NoteSource = store.NoteSource
	// EmbedJob is [store.EmbedJob].
	EmbedJob = store.EmbedJob
	// Vectors is [store.Vectors].
	Vectors = store.Vectors
	// AnnotateJob is [store.AnnotateJob].
	AnnotateJob = store.AnnotateJob
)

// Compendium scopes: every note, or only those players may see.
const (
	ScopeDM     = store.ScopeDM
	ScopePlayer = store.ScopePlayer
)

// Errors the index returns, the same values as package store's.
var (
	// ErrNoChunk is [store.ErrNoChunk].
	ErrNoChunk = store.ErrNoChunk
	// ErrMissingParent is [store.ErrMissingParent].
	ErrMissingParent = store.ErrMissingParent
)
