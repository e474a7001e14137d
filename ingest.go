package oraculo

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/enrich"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/ingest"
)

// IngestOptions tune one ingest run (see [ingest.Options]). Zero values
// keep the index's stored settings (or the defaults for a new index);
// nil SecretFolders keep the index's, else [DefaultSecretFolders].
type IngestOptions = ingest.Options

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
func ValidateIngestOptions(opts IngestOptions) error { return opts.Validate() }

// Ingest reads every note under the folders and brings the index up to
// date (see [ingest.Run]): new and changed notes are (re)written, in
// batches, unchanged ones are left alone, and notes whose files are gone
// are removed. An interrupted run leaves a consistent index that the next
// run completes.
func (e *Engine) Ingest(ctx context.Context, dirs []string, opts IngestOptions) (*IngestReport, error) {
	start := time.Now()
	release, err := e.lockIngest(ctx, dirs, opts)
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

// lockIngest refuses an ingest of no folder or by a read-only engine,
// then takes the index's ingest lock (see [ingest.Options.Lock]).
func (e *Engine) lockIngest(ctx context.Context, dirs []string, opts IngestOptions) (release func(), err error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("ingest: no folder given")
	}
	if err := e.ReadOnly(); err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	return opts.Lock(ctx, e.indexFile(), e.Warn)
}

// prepareIngest settles who may see what first (a new list of secret
// folders applies to every stored note before any note is written), then
// makes the settings stored now, changed by opts, those the ingest writes
// with, and stores them (searches read their own snapshot's). It returns
// the secret folders.
func (e *Engine) prepareIngest(ctx context.Context, opts IngestOptions) ([]string, error) {
	folders, err := e.settleVisibility(ctx, opts)
	if err != nil {
		return nil, err
	}
	s, err := e.loadSettings(ctx, opts)
	if err != nil {
		return nil, err
	}
	return folders, s.Save(ctx, e.idx)
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
		Store: e.idx, Dirs: dirs, Options: opts, SecretFolders: folders,
		Corpus: s.Corpus(a), IndexFile: e.indexFile(), Beside: besideIndex,
		Embedder: em, Dense: e.denseOptions(),
		Chat: model, Annotate: enrich.AnnotateOptions{Prompt: e.annotationPrompt(), Messages: annotationMessages(a.Lang())},
		Changed: e.invalidate, Publish: e.bumpGeneration,
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

// annotationMessages are the messages that ask the chat model to annotate
// a chunk of a note in lang (see [answer.AnnotationPrompt]).
func annotationMessages(lang string) func(headings []string, text string) []chat.Message {
	return func(headings []string, text string) []chat.Message {
		return answer.ChatMessages(answer.AnnotationPrompt(lang, headings, text))
	}
}
