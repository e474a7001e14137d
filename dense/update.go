package dense

import (
	"context"
	"fmt"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/enrich"
)

// Result says what [Update] did.
type Result struct {
	// Embed is what was embedded, pruned and is still pending; nil when
	// Update failed before it knew.
	Embed *enrich.EmbedReport
	// Warning says why some chunks were left without a vector: the
	// embedder failed, which is not an error (keyword search works, and
	// the next ingest embeds them).
	Warning string
	// Built reports that a graph was stored or checked over the vectors
	// read now: a dense index loaded before is out of date.
	Built bool
}

// Update brings the vectors of em up to date in st: it embeds the chunks
// that have none, prunes the vectors no chunk uses, and builds or updates
// the graph ([Build]). When the store says no chunk lacks a vector and
// the chunks are as they were when Update last finished (the store's
// [store.Catalog.ChunksVersion], same model, same threshold), there is
// nothing to do: an unchanged re-ingest reads no vector, nor lists the
// chunks that have one. Both come from the store, whichever it is: a
// chunk without a vector is embedded whatever the version says. progress,
// when set, hears the stages "embed" and "graph".
func Update(ctx context.Context, st Store, em embed.Embedder, opts Options, progress func(stage string, done, total int)) (Result, error) {
	model := em.ID()
	version, err := st.ChunksVersion(ctx)
	if err != nil {
		return Result{}, err
	}
	missing, err := st.MissingVectors(ctx, model)
	if err != nil {
		return Result{}, err
	}
	mark := fmt.Sprintf("%s %d", version, opts.ANNThreshold())
	markKey := "dense_done/" + model
	if done, err := st.Meta(ctx, markKey); err != nil || (done == mark && missing == 0) {
		return Result{Embed: &enrich.EmbedReport{Model: model}}, err
	}
	res, er, err := embedAndBuild(ctx, st, em, opts, progress)
	if err != nil || er.Pending != 0 || er.Error != "" {
		return res, err
	}
	return res, st.SetMeta(ctx, markKey, mark)
}

// embedAndBuild embeds what has no vector, prunes, and builds the graph.
func embedAndBuild(ctx context.Context, st Store, em embed.Embedder, opts Options, progress func(stage string, done, total int)) (Result, enrich.EmbedReport, error) {
	var res Result
	er, embedErr := enrich.Embed(ctx, st, em, stage(progress, "embed"))
	if embedErr != nil && ctx.Err() != nil {
		return res, er, ctx.Err()
	}
	// What is left is counted in the store, in chunks, not taken from
	// what the embedder was sent.
	var err error
	if er.Pending, err = st.MissingVectors(ctx, em.ID()); err != nil {
		return res, er, err
	}
	if embedErr != nil {
		er.Error = embedErr.Error()
		res.Warning = fmt.Sprintf("%v; %d chunks have no vector yet: keyword search works, and the next ingest embeds them", embedErr, er.Pending)
	}
	if er.Pruned, err = st.PruneEmbeddings(ctx); err != nil {
		return res, er, err
	}
	if res.Built, err = Build(ctx, st, em.ID(), opts, stage(progress, "graph")); err != nil {
		return res, er, err
	}
	res.Embed = &er
	return res, er, nil
}

// stage is progress for one stage (nil when progress is).
func stage(progress func(stage string, done, total int), name string) func(done, total int) {
	if progress == nil {
		return nil
	}
	return func(done, total int) { progress(name, done, total) }
}
