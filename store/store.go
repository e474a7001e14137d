// Package store defines what the engine needs from the place its notes are
// kept: the index stage of the pipeline, seen from above. The embedded
// implementation is [github.com/oraculo/oraculo/index] (one SQLite file); a
// cluster such as Weaviate is meant to fit behind the same interface.
//
// The interface is split by role, each small enough to fake in a test:
// [ChunkReader], [Catalog], [KeywordSearcher], [ChunkFilter],
// [VectorStore], [EntityStore], [AnnotationStore], [Settings],
// [DocumentWriter] and [MemoryStore]. [Store] composes them. Optional roles a store may add,
// which the engine uses when it has them: [GraphStore], [GraphMapper],
// [VectorSearcher] and [TermCounter]. A consumer asks for the roles it
// uses (the retrieval paths take a [KeywordSearcher], a [ChunkReader] or a
// [MentionReader]), not for the whole store.
//
// Contracts every implementation keeps:
//   - every method that reaches the data takes a context first and wraps
//     its errors with what was being done;
//   - chunk ids (int64) are the store's own and stable until the note that
//     holds the chunk is replaced; UIDs are stable across re-ingestion;
//   - "public" (and [BM25Options.Public]) leaves out the chunks of notes
//     players may not see now, in the query itself, before anything is
//     ranked; a note whose visibility is not decided yet counts as DM-only;
//   - a [Filter] is applied before anything is ranked, too.
//
// Package [github.com/oraculo/oraculo/store/storetest] runs the same
// scenarios against every implementation, the engine over it included.
package store

import (
	"context"
	"errors"
	"io"

	"github.com/oraculo/oraculo/vector"
)

// ErrNoChunk is returned when no chunk has the id asked for.
var ErrNoChunk = errors.New("no such chunk")

// ErrMissingParent is returned when a result (a matched paragraph, a chunk
// id) points to a chunk that is not in the store: the store is
// inconsistent and must not be trusted.
var ErrMissingParent = errors.New("child points to a missing chunk")

// ChunkReader reads chunks back.
type ChunkReader interface {
	// Chunks returns the chunks with the given ids, in the order given; an
	// id that names no chunk is an error wrapping [ErrMissingParent].
	Chunks(ctx context.Context, ids []int64) ([]Chunk, error)
	// ChunksFound returns the chunks of ids that exist, in the order of
	// ids, leaving out the others: for ids read earlier (a loaded vector
	// matrix, a compendium) that an ingest may have replaced since.
	ChunksFound(ctx context.Context, ids []int64) ([]Chunk, error)
	// ChunkByUID returns the chunk with the given public id, or an error
	// wrapping [ErrNoChunk].
	ChunkByUID(ctx context.Context, uid string) (Chunk, error)
	// ListChunks returns every chunk in document order; when prefixes are
	// given, only those of notes whose path equals one of them or lies
	// under one of them (as a folder).
	ListChunks(ctx context.Context, prefixes []string) ([]Chunk, error)
}

// Catalog says what the store holds.
type Catalog interface {
	// Stats counts what the store holds.
	Stats(ctx context.Context) (Stats, error)
	// Sessions returns the session numbers held, ascending; public counts
	// only those of notes players may see.
	Sessions(ctx context.Context, public bool) ([]int, error)
	// Units counts the sessions plus the notes (or parts of notes)
	// outside any session; public counts only what players may see.
	Units(ctx context.Context, public bool) (int, error)
	// Roots lists the folders notes were ingested from.
	Roots(ctx context.Context) ([]string, error)
	// NoteSources returns every note reassembled from its chunks, in path
	// order, for the compendium builder.
	NoteSources(ctx context.Context) ([]NoteSource, error)
	// DMOnlyCounts counts the DM-only notes by reason.
	DMOnlyCounts(ctx context.Context) (map[string]int, error)
	// ChunksVersion returns a value that changes whenever a chunk is
	// written or removed (it may change at other times too): what was
	// derived from the chunks when it had one value still holds while it
	// has the same. Every write of chunks changes it, by whatever writer.
	ChunksVersion(ctx context.Context) (string, error)
}

// DefaultHeadingWeight is the weight of the heading path against the body
// in a keyword search whose [BM25Options.HeadingWeight] is zero.
const DefaultHeadingWeight = 1.0

// Paragraph is one paragraph a keyword search scored.
type Paragraph struct {
	// Score is its BM25 score: higher is better; zero or less is no real
	// match.
	Score float64
	// ChunkID is its chunk's id, Ordinal its place in the chunk, and
	// ByteStart and ByteEnd its bytes in the note.
	ChunkID                     int64
	Ordinal, ByteStart, ByteEnd int
}

// Paragraphs is one keyword search's scored paragraphs and their chunks,
// read from one state of the store whatever is written meanwhile; Close
// ends the search. The ranking of chunks by their paragraphs is the
// keyword path's ([github.com/oraculo/oraculo/retrieve.SearchBM25]), the
// same over every store.
type Paragraphs interface {
	// Top returns the best limit paragraphs, best first (ties in a fixed
	// order), fewer when fewer are scored: the first of a longer Top are
	// a shorter one's. A matching paragraph whose chunk is missing is an
	// error wrapping [ErrMissingParent].
	Top(ctx context.Context, limit int) ([]Paragraph, error)
	// Chunks returns the chunks with the given ids, by id, as they were
	// when the search began; an id that names none is absent.
	Chunks(ctx context.Context, ids []int64) (map[int64]Chunk, error)
	// Close ends the search.
	Close() error
}

// KeywordSearcher is the keyword (BM25) search over paragraphs.
type KeywordSearcher interface {
	// SearchParagraphs begins a keyword search of analysed terms: the
	// paragraphs that hold any, scored by BM25 with the heading path
	// weighed by opts.HeadingWeight, only those opts lets through
	// (Public, Filter, Lang) before anything is ranked. No terms is a
	// search that scores nothing.
	SearchParagraphs(ctx context.Context, terms []string, opts BM25Options) (Paragraphs, error)
	// TermUsed reports whether an analysed term occurs in any paragraph
	// (of a note players may see, when public).
	TermUsed(ctx context.Context, term string, public bool) (bool, error)
}

// ChunkFilter tells which chunks a search may see.
type ChunkFilter interface {
	// FilterChunks returns the ids of the chunks f lets through.
	FilterChunks(ctx context.Context, f Filter) (map[int64]bool, error)
	// RestrictedChunks returns the ids of the chunks of DM-only notes.
	RestrictedChunks(ctx context.Context) (map[int64]bool, error)
}

// VectorStore keeps the dense path's vectors, keyed by the hash of what was
// embedded and the model.
type VectorStore interface {
	// PendingEmbeddings lists, once per distinct text, the chunks that
	// have no vector for model yet, in a stable order.
	PendingEmbeddings(ctx context.Context, model string) ([]EmbedJob, error)
	// PutEmbeddings stores vectors for model, all or none.
	PutEmbeddings(ctx context.Context, model string, hashes []string, vecs [][]float32) error
	// LoadVectors reads every chunk's vector for model; missing says how
	// many chunks have none.
	LoadVectors(ctx context.Context, model string) (v *Vectors, missing int, err error)
	// VectorIDs lists, in id order, the chunks that have a vector for
	// model, without reading a vector; missing says how many have none.
	VectorIDs(ctx context.Context, model string) (ids []int64, missing int, err error)
	// VectorRows counts the chunks that have a vector for model.
	VectorRows(ctx context.Context, model string) (int, error)
	// MissingVectors counts the chunks that have no vector for model,
	// read from what the store holds now (a chunk with no text to embed
	// counts too): what the dense stage has left to do, and what an
	// ingest reports as without a vector.
	MissingVectors(ctx context.Context, model string) (int, error)
	// PruneEmbeddings deletes vectors no chunk uses any more and returns
	// how many went.
	PruneEmbeddings(ctx context.Context) (int64, error)
	// EmbeddingCounts returns how many vectors each model has.
	EmbeddingCounts(ctx context.Context) (map[string]int, error)
}

// GraphStore is a [VectorStore] that keeps the approximate vector graph
// the engine builds over its vectors, for the dense path to walk in the
// process. A store that searches its vectors itself ([VectorSearcher])
// needs none; without this role, the engine builds no graph and scans
// the vectors below the threshold as above it.
type GraphStore interface {
	// SaveGraph stores the approximate vector graph of model.
	SaveGraph(ctx context.Context, model string, vectors int, graph []byte) error
	// SaveHNSW stores g as the graph of model, as SaveGraph stores its
	// saved bytes, without holding a second copy of it in memory.
	SaveHNSW(ctx context.Context, model string, g *vector.HNSW) error
	// LoadGraph returns the stored graph of model, or nil when there is
	// none.
	LoadGraph(ctx context.Context, model string) ([]byte, error)
	// GraphReader streams the stored graph of model (nil when there is
	// none), from one state of the store; Close ends the read.
	GraphReader(ctx context.Context, model string) (io.ReadCloser, error)
	// DeleteGraph removes the stored graph of model.
	DeleteGraph(ctx context.Context, model string) error
}

// VectorSearcher is a [VectorStore] that searches its vectors itself (a
// cluster's own vector index): the dense path asks it for a question's
// nearest chunks instead of loading every vector into the process.
type VectorSearcher interface {
	// SearchVectors returns up to k chunks nearest to q by model's
	// vectors, best first, scored by cosine similarity. public leaves out
	// the chunks of notes players may not see now and f the chunks it does
	// not let through, both in the query itself, before anything is
	// ranked; when unsure whether a player may see a chunk, it is left
	// out.
	SearchVectors(ctx context.Context, model string, q []float32, k int, public bool, f Filter) ([]vector.Hit, error)
}

// TermCounter is a [KeywordSearcher] that tells how often analysed terms
// occur: the keyword path weighs the question's terms by them when it
// measures how much of the question a chunk's best paragraph holds
// ([github.com/oraculo/oraculo/retrieve.BM25]).
type TermCounter interface {
	// TermCounts returns, for each term, how many paragraphs hold it
	// (every note's, as the keyword search's own statistics count them),
	// and how many paragraphs there are.
	TermCounts(ctx context.Context, terms []string) (held []int64, paragraphs int64, err error)
}

// GraphMapper is a [GraphStore] that keeps its graphs also in files a
// search maps into memory ([vector.MapHNSW]) instead of decoding them: the
// vectors are not copied, and processes share their pages.
type GraphMapper interface {
	// MapGraph returns the stored graph of model, mapped read-only (nil
	// when there is none). An error means it could not be mapped; it can
	// still be read with GraphReader.
	MapGraph(ctx context.Context, model string) (*vector.HNSW, error)
}

// MentionReader follows entities into the chunks that name them.
type MentionReader interface {
	// MentionsOf lists the chunks naming each of the entities, by entity
	// id; public leaves out the chunks of notes players may not see now.
	MentionsOf(ctx context.Context, entityIDs []int64, public bool) (map[int64][]Mention, error)
}

// EntityStore keeps the compendium, once per scope ([ScopeDM],
// [ScopePlayer]), and where each entity is mentioned.
type EntityStore interface {
	MentionReader
	// Entities returns the compendium of a scope, by name, without
	// mentions; the players' compendium is empty while it is stale.
	Entities(ctx context.Context, scope string) ([]Entity, error)
	// EntityCount returns how many entities the compendium of a scope
	// holds.
	EntityCount(ctx context.Context, scope string) (int, error)
	// ReplaceEntities swaps the compendium of a scope for a new one, all
	// or none; replacing the players' compendium makes it fresh again.
	ReplaceEntities(ctx context.Context, scope string, ents []Entity) error
	// PlayersCompendiumStale reports whether the players' compendium must
	// not be served: a note it was built from has become DM-only since.
	PlayersCompendiumStale(ctx context.Context) (bool, error)
	// SyncCompendiumNotes lists, in path order, the notes whose facts are
	// not stored (new or changed since), drops the facts of notes gone,
	// and marks pending the notes whose visibility changed since their
	// mentions were stored; pending says whether any note is.
	SyncCompendiumNotes(ctx context.Context) (missing []int64, pending bool, err error)
	// NoteSourcesOf returns the notes with the given document ids
	// reassembled from their chunks, in path order.
	NoteSourcesOf(ctx context.Context, docIDs []int64) ([]NoteSource, error)
	// PutNoteFacts stores the facts of notes, pending (their mentions
	// are not stored yet); the compendium's sums are stale until
	// UpdateCompendiumSums adds the notes' (CompendiumChanges says so).
	PutNoteFacts(ctx context.Context, facts []NoteFacts) error
	// EachNoteFacts calls fn with the stored facts of every note, in path
	// order, without their lowercase words.
	EachNoteFacts(ctx context.Context, fn func(NoteFacts) error) error
	// EachNoteLower calls fn with the stored lowercase words of every
	// note, in no set order; lower is valid only until fn returns.
	EachNoteLower(ctx context.Context, fn func(restricted bool, lower []byte) error) error
	// UpdateCompendium runs fn in one transaction, committed when fn
	// returns nil.
	UpdateCompendium(ctx context.Context, fn func(CompendiumWriter) error) error
	// CompendiumChanges lists the notes whose part of the compendium's
	// sums changed (removed, or their visibility), with their facts.
	CompendiumChanges(ctx context.Context) (CompendiumChanges, error)
	// UpdateCompendiumSums changes the stored sums, in one transaction.
	UpdateCompendiumSums(ctx context.Context, up CompendiumSumsUpdate) error
	// EachCompendiumNote calls fn with every note whose facts are
	// stored, in path order, without its facts but its Structure.
	EachCompendiumNote(ctx context.Context, fn func(NoteFacts) error) error
	// CompendiumNames calls fn with the stored sums of the capitalised
	// sequences, over every note and over the DM-only notes (dmOnly).
	CompendiumNames(ctx context.Context, fn func(dmOnly bool, s NameSum) error) error
	// CompendiumLower returns the stored lowercase counts of words, over
	// every note and over the DM-only notes; a word not written is absent.
	CompendiumLower(ctx context.Context, words []string) (all, dmOnly map[string]int, err error)
}

// AnnotationStore keeps the one-or-two-sentence annotations of chunks,
// keyed by the hash of what was annotated, the model and the prompt's
// version.
type AnnotationStore interface {
	// PendingAnnotations lists, once per distinct text, the chunks that
	// have no annotation yet for model and prompt, in a stable order.
	PendingAnnotations(ctx context.Context, model, prompt string) ([]AnnotateJob, error)
	// PutAnnotation stores one annotation; an empty text is refused.
	PutAnnotation(ctx context.Context, model, prompt, hash, text string) error
	// Annotations returns the annotations of the given chunks, by chunk
	// id; chunks without one are absent.
	Annotations(ctx context.Context, model, prompt string, ids []int64) (map[int64]string, error)
	// PruneAnnotations deletes annotations no chunk uses any more and
	// returns how many went.
	PruneAnnotations(ctx context.Context) (int64, error)
	// AnnotationCounts returns how many annotations each model and prompt
	// version has, keyed "model prompt".
	AnnotationCounts(ctx context.Context) (map[string]int, error)
}

// Settings are the engine's stored settings, by key.
type Settings interface {
	// Meta returns a stored setting, or "" when it is unset.
	Meta(ctx context.Context, key string) (string, error)
	// SetMeta stores a setting.
	SetMeta(ctx context.Context, key, value string) error
}

// DocumentWriter holds the writes ingest does to notes.
type DocumentWriter interface {
	// DocumentStates returns the state of every note ingested from root,
	// by path.
	DocumentStates(ctx context.Context, root string) (map[string]DocumentState, error)
	// ReplaceDocument stores a note and its visibility, replacing any
	// earlier version, all or none: no reader ever sees the note without
	// its visibility, nor half of it.
	ReplaceDocument(ctx context.Context, d *DocumentRecord) error
	// ReplaceDocuments stores notes like ReplaceDocument, in order, in one
	// write: each note is stored whole or not at all, a crash included.
	// It returns how many notes it stored, always the first ones; when
	// that is fewer than len(ds), the error is that of the next note,
	// which names it (or, when no note is to blame, that of the write),
	// and the notes after it were not tried.
	ReplaceDocuments(ctx context.Context, ds []*DocumentRecord) (int, error)
	// DeleteDocument removes a note and everything derived from it.
	DeleteDocument(ctx context.Context, root, path string) error
	// Redecide decides every note's visibility again and stores meta, all
	// or none, and returns how many notes changed audience.
	Redecide(ctx context.Context, decide Decider, meta map[string]string) (int, error)
}

// LangCounter is a store that knows each note's language
// ([DocumentRecord.Lang]), kept or derived. The engine analyses a
// question in each language the notes have; when the store also searches
// by language ([BM25Options.Lang]), each language's notes are searched
// with the question analysed in that language, else the terms of every
// language are searched together. Without this role, the question is
// analysed in every language the index's setting allows.
type LangCounter interface {
	// NoteLangs counts the notes by the language they were analysed in.
	NoteLangs(ctx context.Context) (map[string]int, error)
	// SearchesByLang reports whether SearchParagraphs applies
	// [BM25Options.Lang].
	SearchesByLang() bool
}

// RootMover is a store that can give the notes of one folder to another,
// unchanged, ids included: an ingest of a vault that moved re-reads
// nothing. SQLite's index is one; a store that is not writes the moved
// vault's notes anew.
type RootMover interface {
	// MoveRoot makes the notes ingested from the folder from those of
	// the folder to, which holds none.
	MoveRoot(ctx context.Context, from, to string) error
}

// Store is everything the engine needs from the index stage.
type Store interface {
	ChunkReader
	Catalog
	KeywordSearcher
	ChunkFilter
	VectorStore
	EntityStore
	AnnotationStore
	Settings
	DocumentWriter
	MemoryStore
	// Path says where the store lives: a file, or an address.
	Path() string
	// Close releases the store.
	Close() error
}
