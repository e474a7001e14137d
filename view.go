package oraculo

import (
	"context"
	"fmt"
	"strconv"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/internal/lazy"
	"github.com/oraculo/oraculo/memory"
	"github.com/oraculo/oraculo/notelink"
)

// view is what searches read of one index generation: the corpus settings
// and analyser, the embedder in use, and the state loaded from the index
// (vectors, compendiums, DM-only chunks, session numbers). A view is
// published through an atomic pointer and never changes once published:
// each loaded part is built once, outside any engine-wide lock, by the
// first search that needs it, while searches needing other parts go on.
// A new generation (an ingest here or in another process), a new embedder
// or new visibility decisions publish a fresh view; searches that hold the
// old one finish with it.
type view struct {
	engine     *Engine
	generation string
	settings   Settings
	analyzer   *analysis.Analyzer
	embedder   embed.Embedder
	// langs are the analysers of the notes' languages, the most notes'
	// first (analyzer is then langs[0]); byLang, that the store searches
	// each language's notes apart ([store.LangCounter]).
	langs  []*analysis.Analyzer
	byLang bool

	dense      lazy.Value[*dense.Index]
	entities   [2]lazy.Value[*compendium.State] // the DM's compendium, the players'
	restricted lazy.Value[map[int64]bool]
	sessions   [2]lazy.Value[[]int]               // every session, the players' only
	notes      [2]lazy.Value[*notelink.Directory] // every note's names, the players' only

	// memTerms holds the terms of the memory entries the last answer
	// listed (see Engine.answerMemory).
	memTerms memory.TermCache
}

// scopeIndex is 1 for a player's view of the index, else 0.
func scopeIndex(player bool) int {
	if player {
		return 1
	}
	return 0
}

// snapshot returns the view of the index's current generation, publishing
// a new one when the generation changed since the last (another process's
// ingest included) or the last was dropped.
func (e *Engine) snapshot(ctx context.Context) (*view, error) {
	if v, ok := ctx.Value(viewKey{}).(*view); ok && v.engine == e {
		return v, nil
	}
	gen, err := e.idx.Meta(ctx, "generation")
	if err != nil {
		return nil, err
	}
	if v := e.view.Load(); v != nil && v.generation == gen {
		return v, nil
	}
	e.viewMu.Lock()
	defer e.viewMu.Unlock()
	if v := e.view.Load(); v != nil && v.generation == gen {
		return v, nil
	}
	s, a, err := e.readSettings(ctx)
	if err != nil {
		return nil, err
	}
	v := &view{engine: e, generation: gen, settings: s, analyzer: a, embedder: e.Embedder()}
	if err := e.readLangs(ctx, v); err != nil {
		return nil, err
	}
	e.view.Store(v)
	return v, nil
}

// viewKey is the context key of the view one search or answer reads
// throughout: the index's generation is read once per call, not once per
// stage.
type viewKey struct{}

// withView makes every stage called with the returned context read v.
func withView(ctx context.Context, v *view) context.Context {
	return context.WithValue(ctx, viewKey{}, v)
}

// invalidate drops the published view: the next search builds a new one.
// Called when what a view holds changed without a new generation (a new
// embedder, a compendium or visibility decisions written by this engine).
func (e *Engine) invalidate() {
	e.view.Store(nil)
}

// readSettings reads the corpus settings stored in the index (defaults for
// those never stored) and the analyser they call for.
func (e *Engine) readSettings(ctx context.Context) (Settings, *analysis.Analyzer, error) {
	s := Settings{Lang: LangAuto, MaxWords: chunk.DefaultMaxWords, OverlapWords: chunk.DefaultOverlapWords}
	if v, err := e.idx.Meta(ctx, "lang"); err != nil {
		return s, nil, err
	} else if v != "" {
		s.Lang = v
	}
	// "es" stored before each note's language was recognised was the
	// default, never told apart from a choice: it means each note's now
	// (SQLite's schema 14 rewrites it; a store without migrations, such
	// as Weaviate, is read so). A language chosen since says so.
	if s.Lang == "es" {
		if chosen, err := e.idx.Meta(ctx, langChosenKey); err != nil {
			return s, nil, err
		} else if chosen == "" {
			s.Lang = LangAuto
		}
	}
	for key, dst := range map[string]*int{"max_words": &s.MaxWords, "overlap_words": &s.OverlapWords} {
		v, err := e.idx.Meta(ctx, key)
		if err != nil {
			return s, nil, err
		}
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return s, nil, fmt.Errorf("index setting %q is %q, not a number", key, v)
		}
		*dst = n
	}
	return checkSettings(s)
}

// checkSettings validates settings and makes their analyser.
func checkSettings(s Settings) (Settings, *analysis.Analyzer, error) {
	if s.MaxWords < 1 {
		return s, nil, fmt.Errorf("max words must be at least 1, got %d", s.MaxWords)
	}
	if s.OverlapWords < 0 || s.OverlapWords >= s.MaxWords {
		return s, nil, fmt.Errorf("overlap words must be between 0 and max words - 1 (%d), got %d", s.MaxWords-1, s.OverlapWords)
	}
	if isAuto(s.Lang) {
		// The analyser of the notes' main language, until a view
		// counts them: Spanish.
		a, err := analysis.New(DefaultLang)
		s.Lang = LangAuto
		return s, a, err
	}
	a, err := analysis.New(s.Lang)
	if err != nil {
		return s, nil, err
	}
	s.Lang = a.Lang()
	return s, a, nil
}

// denseOf returns the view's dense-path state (nil when there is no
// embedder or no vector for it), loading it on first use; the warnings of
// the load are given once, after it, outside every lock.
func (e *Engine) denseOf(ctx context.Context, v *view) (*dense.Index, error) {
	var warnings []string
	ix, _, err := v.dense.Get(func() (*dense.Index, error) {
		ix, w, err := dense.Load(ctx, e.idx, v.embedder, e.denseOptions())
		warnings = w
		return ix, err
	})
	for _, w := range warnings {
		e.warn("%s", w)
	}
	return ix, err
}

// entitiesOf returns the compendium the caller may see, with its matcher.
func (e *Engine) entitiesOf(ctx context.Context, v *view) (*compendium.State, error) {
	player := isPlayer(ctx)
	st, _, err := v.entities[scopeIndex(player)].Get(func() (*compendium.State, error) {
		return compendium.Load(ctx, e.idx, player)
	})
	return st, err
}

// restrictedOf returns the ids of DM-only chunks.
func (e *Engine) restrictedOf(ctx context.Context, v *view) (map[int64]bool, error) {
	r, _, err := v.restricted.Get(func() (map[int64]bool, error) {
		return e.idx.RestrictedChunks(ctx)
	})
	return r, err
}

// sessionsOf returns the session numbers the caller may see.
func (e *Engine) sessionsOf(ctx context.Context, v *view) ([]int, error) {
	public := isPlayer(ctx)
	s, _, err := v.sessions[scopeIndex(public)].Get(func() ([]int, error) {
		return e.idx.Sessions(ctx, public)
	})
	return s, err
}
