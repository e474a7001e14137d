// Package snapshot is what searches read of one generation of an index:
// its corpus settings and the analysers of its notes' languages, the
// embedder in use, and the state loaded from the store (the dense index,
// the compendiums, the DM-only chunks, the session numbers, the notes'
// names), each loaded once, by the first search that needs it.
//
// A snapshot never changes once made: the engine makes a new one when
// the index's generation changes (an ingest, here or in another process),
// or its embedder or visibility decisions do, and passes it by value to
// every stage one search or answer calls, so that they all read the same
// generation. Searches that hold an old snapshot finish with it.
//
// It guarantees that what a player is given of it (entities, sessions,
// names) is loaded apart from the DM's, from what players may see.
package snapshot

import (
	"context"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/lazy"
	"github.com/oraculo/oraculo/memory"
	"github.com/oraculo/oraculo/notelink"
	"github.com/oraculo/oraculo/store"
)

// Snapshot is one generation of an index as searches read it. Its
// exported fields are set by [Open] and never change.
type Snapshot struct {
	Generation string
	Settings   ingest.Settings
	// Analyzer is the analyser of the notes' main language; Langs those
	// of every language they hold, the most notes' first (Analyzer is
	// then Langs[0]); ByLang, that the store searches each language's
	// notes apart ([store.LangCounter]).
	Analyzer *analysis.Analyzer
	Langs    []*analysis.Analyzer
	ByLang   bool
	Embedder embed.Embedder
	// MemTerms holds the terms of the memory entries the last answer
	// listed (see [memory.Book.ForAnswer]).
	MemTerms memory.TermCache

	store store.Store
	opts  Options

	dense      lazy.Value[*dense.Index]
	entities   [2]lazy.Value[*compendium.State] // the DM's compendium, the players'
	restricted lazy.Value[map[int64]bool]
	sessions   [2]lazy.Value[[]int]               // every session, the players' only
	notes      [2]lazy.Value[*notelink.Directory] // every note's names, the players' only
}

// Options are what a snapshot loads its dense index with.
type Options struct {
	Dense dense.Options
	// Warn receives the warnings of loading the dense index (a stale
	// graph), once, outside every lock.
	Warn func(string)
}

// Open reads generation's settings and languages from s: the snapshot a
// search of that generation reads, searching with em.
func Open(ctx context.Context, s store.Store, generation string, em embed.Embedder, o Options) (*Snapshot, error) {
	settings, a, err := ingest.ReadSettings(ctx, s)
	if err != nil {
		return nil, err
	}
	v := &Snapshot{Generation: generation, Settings: settings, Analyzer: a, Embedder: em, store: s, opts: o}
	return v, v.readLangs(ctx)
}

// readLangs sets the analysers of the notes' languages from the store's
// counts (see [analysis.ForNotes]). A store that does not keep each
// note's language searches with the setting's language, or every
// language under [ingest.LangAuto].
func (v *Snapshot) readLangs(ctx context.Context) error {
	counter, ok := v.store.(store.LangCounter)
	if !ok {
		v.Langs = []*analysis.Analyzer{v.Analyzer}
		if v.Settings.Lang == ingest.LangAuto {
			v.Langs = analysis.All()
		}
		return nil
	}
	counts, err := counter.NoteLangs(ctx)
	if err != nil {
		return err
	}
	v.ByLang = counter.SearchesByLang()
	v.Langs = analysis.ForNotes(counts, v.Analyzer)
	v.Analyzer = v.Langs[0]
	return nil
}

// QuestionAnalyzer is the analyser of a question's language when the
// notes hold that language, else that of the notes' main language (see
// [analysis.ForQuestion]).
func (v *Snapshot) QuestionAnalyzer(question string) *analysis.Analyzer {
	return analysis.ForQuestion(question, v.Langs, v.Analyzer)
}

// QuestionLang is the language of a question for the uses that read the
// question alone (is it in the first person plural?): the notes' one
// language, or the question's own when they hold several.
func (v *Snapshot) QuestionLang(question string) string {
	return v.QuestionAnalyzer(question).Lang()
}
