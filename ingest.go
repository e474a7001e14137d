package oraculo

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/enrich"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/ingest"
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

// Progress reports an ingest's advance: its stage ("read", "compendium",
// "embed", "graph", "annotate"), the folder and file being read, how many
// of how many are done (see [ingest.StageProgress]).
type Progress = ingest.StageProgress

// Problem is a file that was skipped, repaired or ingested with a warning,
// or a warning of a later stage.
type Problem = ingest.Problem

// AnnotateReport says what an ingest did for annotations.
type AnnotateReport = enrich.AnnotateReport

// IngestReport summarises an ingest run: what it found, wrote, skipped and
// warned of, stage by stage (see [ingest.Report]), the settings it wrote
// with, and how long it took.
type IngestReport struct {
	ingest.Report
	Settings Settings `json:"settings"`
	Elapsed  Duration `json:"elapsed_seconds"`
}

// Duration marshals as seconds.
type Duration time.Duration

// MarshalJSON implements json.Marshaler.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(strconv.FormatFloat(time.Duration(d).Seconds(), 'f', 3, 64)), nil
}

// ErrIngestRunning is returned by Ingest with IngestOptions.NoWait when
// another ingest of the same index, in this process or another, is
// running; the error says who runs it.
var ErrIngestRunning = ingest.ErrRunning

// IngestHolder is who holds an index's ingest lock, as written in the
// lock file beside the index ("<index>.ingest-lock").
type IngestHolder = ingest.Holder

// ValidateIngestOptions checks the explicit choices in opts without touching
// an index, so that a typo fails before any file is created.
func ValidateIngestOptions(opts IngestOptions) error {
	if opts.Lang != "" && !analysis.IsAuto(opts.Lang) {
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
// date (see [ingest.Run]): new and changed notes are (re)written, in
// batches, unchanged ones are left alone, and notes whose files are gone
// are removed. An interrupted run leaves a consistent index that the next
// run completes.
func (e *Engine) Ingest(ctx context.Context, dirs []string, opts IngestOptions) (*IngestReport, error) {
	start := time.Now()
	if len(dirs) == 0 {
		return nil, fmt.Errorf("ingest: no folder given")
	}
	if err := e.ReadOnly(); err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	release, err := e.lockIngest(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer release()
	folders, err := e.prepareIngest(ctx, opts)
	if err != nil {
		return nil, err
	}
	r, err := ingest.Run(ctx, e.ingestJob(dirs, folders, opts))
	if r == nil {
		return nil, err
	}
	rep := &IngestReport{Report: *r, Settings: e.Settings()}
	if err == nil {
		rep.Elapsed = Duration(time.Since(start))
	}
	return rep, err
}

// lockIngest takes the index's ingest lock (see [ingest.Lock]): one ingest
// of an index at a time, across processes, so that the next one reads
// what this one wrote and finds its files unchanged. Unless told not to
// wait, it waits, saying so once to opts.OnWait, else to the warning sink.
// A store other than an index file is not locked.
func (e *Engine) lockIngest(ctx context.Context, opts IngestOptions) (release func(), err error) {
	path := e.indexFile()
	if path == "" {
		return func() {}, nil
	}
	onWait := opts.OnWait
	if onWait == nil {
		onWait = func(h IngestHolder) { e.warn("waiting for another ingest of %q to end: %s holds it", path, h) }
	}
	return ingest.Lock(ctx, path, opts.NoWait, onWait)
}

// prepareIngest settles who may see what first (a new list of secret
// folders applies to every stored note before any note is written), then
// makes the settings opts changes those the ingest writes with. It returns
// the secret folders.
func (e *Engine) prepareIngest(ctx context.Context, opts IngestOptions) ([]string, error) {
	folders, err := e.secretFolders(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := e.settleVisibility(ctx, folders); err != nil {
		return nil, err
	}
	return folders, e.applyIngestSettings(ctx, opts)
}

// applyIngestSettings makes the settings stored now (another process may
// have changed them), changed by the options, those the ingest writes
// with, and stores them. Searches read their own view's settings, never
// these.
func (e *Engine) applyIngestSettings(ctx context.Context, opts IngestOptions) error {
	s, _, err := ingest.ReadSettings(ctx, e.idx)
	if err != nil {
		return err
	}
	if err := e.apply(s.Changed(opts.Lang, opts.MaxWords, opts.OverlapWords, opts.OverlapSet)); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	return e.saveSettings(ctx)
}

// besideIndex are the files the programs keep in the index's folder, never
// to be read as notes: the tokens and the chat histories.
var besideIndex = []string{"tokens.yaml", "chat_history", "chat_history_" + RolePlayer}

// indexFile is the index's file when the store is one, else "".
func (e *Engine) indexFile() string {
	if ix, ok := e.idx.(*index.Index); ok {
		return ix.Path()
	}
	return ""
}

// ingestJob is what an ingest of dirs runs with: the engine's store,
// settings and models, and opts.
func (e *Engine) ingestJob(dirs, folders []string, opts IngestOptions) ingest.Job {
	e.mu.Lock()
	s, a, em, embedCfg, model, chatCfg := e.settings, e.analyzer, e.embedder, e.embedCfg, e.chat, e.chatCfg
	e.mu.Unlock()
	job := ingest.Job{
		Store: e.idx, Dirs: dirs, SecretFolders: folders,
		Corpus:    ingest.Corpus{MaxWords: s.MaxWords, OverlapWords: s.OverlapWords, Analyzer: a, Auto: s.Lang == LangAuto},
		IndexFile: e.indexFile(), Beside: besideIndex, Private: opts.PrivateFiles, FollowLinksOutside: opts.FollowLinksOutside,
		Workers: opts.Workers, MaxBytes: opts.MaxFileBytes,
		Embedder: em, Dense: e.denseOptions(),
		Chat: model, Annotate: enrich.AnnotateOptions{Prompt: e.annotationPrompt(), Workers: opts.AnnotateWorkers,
			Messages: func(headings []string, text string) []chat.Message {
				return answer.ChatMessages(answer.AnnotationPrompt(a.Lang(), headings, text))
			}},
		Progress: opts.Progress, Changed: e.invalidate, Publish: e.bumpGeneration,
	}
	// An ingest told "none" remembers it: later commands run without the
	// model until an ingest names one again.
	if em != nil || embedCfg.Provider == ProviderNone {
		job.SaveEmbedder = func(ctx context.Context) error { return e.saveEmbedderConfig(ctx, embedCfg) }
	}
	if model != nil || chatCfg.Provider == ProviderNone {
		job.SaveChat = func(ctx context.Context) error { return e.saveChatConfig(ctx, chatCfg) }
	}
	return job
}
