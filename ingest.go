package oraculo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/visibility"
)

// IngestOptions tune one ingest run. Zero values keep the index's stored
// settings (or the defaults for a new index).
type IngestOptions struct {
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
	// MaxFileBytes is the largest file read (default ingest.DefaultMaxBytes).
	MaxFileBytes int64
	// Workers is how many files are read and chunked at once (default: CPUs).
	Workers int
	// Progress, when set, is called after each file.
	Progress func(Progress)
	// AnnotateWorkers is how many chunks the chat model annotates at once
	// (default 2).
	AnnotateWorkers int
	// SecretFolders are the folders whose notes are DM-only, matched at
	// any depth whatever the case and accents (see package visibility for
	// the other ways a note is DM-only). Nil keeps the index's
	// (DefaultSecretFolders for a new one); SecretFoldersSet makes an empty
	// list count (no folder). A new list re-decides every stored note, in
	// one transaction, before the ingest writes anything else.
	SecretFolders    []string
	SecretFoldersSet bool
	// FollowLinksOutside lets a symlink among the notes lead to a file
	// outside every ingested folder (by default such a link is skipped, as
	// "link-outside-notes"). The index's own files are never read, with it
	// or without it.
	FollowLinksOutside bool
	// PrivateFiles are more files never to read as notes, besides the
	// index's own that the engine knows (the index, its journal, link key
	// and graphs, and the tokens and chat history beside it): the tokens
	// file or chat history a program keeps elsewhere, say. A folder stands
	// for everything under it.
	PrivateFiles []string
	// NoWait makes an ingest fail with ErrIngestRunning, saying who runs
	// it, when another ingest of the index is running; by default it
	// waits for it, said once to OnWait (else the warning sink).
	NoWait bool
	OnWait func(IngestHolder)
}

// Progress reports an ingest's advance.
type Progress struct {
	// Stage is "read" while notes are read and indexed, "compendium" while
	// the compendium is built and its mentions found, "embed" while the
	// dense path's vectors are computed, "graph" while the vector graph is
	// built, "annotate" while the chat model describes chunks.
	Stage string
	Root  string
	Done  int
	Total int
	Bytes int64
	Path  string
	// Pages is how many pages of paged documents (PDF) were read so far.
	Pages int
}

// Problem is a file that was skipped, repaired or ingested with a warning,
// or a warning of a later stage.
type Problem = ingest.Problem

// IngestReport summarises an ingest run.
type IngestReport struct {
	Roots []string `json:"roots"`
	// Files is how many note files were found.
	Files int `json:"files"`
	// Indexed were new or changed and were (re)written.
	Indexed int `json:"indexed"`
	// Unchanged were found identical to the stored version and not touched.
	Unchanged int `json:"unchanged"`
	// Deleted left the index because their files are gone.
	Deleted int `json:"deleted"`
	// Bytes is the size of the files read.
	Bytes int64 `json:"bytes"`
	// Skipped files, with the reason; Repaired and Warnings did get in.
	Skipped  []Problem `json:"skipped"`
	Repaired []Problem `json:"repaired"`
	Warnings []Problem `json:"warnings"`
	// NewChunks is how many chunks this run wrote.
	NewChunks int `json:"new_chunks"`
	// Documents counts the documents besides notes this run read (new or
	// changed), by format ("pdf", "docx", "odt", "html", "epub"), and
	// Pages the pages of the paged ones.
	Documents map[string]int `json:"documents,omitempty"`
	Pages     int            `json:"pages,omitempty"`
	// Entities is how many entities the DM's compendium holds.
	Entities int `json:"entities"`
	// Embed says what was done for the dense path (nil without embedder).
	Embed *EmbedReport `json:"embed,omitempty"`
	// Annotate says what was done for annotations (nil without a chat
	// model).
	Annotate *AnnotateReport `json:"annotate,omitempty"`
	// SecretFolders are the folders whose notes are DM-only.
	SecretFolders []string `json:"secret_folders"`
	// FollowLinksOutside is set when symlinks were followed outside the
	// ingested folders (IngestOptions.FollowLinksOutside).
	FollowLinksOutside bool `json:"follow_links_outside,omitempty"`
	// Totals in the index after the run.
	Stats    store.Stats `json:"stats"`
	Settings Settings    `json:"settings"`
	Elapsed  Duration    `json:"elapsed_seconds"`
}

// Duration marshals as seconds.
type Duration time.Duration

// MarshalJSON implements json.Marshaler.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(strconv.FormatFloat(time.Duration(d).Seconds(), 'f', 3, 64)), nil
}

// ValidateIngestOptions checks the explicit choices in opts without touching
// an index, so that a typo fails before any file is created.
func ValidateIngestOptions(opts IngestOptions) error {
	if opts.Lang != "" && !isAuto(opts.Lang) {
		if _, err := analysis.New(opts.Lang); err != nil {
			return fmt.Errorf("%w, or %q to recognise each note's language", err, LangAuto)
		}
	}
	if opts.MaxWords < 0 {
		return fmt.Errorf("max words must be at least 1, got %d", opts.MaxWords)
	}
	if opts.OverlapWords < 0 {
		return fmt.Errorf("overlap words cannot be negative, got %d", opts.OverlapWords)
	}
	if opts.MaxWords > 0 && (opts.OverlapWords != 0 || opts.OverlapSet) && opts.OverlapWords >= opts.MaxWords {
		return fmt.Errorf("overlap words must be between 0 and max words - 1 (%d), got %d", opts.MaxWords-1, opts.OverlapWords)
	}
	return nil
}

// Ingest reads every note under the folders and brings the index up to
// date: new and changed notes are (re)written, each in its own transaction,
// unchanged ones are left alone, and notes whose files are gone are removed.
// An interrupted run leaves a consistent index that the next run completes.
func (e *Engine) Ingest(ctx context.Context, dirs []string, opts IngestOptions) (*IngestReport, error) {
	start := time.Now()
	if len(dirs) == 0 {
		return nil, fmt.Errorf("ingest: no folder given")
	}
	if err := e.ReadOnly(); err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	// One ingest of an index at a time, across processes: the next one
	// reads what this one wrote, and finds its files unchanged.
	release, err := e.lockIngest(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer release()
	// Who may see what is settled first: a new list of secret folders
	// applies to every stored note before any note is written.
	folders, err := e.secretFolders(ctx, opts)
	if err != nil {
		return nil, err
	}
	rules, err := e.settleVisibility(ctx, folders)
	if err != nil {
		return nil, err
	}
	if err := e.applyIngestSettings(ctx, opts); err != nil {
		return nil, err
	}
	roots, warnings, err := e.ingestRoots(ctx, dirs)
	if err != nil {
		return nil, err
	}
	rep := &IngestReport{Roots: roots, Settings: e.settings, SecretFolders: folders, Warnings: warnings, FollowLinksOutside: opts.FollowLinksOutside}
	fence, err := e.ingestFence(ctx, roots, opts)
	if err != nil {
		return nil, err
	}
	for _, root := range roots {
		if err := e.ingestRoot(ctx, root, rules, fence, opts, rep); err != nil {
			return rep, err
		}
	}
	// The notes' visibility and sessions changed: searches load them again.
	e.invalidate()
	if err := e.buildCompendium(ctx, roots, opts, rep); err != nil {
		return rep, err
	}
	if e.Embedder() != nil {
		if err := e.ingestEmbeddings(ctx, opts, rep); err != nil {
			return rep, err
		}
	}
	if e.ChatModel() != nil {
		if err := e.ingestAnnotations(ctx, opts, rep); err != nil {
			return rep, err
		}
	}
	if err := e.finishIngest(ctx, rep); err != nil {
		return rep, err
	}
	rep.Elapsed = Duration(time.Since(start))
	return rep, nil
}

// applyIngestSettings makes the settings stored now (another process may
// have changed them), changed by the options, those the ingest writes
// with, and stores them. Searches read their own view's settings, never
// these.
func (e *Engine) applyIngestSettings(ctx context.Context, opts IngestOptions) error {
	s, _, err := e.readSettings(ctx)
	if err != nil {
		return err
	}
	if opts.Lang != "" {
		s.Lang = opts.Lang
	}
	if opts.MaxWords != 0 {
		s.MaxWords = opts.MaxWords
	}
	switch {
	case opts.OverlapWords != 0 || opts.OverlapSet:
		s.OverlapWords = opts.OverlapWords
	case opts.MaxWords != 0:
		// A new cap without an overlap: keep the seed's ratio (120 of 1200).
		s.OverlapWords = opts.MaxWords / 10
	}
	if err := e.apply(s); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	return e.saveSettings(ctx)
}

// ingestRoots resolves the folders of an ingest, refuses folders that lie
// inside one another, and warns of each that overlaps a folder ingested
// before.
func (e *Engine) ingestRoots(ctx context.Context, dirs []string) ([]string, []Problem, error) {
	roots := make([]string, len(dirs))
	for i, d := range dirs {
		r, err := absRoot(d)
		if err != nil {
			return nil, nil, err
		}
		roots[i] = r
	}
	known, err := e.idx.Roots(ctx)
	if err != nil {
		return nil, nil, err
	}
	known, warnings, err := e.adoptMovedRoots(ctx, roots, known)
	if err != nil {
		return nil, nil, err
	}
	overlaps, err := overlappingRoots(roots, known)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range overlaps {
		warnings = append(warnings, Problem{Root: w[0], Reason: "warning", Detail: fmt.Sprintf(
			"%q and %q, ingested earlier, overlap: the notes they share are indexed once per folder; ingest one folder that holds all your notes into a fresh index", w[0], w[1])})
	}
	return roots, warnings, nil
}

// ingestFence bounds what an ingest of roots reads: symlinks followed
// only into the folders of the index (these and those ingested before),
// unless opts says otherwise, and never to the index's own files.
func (e *Engine) ingestFence(ctx context.Context, roots []string, opts IngestOptions) (*ingest.Fence, error) {
	known, err := e.idx.Roots(ctx)
	if err != nil {
		return nil, err
	}
	b := ingest.Bounds{Roots: append(slices.Clone(roots), known...), FollowOutside: opts.FollowLinksOutside}
	if _, local := e.idx.(*index.Index); local {
		b.Private = indexFiles(e.idx.Path(), b.Roots)
	}
	b.Private = append(b.Private, opts.PrivateFiles...)
	return ingest.NewFence(b), nil
}

// indexFiles are the files an index at db keeps, never to be read as
// notes: the index (and the files named after it: its journal, link key
// and graphs), and the tokens and chat history beside it; and the whole
// folder the index lies in, unless a folder of notes lies in it (an index
// kept in the vault's root, say), which would refuse every note.
func indexFiles(db string, roots []string) []string {
	db, err := filepath.Abs(db)
	if err != nil {
		return nil
	}
	dir := filepath.Dir(db)
	files := []string{db, filepath.Join(dir, "tokens.yaml"), filepath.Join(dir, "chat_history"), filepath.Join(dir, "chat_history_"+RolePlayer)}
	real, err := absRoot(dir)
	if err != nil {
		return files
	}
	for _, r := range roots { // resolved, as absRoot makes them
		if r == real || strings.HasPrefix(r, strings.TrimSuffix(real, string(filepath.Separator))+string(filepath.Separator)) {
			return files
		}
	}
	return append(files, dir)
}

// adoptMovedRoots gives a folder of this ingest that holds no notes yet
// the notes of a folder ingested before that no longer exists, when it
// holds them (see [ingest.Holds]): the vault moved, and its notes keep
// their ids, vectors and annotations. It returns the folders known then,
// and a warning for each move. A store that cannot move notes (see
// [store.RootMover]) writes them anew, under the same ids.
func (e *Engine) adoptMovedRoots(ctx context.Context, roots, known []string) ([]string, []Problem, error) {
	mover, ok := e.idx.(store.RootMover)
	if !ok {
		return known, nil, nil
	}
	var moved []Problem
	for _, to := range roots {
		if slices.Contains(known, to) {
			continue
		}
		for i, from := range known {
			if _, err := os.Stat(from); slices.Contains(roots, from) || !errors.Is(err, fs.ErrNotExist) {
				continue
			}
			states, err := e.idx.DocumentStates(ctx, from)
			if err != nil {
				return nil, nil, err
			}
			if !ingest.Holds(to, states) {
				continue
			}
			if err := mover.MoveRoot(ctx, from, to); err != nil {
				return nil, nil, fmt.Errorf("ingest: %w", err)
			}
			known[i] = to
			moved = append(moved, Problem{Root: to, Reason: "moved", Detail: fmt.Sprintf(
				"%q, ingested earlier, no longer exists and %q holds its notes: the vault moved; its notes keep their ids", from, to)})
			break
		}
	}
	return known, moved, nil
}

// finishIngest remembers a model the ingest was told to do without, counts
// what the index holds, and tells every engine serving the index.
func (e *Engine) finishIngest(ctx context.Context, rep *IngestReport) error {
	// An ingest told "none" remembers it: later commands run without the
	// model until an ingest names one again.
	e.mu.Lock()
	embedCfg, chatCfg := e.embedCfg, e.chatCfg
	e.mu.Unlock()
	if embedCfg.Provider == ProviderNone {
		if err := e.saveEmbedderConfig(ctx, embedCfg); err != nil {
			return err
		}
	}
	if chatCfg.Provider == ProviderNone {
		if err := e.saveChatConfig(ctx, chatCfg); err != nil {
			return err
		}
	}
	st, err := e.idx.Stats(ctx)
	if err != nil {
		return err
	}
	rep.Stats = st
	// Other processes serving this index (oraculo serve) see the new
	// generation and drop their caches.
	return e.bumpGeneration(ctx)
}

// ingestEmbeddings brings the dense path's vectors up to date (see
// [dense.Update]). A server that fails is a warning, not an error: the
// notes are in, BM25 works, and the next run embeds what is left.
func (e *Engine) ingestEmbeddings(ctx context.Context, opts IngestOptions, rep *IngestReport) error {
	if err := e.saveEmbedderConfig(ctx, e.embedCfg); err != nil {
		return err
	}
	var progress func(stage string, done, total int)
	if opts.Progress != nil {
		progress = func(stage string, done, total int) { opts.Progress(Progress{Stage: stage, Done: done, Total: total}) }
	}
	r, err := dense.Update(ctx, e.idx, e.Embedder(), e.denseOptions(), progress)
	if r.Built {
		e.invalidate()
	}
	if r.Warning != "" {
		rep.Warnings = append(rep.Warnings, Problem{Reason: "embed", Detail: r.Warning})
	}
	if r.Embed != nil {
		rep.Embed = r.Embed
	}
	return err
}

// ingestRoot brings the notes of one folder up to date (see
// [ingest.Update]) and adds what it did to rep, also when it fails.
func (e *Engine) ingestRoot(ctx context.Context, root string, rules visibility.Rules, fence *ingest.Fence, opts IngestOptions, rep *IngestReport) error {
	cfg := ingest.Config{
		Stamp:    e.stamp(),
		Chunking: chunk.Options{MaxWords: e.settings.MaxWords, OverlapWords: e.settings.OverlapWords, Lang: e.analyzer.Lang()},
		Terms:    e.analyzer.Terms,
		Detect:   e.noteLang(),
		Langs:    e.langAnalyses(),
		Decide:   func(r store.VisibilityRecord) visibility.Decision { return decideStored(rules, r) },
		Fence:    fence,
		Workers:  opts.Workers,
		MaxBytes: opts.MaxFileBytes,
	}
	if opts.Progress != nil {
		before, pages := rep.Bytes, rep.Pages // progress counts the bytes and pages of every folder
		cfg.Progress = func(p ingest.Progress) {
			opts.Progress(Progress{Stage: "read", Root: root, Done: p.Done, Total: p.Total, Bytes: before + p.Bytes, Path: p.Path, Pages: pages + p.Pages})
		}
	}
	res, err := ingest.Update(ctx, e.idx, root, cfg)
	rep.add(res)
	return err
}

// add counts what one folder's update did.
func (r *IngestReport) add(res *ingest.Result) {
	if res == nil {
		return
	}
	r.Files += res.Files
	r.Indexed += res.Indexed
	r.Unchanged += res.Unchanged
	r.Deleted += res.Deleted
	r.Bytes += res.Bytes
	r.NewChunks += res.NewChunks
	r.Pages += res.Pages
	for k, n := range res.Documents {
		if r.Documents == nil {
			r.Documents = map[string]int{}
		}
		r.Documents[k] += n
	}
	r.Skipped = append(r.Skipped, res.Skipped...)
	r.Repaired = append(r.Repaired, res.Repaired...)
	r.Warnings = append(r.Warnings, res.Warnings...)
}

// overlappingRoots refuses folders of one ingest that lie inside one
// another (their shared notes would be indexed twice), and returns the
// pairs (new, earlier) where a folder overlaps one ingested before.
func overlappingRoots(roots, known []string) ([][2]string, error) {
	inside := func(a, b string) bool { // a is b or lies under b
		return a == b || strings.HasPrefix(a, strings.TrimSuffix(b, string(filepath.Separator))+string(filepath.Separator))
	}
	for _, a := range roots {
		for _, b := range roots {
			if a != b && inside(a, b) {
				return nil, fmt.Errorf("ingest: %q lies inside %q: its notes would be indexed twice; give only %q", a, b, b)
			}
		}
	}
	var out [][2]string
	for _, a := range roots {
		for _, b := range known {
			if a != b && (inside(a, b) || inside(b, a)) {
				out = append(out, [2]string{a, b})
			}
		}
	}
	return out, nil
}
