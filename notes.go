package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/notelink"
)

// ErrNoNote is returned when no note visible to the caller has the path
// asked for.
var ErrNoNote = notelink.ErrNoNote

// NoteInfo is a whole note: its chunks in order (see [notelink.Note]).
type NoteInfo = notelink.Note

// Note returns the note at file (a path as in a hit's "file"), with all
// its chunks; a note the caller may not see is ErrNoNote, as is a missing
// one.
func (e *Engine) Note(ctx context.Context, file string) (NoteInfo, error) {
	chunks, err := e.Chunks(ctx, []string{file})
	if err != nil {
		return NoteInfo{}, err
	}
	return notelink.NoteOf(file, chunks)
}

// Roots returns the folders ingested into the index, in order: what a
// re-ingest reads again.
func (e *Engine) Roots(ctx context.Context) ([]string, error) {
	return e.idx.Roots(ctx)
}

// NoteLink is a name an answer shows that a note of its evidence writes
// as a wikilink to another note: where the surface has links, the name
// links to that note (see [Engine.NoteLinks]).
type NoteLink = notelink.Link

// NoteLinks returns the names in a's text that its evidence writes as
// wikilinks to a note the caller may see (see [WithRole]), each with
// that note: what a surface with links links to the note. A name is
// left out, and stays plain text, unless every wikilink of the evidence
// that shows it names the same one note: a link to a note the caller may
// not see reads exactly as one to no note, and either makes the name
// plain. Only names (a shown text with a capital letter) are given: a
// link shown as "aquí" would link every "aquí" of the answer. Longest
// names first.
func (e *Engine) NoteLinks(ctx context.Context, a *Answer) ([]NoteLink, error) {
	if a == nil || a.Answer == "" || len(a.Evidence) == 0 {
		return nil, nil
	}
	dir, err := e.notesDirectory(ctx)
	if err != nil {
		return nil, err
	}
	written, err := e.evidenceWritten(ctx, a)
	if err != nil {
		return nil, err
	}
	return notelink.Links(a.Answer, written, dir), nil
}

// evidenceWritten returns the notes' passages a's evidence was taken
// from, as written (links and all) and read for the asker: the
// candidates' text, else the chunk's (see [notelink.Gather]).
func (e *Engine) evidenceWritten(ctx context.Context, a *Answer) ([]notelink.Written, error) {
	candidates := make(map[string]Hit, len(a.Candidates))
	for _, h := range a.Candidates {
		candidates[h.ID] = h
	}
	known := func(id string) (notelink.Written, bool) {
		c, ok := candidates[id]
		return notelink.Written{File: c.File, Text: c.Text}, ok && c.Text != ""
	}
	var ids []string
	for _, ev := range a.Evidence {
		if ev.Kind != answer.KindMemory && ev.ID != "" {
			ids = append(ids, ev.ID)
		}
	}
	return notelink.Gather(ctx, ids, known, e.chunkWritten)
}

// chunkWritten is the chunk id as the asker may read it (see
// [Engine.Chunk]).
func (e *Engine) chunkWritten(ctx context.Context, id string) (notelink.Written, error) {
	c, err := e.Chunk(ctx, id)
	return notelink.Written{File: c.File, Text: c.Text}, err
}

// ResolveNote returns the note a wikilink's target names ("Harbin",
// "NPCs/Harbin.md"; see [notelink.Directory.Resolve]), resolved as
// Obsidian does among the notes the caller may see (see [WithRole]):
// false when it names none of them, or several. A note the caller may not
// see resolves as a note that does not exist.
func (e *Engine) ResolveNote(ctx context.Context, target string) (string, bool, error) {
	dir, err := e.notesDirectory(ctx)
	if err != nil {
		return "", false, err
	}
	file, ok := dir.Resolve(target)
	return file, ok, nil
}

// notesDirectory is the directory of the names of the notes the caller
// may see, of the current snapshot.
func (e *Engine) notesDirectory(ctx context.Context) (*notelink.Directory, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return v.Notes(ctx, isPlayer(ctx))
}
