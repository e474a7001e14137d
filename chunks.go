package oraculo

import (
	"context"
	"fmt"
	"strings"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// ChunkInfo is one chunk as listed by `oraculo chunks`.
type ChunkInfo struct {
	ID        string   `json:"id"`
	File      string   `json:"file"`
	Title     string   `json:"title"`
	Label     string   `json:"label"`
	Session   *int     `json:"session"`
	Headings  []string `json:"headings"`
	Words     int      `json:"words"`
	WordStart int      `json:"word_start"`
	WordEnd   int      `json:"word_end"`
	ByteStart int      `json:"byte_start"`
	ByteEnd   int      `json:"byte_end"`
	// PageStart and PageEnd are the pages of a paged document (a PDF) the
	// chunk spans; null for notes.
	PageStart *int   `json:"page_start"`
	PageEnd   *int   `json:"page_end"`
	FirstLine string `json:"first_line"`
	Text      string `json:"text"`
}

// Chunks lists every chunk in document order, optionally only those of the
// given files or folders (paths relative to the ingested folder).
func (e *Engine) Chunks(ctx context.Context, paths []string) ([]ChunkInfo, error) {
	stored, err := e.idx.ListChunks(ctx, paths)
	if err != nil {
		return nil, err
	}
	player := isPlayer(ctx)
	v, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	redact, err := e.redactor(ctx, v)
	if err != nil {
		return nil, err
	}
	out := make([]ChunkInfo, 0, len(stored))
	for _, c := range stored {
		if !(player && c.Restricted) {
			out = append(out, redactChunk(chunkInfo(c), redact))
		}
	}
	return out, nil
}

func chunkInfo(c store.Chunk) ChunkInfo {
	h := retrieve.HitFrom(c, 0, 0, nil)
	info := ChunkInfo{
		ID: c.UID, File: c.Path, Title: c.DocTitle, Label: c.Label, Session: h.Session, Headings: h.Headings,
		Words: c.Words(), WordStart: c.WordStart, WordEnd: c.WordEnd, ByteStart: c.ByteStart, ByteEnd: c.ByteEnd,
		FirstLine: FirstLine(c.Text), Text: c.Text,
	}
	if c.PageStart > 0 {
		start, end := c.PageStart, c.PageEnd
		info.PageStart, info.PageEnd = &start, &end
	}
	return info
}

// Chunk returns one chunk by its public id (a search hit's or a
// citation's "id"); the error wraps [ErrNoChunk] when there is none.
func (e *Engine) Chunk(ctx context.Context, id string) (ChunkInfo, error) {
	c, err := e.idx.ChunkByUID(ctx, id)
	if err != nil {
		return ChunkInfo{}, err
	}
	if c.Restricted && isPlayer(ctx) {
		// The same error as for an id that does not exist.
		return ChunkInfo{}, fmt.Errorf("%w: %q", store.ErrNoChunk, id)
	}
	v, err := e.snapshot(ctx)
	if err != nil {
		return ChunkInfo{}, err
	}
	redact, err := e.redactor(ctx, v)
	if err != nil {
		return ChunkInfo{}, err
	}
	return redactChunk(chunkInfo(c), redact), nil
}

// FirstLine returns the first non-blank line of a text, trimmed.
func FirstLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}
