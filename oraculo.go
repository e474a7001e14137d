// Package oraculo is the engine behind Oráculo: it ingests a folder of
// notes into one index and answers questions about them, citing after
// every claim the note it comes from.
//
//	eng, err := oraculo.Open(ctx, ".oraculo/oraculo.db", oraculo.WithWarnings(log))
//	report, err := eng.Ingest(ctx, []string{"notes"}, oraculo.IngestOptions{})
//	hits, err := eng.Search(ctx, "¿qué pasó con el archiduque?", oraculo.SearchOptions{K: 8})
//	answer, err := eng.Ask(ctx, "¿qué pasó con el archiduque?", oraculo.AskOptions{})
//
// This package is a façade: it holds the engine's state (the index, the
// models given at [Open], the published snapshot) and composes the
// stages, which live in packages named after them, in the order data
// flows through them. A search or an answer reads one snapshot (package
// snapshot: the index's generation as searches read it) and passes it to
// every stage it calls:
//
//   - writing: ingest (the run: its options, lock and settings; walk,
//     read, decide visibility with package visibility, write), chunk
//     (sessions, sections, paragraphs), enrich (compendium, annotations,
//     embeddings with embed), dense (the dense index over vector: load,
//     graph, update, search), store (what the engine needs of an index,
//     in roles; storetest, the contract every backend passes), index (its
//     SQLite implementation) and store/weaviate (a cluster's, opened with
//     [OpenCluster]);
//   - answering: answer.Converse (follow-ups), query (filters and arcs
//     read from the question), retrieve (the BM25, dense and entity paths,
//     each restricted before ranking, and [Hit], the one candidate every
//     later stage reads), fuse (reciprocal rank fusion, explained per
//     candidate), rerank, answer (assemble the context, add long-term
//     memory, generate or extract, verify the citations, decide
//     abstention: the [Answer]);
//   - remembering: memory (who may see and change which entry, stale
//     entries, the entries an answer is shown);
//   - reading: notelink (the notes' names and links, a player's
//     redaction, chunk listings), summary (the index's counts).
//
// Shared rules live in text (folding, words, sentences, Markdown lines)
// and analysis (index terms, the notes' languages). Programs serve the
// engine through server (HTTP, the web page, the OpenAI-compatible
// endpoint), mcpserver and cmd/oraculo, importing of the module only this
// package, link (the links and the cited sentence every surface shows)
// and each other; eval measures it from outside.
package oraculo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/rerank"
	"github.com/oraculo/oraculo/snapshot"
	"github.com/oraculo/oraculo/store"
)

// DefaultDBPath is where the index lives when neither a flag nor
// $ORACULO_DB names it.
const DefaultDBPath = ".oraculo/oraculo.db"

// DefaultLang is the language notes are analysed in when nothing tells
// another (see [ingest.DefaultLang]).
const DefaultLang = ingest.DefaultLang

// LangAuto is the language setting under which each note's language is
// recognised (see [ingest.LangAuto]).
const LangAuto = ingest.LangAuto

// DBPath resolves the index path: the explicit one, else $ORACULO_DB, else
// DefaultDBPath.
func DBPath(explicit string) string {
	if explicit != "" {
		return explicit
	}
	if env := os.Getenv("ORACULO_DB"); env != "" {
		return env
	}
	return DefaultDBPath
}

// Settings are the corpus-wide choices stored in the index: every note is
// analysed and cut with them (see [ingest.Settings]).
type Settings = ingest.Settings

// Engine is an open index with the machinery to ingest and search it.
// Its methods are safe for concurrent use, except that one ingest at a time
// should run.
type Engine struct {
	idx store.Store

	// view is the snapshot searches read (see [Engine.snapshot]);
	// viewMu orders the publication of a new one.
	view   atomic.Pointer[snapshot.Snapshot]
	viewMu sync.Mutex

	mu sync.Mutex // guards the fields below
	// settings and analyzer are those the next ingest writes with; a
	// search reads its view's.
	settings Settings
	analyzer *analysis.Analyzer
	embedCfg embed.Config
	embedder embed.Embedder
	chatCfg  chat.Config
	chat     chat.Model
	reranker rerank.Reranker
	// warnTo receives warnings that do not stop an operation (see
	// [WithWarnings]); annMin is [WithANNThreshold]'s. Both are set
	// at Open and never change.
	warnTo func(string)
	annMin int
}

// ErrNotIndexed is returned by read operations on an index with no notes.
var ErrNotIndexed = errors.New("the index has no notes yet")

// Warn gives msg to the warning sink the engine was opened with
// ([WithWarnings]), if any: for a caller (a server) reporting a failure it
// does not show its client.
func (e *Engine) Warn(msg string) {
	if e.warnTo != nil {
		e.warnTo(msg)
	}
}

func (e *Engine) warn(format string, args ...any) { e.Warn(fmt.Sprintf(format, args...)) }

// Close closes the index.
func (e *Engine) Close() error { return e.idx.Close() }

// Settings returns the corpus settings in force.
func (e *Engine) Settings() Settings {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.settings
}

// DBPath returns the index file's path.
func (e *Engine) DBPath() string { return e.idx.Path() }

// loadSettings makes the settings stored in the index, changed by opts,
// those of the next ingest (see [ingest.Options.Settings]); searches read
// theirs from the index, through their snapshot.
func (e *Engine) loadSettings(ctx context.Context, opts ingest.Options) (Settings, error) {
	s, a, err := opts.Settings(ctx, e.idx)
	if err != nil {
		return s, err
	}
	e.mu.Lock()
	e.settings, e.analyzer = s, a
	e.mu.Unlock()
	return s, nil
}

// bumpGeneration records that the index changed (see
// [snapshot.NewGeneration]) and drops this engine's snapshot.
func (e *Engine) bumpGeneration(ctx context.Context) error {
	if err := snapshot.NewGeneration(ctx, e.idx); err != nil {
		return err
	}
	e.invalidate()
	return nil
}

// Embedder returns the embedder in use, or nil.
func (e *Engine) Embedder() embed.Embedder {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.embedder
}

// ChatModel returns the chat model in use, or nil.
func (e *Engine) ChatModel() chat.Model {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.chat
}

// denseOptions are the dense index's settings (see [WithANNThreshold]).
func (e *Engine) denseOptions() dense.Options { return dense.Options{Threshold: e.annMin} }

// snapshot returns the snapshot of the index's current generation (see
// package snapshot), publishing a new one when the generation changed
// since the last (another process's ingest included) or the last was
// dropped. A search or an answer reads it once and passes it on.
func (e *Engine) snapshot(ctx context.Context) (*snapshot.Snapshot, error) {
	gen, err := snapshot.Generation(ctx, e.idx)
	if err != nil {
		return nil, err
	}
	if v := e.view.Load(); v != nil && v.Generation == gen {
		return v, nil
	}
	e.viewMu.Lock()
	defer e.viewMu.Unlock()
	if v := e.view.Load(); v != nil && v.Generation == gen {
		return v, nil
	}
	v, err := snapshot.Open(ctx, e.idx, gen, e.Embedder(), snapshot.Options{Dense: e.denseOptions(), Warn: e.Warn})
	if err != nil {
		return nil, err
	}
	e.view.Store(v)
	return v, nil
}

// invalidate drops the published snapshot: the next search makes a new
// one. Called when what a snapshot holds changed without a new generation
// (a new embedder, a compendium or visibility decisions written by this
// engine).
func (e *Engine) invalidate() {
	e.view.Store(nil)
}
