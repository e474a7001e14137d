package ingest

import (
	"context"
	"fmt"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/store"
)

// Options tune one ingest run. Zero values keep the index's stored
// settings (or the defaults for a new index).
type Options struct {
	// Lang is the notes' language: "auto" (each note's own, recognised;
	// the default of a new index), "es" or "en" (every note in it); ""
	// keeps the index's. Changing it re-analyses every note.
	Lang string
	// MaxWords and OverlapWords are the chunking cap and window overlap.
	// Changing them re-chunks every note.
	MaxWords     int
	OverlapWords int
	// OverlapSet makes OverlapWords count even when it is zero.
	OverlapSet bool
	// MaxFileBytes is the largest file read (default [DefaultMaxBytes]).
	MaxFileBytes int64
	// Workers is how many files are read and chunked at once (default: CPUs).
	Workers int
	// Progress, when set, is called after each file, and as each later
	// stage advances.
	Progress func(StageProgress)
	// AnnotateWorkers is how many chunks the chat model annotates at once
	// (default 2).
	AnnotateWorkers int
	// SecretFolders are the folders whose notes are DM-only, matched at
	// any depth whatever the case and accents (see package visibility for
	// the other ways a note is DM-only). Nil keeps the index's (the
	// engine's default for a new one); SecretFoldersSet makes an empty
	// list count (no folder). A new list re-decides every stored note, in
	// one transaction, before the ingest writes anything else.
	SecretFolders    []string
	SecretFoldersSet bool
	// FollowLinksOutside lets a symlink among the notes lead to a file
	// outside every ingested folder (by default such a link is skipped, as
	// "link-outside-notes"; see [Bounds.FollowOutside]). The index's own
	// files are never read, with it or without it.
	FollowLinksOutside bool
	// IncludeTemplates indexes an Obsidian vault's templates folder,
	// which an ingest leaves out by default, and IncludeExcluded the notes
	// its "Excluded files" match (see [ReadVault]). Neither is stored in
	// the index: an ingest without them removes those notes again.
	IncludeTemplates, IncludeExcluded bool
	// PrivateFiles are more files never to read as notes, besides the
	// index's own that the engine knows (the index, its journal, link key
	// and graphs, and the tokens and chat history beside it: see
	// [Job.IndexFile]): the tokens file or chat history a program keeps
	// elsewhere, say. A folder stands for everything under it.
	PrivateFiles []string
	// NoWait makes an ingest fail with [ErrRunning], saying who runs it,
	// when another ingest of the index is running; by default it waits
	// for it, said once to OnWait (else the warning sink).
	NoWait bool
	OnWait func(Holder)
}

// Vault is what the options override of a vault's own exclusions.
func (o Options) Vault() VaultOptions {
	return VaultOptions{IncludeTemplates: o.IncludeTemplates, IncludeExcluded: o.IncludeExcluded}
}

// Validate checks the explicit choices in o without touching an index,
// so that a typo fails before any file is created. The chunking cap and
// overlap follow the rule [Settings.Check] applies to the stored ones.
func (o Options) Validate() error {
	if o.Lang != "" && !analysis.IsAuto(o.Lang) {
		if _, err := analysis.New(o.Lang); err != nil {
			return fmt.Errorf("%w, or %q to recognise each note's language", err, LangAuto)
		}
	}
	if o.MaxWords < 0 {
		return checkWords(o.MaxWords, 0)
	}
	if o.OverlapWords < 0 {
		return fmt.Errorf("overlap words cannot be negative, got %d", o.OverlapWords)
	}
	if o.MaxWords > 0 && (o.OverlapWords != 0 || o.OverlapSet) {
		return checkWords(o.MaxWords, o.OverlapWords)
	}
	return nil
}

// Settings returns the settings an ingest with o writes with: those
// stored in m now (another process may have changed them), changed by o,
// checked, with the analyser they call for.
func (o Options) Settings(ctx context.Context, m store.Settings) (Settings, *analysis.Analyzer, error) {
	s, _, err := ReadSettings(ctx, m)
	if err != nil {
		return s, nil, err
	}
	s, a, err := s.changed(o).Check()
	if err != nil {
		return s, nil, fmt.Errorf("ingest: %w", err)
	}
	return s, a, nil
}

// Lock takes the ingest lock of the index file index (see [Lock]), failing
// when another ingest holds it if NoWait, else waiting, said once to
// OnWait, else to warn. A store other than an index file ("") is not
// locked.
func (o Options) Lock(ctx context.Context, index string, warn func(string)) (release func(), err error) {
	if index == "" {
		return func() {}, nil
	}
	onWait := o.OnWait
	if onWait == nil {
		onWait = func(h Holder) {
			warn(fmt.Sprintf("waiting for another ingest of %q to end: %s holds it", index, h))
		}
	}
	return Lock(ctx, index, o.NoWait, onWait)
}
