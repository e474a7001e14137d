package ingest

import (
	"context"

	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/enrich"
)

// compendium updates the compendiums when what they are built from
// changed (see [enrich.BuildCompendium]), and reports how many entities
// the DM's holds and the compendium files left out. Its progress is the
// stage "compendium", reported when it starts and when it ends.
func (r *run) compendium(ctx context.Context) error {
	r.progress(StageProgress{Stage: "compendium", Done: 0, Total: 1})
	res, err := enrich.BuildCompendium(ctx, r.Store, enrich.CompendiumOptions{
		Roots: r.rep.Roots, Stamp: r.Corpus.Stamp(), NotesChanged: r.rep.Indexed != 0 || r.rep.Deleted != 0,
	})
	if err == nil {
		r.progress(StageProgress{Stage: "compendium", Done: 1, Total: 1, Bytes: r.rep.Bytes})
	}
	for _, w := range res.Unread {
		r.rep.Warnings = append(r.rep.Warnings, Problem{Root: w.Root, Path: w.Path, Reason: "warning", Detail: w.Detail})
	}
	r.rep.Entities = res.Entities
	if res.Rebuilt {
		r.changed()
	}
	return err
}

// embeddings brings the dense path's vectors up to date, when the job has
// an embedder (see [dense.Update]). A server that fails is a warning, not
// an error: the notes are in, BM25 works, and the next run embeds what is
// left.
func (r *run) embeddings(ctx context.Context) error {
	if r.Embedder == nil {
		return nil
	}
	if err := save(ctx, r.SaveEmbedder); err != nil {
		return err
	}
	var progress func(stage string, done, total int)
	if r.Options.Progress != nil {
		progress = func(stage string, done, total int) { r.progress(StageProgress{Stage: stage, Done: done, Total: total}) }
	}
	res, err := dense.Update(ctx, r.Store, r.Embedder, r.Dense, progress)
	if res.Built {
		r.changed()
	}
	if res.Warning != "" {
		r.rep.Warnings = append(r.rep.Warnings, Problem{Reason: "embed", Detail: res.Warning})
	}
	if res.Embed != nil {
		r.rep.Embed = res.Embed
	}
	return err
}

// annotations describes, with the job's chat model, every chunk that has
// no annotation yet for this model and prompt version (see
// [enrich.Annotate]); a server that cannot be reached is a warning, not
// an error.
func (r *run) annotations(ctx context.Context) error {
	if r.Chat == nil {
		return nil
	}
	if err := save(ctx, r.SaveChat); err != nil {
		return err
	}
	opts := r.Annotate
	opts.Workers = r.Options.AnnotateWorkers
	if r.Options.Progress != nil {
		opts.Progress = func(done, total int) { r.progress(StageProgress{Stage: "annotate", Done: done, Total: total}) }
	}
	ar, err := enrich.Annotate(ctx, r.Store, r.Chat, opts)
	r.rep.Annotate = ar
	if err != nil {
		return err
	}
	if w := ar.Warning(); w != "" {
		r.rep.Warnings = append(r.rep.Warnings, Problem{Reason: "annotate", Detail: w})
	}
	return nil
}
