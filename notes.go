package oraculo

import (
	"context"
	"errors"
	"fmt"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/notelink"
	"github.com/oraculo/oraculo/store"
)

// ErrNoNote is returned when no note visible to the caller has the path
// asked for.
var ErrNoNote = errors.New("no such note")

// NoteInfo is a whole note: its chunks in order.
type NoteInfo struct {
	File   string      `json:"file"`
	Title  string      `json:"title"`
	Chunks []ChunkInfo `json:"chunks"`
}

// Note returns the note at file (a path as in a hit's "file"), with all
// its chunks; a note the caller may not see is ErrNoNote, as is a missing
// one.
func (e *Engine) Note(ctx context.Context, file string) (NoteInfo, error) {
	chunks, err := e.Chunks(ctx, []string{file})
	if err != nil {
		return NoteInfo{}, err
	}
	n := NoteInfo{File: file}
	for _, c := range chunks {
		if c.File == file {
			n.Chunks = append(n.Chunks, c)
		}
	}
	if len(n.Chunks) == 0 {
		return NoteInfo{}, fmt.Errorf("%w: %q", ErrNoNote, file)
	}
	n.Title = n.Chunks[0].Title
	return n, nil
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
// candidates' text, else the chunk's; a chunk replaced since is left out.
func (e *Engine) evidenceWritten(ctx context.Context, a *Answer) ([]notelink.Written, error) {
	candidates := make(map[string]Hit, len(a.Candidates))
	for _, h := range a.Candidates {
		candidates[h.ID] = h
	}
	var out []notelink.Written
	seen := map[string]bool{}
	for _, ev := range a.Evidence {
		if ev.Kind == answer.KindMemory || ev.ID == "" || seen[ev.ID] {
			continue
		}
		seen[ev.ID] = true
		if c, ok := candidates[ev.ID]; ok && c.Text != "" {
			out = append(out, notelink.Written{File: c.File, Text: c.Text})
			continue
		}
		ci, err := e.Chunk(ctx, ev.ID)
		if errors.Is(err, store.ErrNoChunk) {
			continue // replaced since: its links are not known
		}
		if err != nil {
			return nil, err
		}
		out = append(out, notelink.Written{File: ci.File, Text: ci.Text})
	}
	return out, nil
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
