package ingest

import (
	"context"
	"slices"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/enrich"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/visibility"
)

// Job is what one ingest run is given: the store and the folders, how the
// notes are cut and who may see them, the models of the later stages, and
// whom it tells of its advance and of what it changed.
type Job struct {
	// Store is the index the run brings up to date.
	Store store.Store
	// Dirs are the folders to ingest, as given.
	Dirs []string
	// Options are the run's options as given: the run reads its files,
	// workers, links and progress from them; the caller resolves their
	// settings into Corpus (see [Options.Settings]) and their secret
	// folders into SecretFolders.
	Options Options
	// Corpus are the settings the notes are cut and analysed with.
	Corpus Corpus
	// SecretFolders are the folders whose notes are DM-only (see package
	// visibility); the notes stored already follow them (see
	// [visibility.Settle]).
	SecretFolders []string
	// IndexFile is the index's file when the store is one, else "": it,
	// the files named after it, the files named in Beside in its folder,
	// and that folder (unless a folder of notes lies in it) are never read
	// as notes, nor are the options' PrivateFiles.
	IndexFile string
	Beside    []string
	// Embedder, when set, embeds the chunks for the dense path, which
	// Dense configures (see [dense.Update]).
	Embedder embed.Embedder
	Dense    dense.Options
	// Chat, when set, annotates the chunks as Annotate says (see
	// [enrich.Annotate]; the run sets its Workers and Progress).
	Chat     chat.Model
	Annotate enrich.AnnotateOptions
	// SaveEmbedder and SaveChat, when set, store the models'
	// configuration: before the model's stage, or at the end when there is
	// no model (a run told to do without one remembers it).
	SaveEmbedder, SaveChat func(context.Context) error
	// Changed, when set, hears that what searches load changed: the
	// notes' visibility and sessions, the compendium, the vector graph.
	Changed func()
	// Publish, when set, is called last, once everything is written: it
	// tells every engine serving the index that it changed.
	Publish func(context.Context) error
}

// run is one [Run]: its job, the rules notes are decided with, and its
// report so far.
type run struct {
	Job
	rules visibility.Rules
	rep   *Report
}

// Run brings the index up to date with the notes under the job's folders:
// a vault that moved is recognised and keeps its notes; new and changed
// notes are (re)written, in batches, unchanged ones are left alone, and
// notes whose files are gone are removed (see [Update]); then the
// compendium, the vectors and the annotations follow, and the run is
// published. An interrupted run leaves a consistent index that the next
// run completes. The report is returned also with an error, once the
// folders are known, with what was done so far.
func Run(ctx context.Context, job Job) (*Report, error) {
	r := &run{Job: job, rules: visibility.NewRules(job.SecretFolders)}
	roots, warnings, err := r.roots(ctx)
	if err != nil {
		return nil, err
	}
	r.rep = &Report{Roots: roots, SecretFolders: job.SecretFolders, Warnings: warnings, FollowLinksOutside: job.Options.FollowLinksOutside}
	fence, err := r.fence(ctx)
	if err != nil {
		return nil, err
	}
	for _, root := range roots {
		if err := r.folder(ctx, root, fence); err != nil {
			return r.rep, err
		}
	}
	// The notes' visibility and sessions changed: searches load them again.
	r.changed()
	for _, stage := range []func(context.Context) error{r.compendium, r.embeddings, r.annotations, r.finish} {
		if err := stage(ctx); err != nil {
			return r.rep, err
		}
	}
	return r.rep, nil
}

// fence bounds what the run reads: symlinks followed only into the
// folders of the index (these and those ingested before), unless the job
// says otherwise, and never to the index's own files.
func (r *run) fence(ctx context.Context) (*Fence, error) {
	known, err := r.Store.Roots(ctx)
	if err != nil {
		return nil, err
	}
	b := Bounds{Roots: append(slices.Clone(r.rep.Roots), known...), FollowOutside: r.Options.FollowLinksOutside}
	if r.IndexFile != "" {
		b.Private = indexFiles(r.IndexFile, r.Beside, b.Roots)
	}
	b.Private = append(b.Private, r.Options.PrivateFiles...)
	return NewFence(b), nil
}

// folder brings the notes of one folder up to date (see [Update]) and
// adds what it did to the report, also when it fails.
func (r *run) folder(ctx context.Context, root string, fence *Fence) error {
	cfg := r.Corpus.config()
	cfg.Decide = func(rec store.VisibilityRecord) visibility.Decision { return visibility.DecideStored(r.rules, rec) }
	cfg.Fence, cfg.Workers, cfg.MaxBytes = fence, r.Options.Workers, r.Options.MaxFileBytes
	cfg.Vault = r.Options.Vault()
	if r.Options.Progress != nil {
		before, pages := r.rep.Bytes, r.rep.Pages // progress counts the bytes and pages of every folder
		cfg.Progress = func(p Progress) {
			r.Options.Progress(StageProgress{Stage: "read", Root: root, Done: p.Done, Total: p.Total, Bytes: before + p.Bytes, Path: p.Path, Pages: pages + p.Pages})
		}
	}
	res, err := Update(ctx, r.Store, root, cfg)
	r.rep.add(res)
	return err
}

// changed tells the job that what searches load changed.
func (r *run) changed() {
	if r.Changed != nil {
		r.Changed()
	}
}

// progress tells the job of the run's advance.
func (r *run) progress(p StageProgress) {
	if r.Options.Progress != nil {
		r.Options.Progress(p)
	}
}

// save calls fn, a write the job asks for (a model's configuration, the
// run's publication), when the job gave one.
func save(ctx context.Context, fn func(context.Context) error) error {
	if fn == nil {
		return nil
	}
	return fn(ctx)
}

// finish remembers a model the run was told to do without, and counts
// what the index holds, and publishes the run.
func (r *run) finish(ctx context.Context) error {
	if r.Embedder == nil {
		if err := save(ctx, r.SaveEmbedder); err != nil {
			return err
		}
	}
	if r.Chat == nil {
		if err := save(ctx, r.SaveChat); err != nil {
			return err
		}
	}
	st, err := r.Store.Stats(ctx)
	if err != nil {
		return err
	}
	r.rep.Stats = st
	return save(ctx, r.Publish)
}
