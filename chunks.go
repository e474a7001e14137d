package oraculo

import (
	"context"
	"fmt"

	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/notelink"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// ChunkInfo is one chunk as listed by `oraculo chunks` (see
// [notelink.Chunk]).
type ChunkInfo = notelink.Chunk

// Chunks lists every chunk in document order, optionally only those of the
// given files or folders (paths relative to the ingested folder).
func (e *Engine) Chunks(ctx context.Context, paths []string) ([]ChunkInfo, error) {
	stored, err := e.idx.ListChunks(ctx, paths)
	if err != nil {
		return nil, err
	}
	return e.listed(ctx, stored)
}

// Chunk returns one chunk by its public id (a search hit's or a
// citation's "id"); the error wraps [ErrNoChunk] when there is none.
func (e *Engine) Chunk(ctx context.Context, id string) (ChunkInfo, error) {
	c, err := e.idx.ChunkByUID(ctx, id)
	if err != nil {
		return ChunkInfo{}, err
	}
	listed, err := e.listed(ctx, []store.Chunk{c})
	if err != nil {
		return ChunkInfo{}, err
	}
	if len(listed) == 0 {
		// A chunk the caller may not see: the same error as for an id
		// that does not exist.
		return ChunkInfo{}, fmt.Errorf("%w: %q", store.ErrNoChunk, id)
	}
	return listed[0], nil
}

// listed is stored as the caller may see it (see [notelink.List]): for a
// player, without the DM-only chunks, redacted (see [Engine.redactor]),
// which reads the snapshot; the DM's is the text as stored.
func (e *Engine) listed(ctx context.Context, stored []store.Chunk) ([]ChunkInfo, error) {
	redact, err := e.askerRedactor(ctx)
	if err != nil {
		return nil, err
	}
	return notelink.List(stored, isPlayer(ctx), chunkInfo, redact), nil
}

// chunkInfo is c as listed (see [notelink.ChunkOf]).
func chunkInfo(c store.Chunk) ChunkInfo {
	h := retrieve.HitFrom(c, 0, 0, nil)
	return notelink.ChunkOf(c, h.Session, h.Headings)
}

// FirstLine returns the first non-blank line of a text, trimmed.
func FirstLine(text string) string { return chunk.FirstLine(text) }
