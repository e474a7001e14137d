package notelink

import (
	"errors"
	"fmt"

	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/store"
)

// Chunk is one chunk of a note as it is listed (`oraculo chunks`, a
// note, the server's chunk), for one audience (see [Chunk.Redact]).
type Chunk struct {
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

// ChunkOf is the stored chunk c as listed, as written, with the session
// and the heading path a hit of it shows.
func ChunkOf(c store.Chunk, session *int, headings []string) Chunk {
	info := Chunk{
		ID: c.UID, File: c.Path, Title: c.DocTitle, Label: c.Label, Session: session, Headings: headings,
		Words: c.Words(), WordStart: c.WordStart, WordEnd: c.WordEnd, ByteStart: c.ByteStart, ByteEnd: c.ByteEnd,
		FirstLine: chunk.FirstLine(c.Text), Text: c.Text,
	}
	if c.PageStart > 0 {
		start, end := c.PageStart, c.PageEnd
		info.PageStart, info.PageEnd = &start, &end
	}
	return info
}

// Redact returns c with its note text (text, title, first line,
// headings) rewritten with redact (a [Directory.Redact], or the identity
// for the DM).
func (c Chunk) Redact(redact func(string) string) Chunk {
	c.Text, c.Title, c.FirstLine = redact(c.Text), redact(c.Title), redact(c.FirstLine)
	c.Headings = RedactAll(c.Headings, redact)
	return c
}

// List is stored as the audience may see it, in order: a player's
// (public) without the chunks of DM-only notes, each listed with info and
// its text rewritten with redact (see [Chunk.Redact]).
func List(stored []store.Chunk, public bool, info func(store.Chunk) Chunk, redact func(string) string) []Chunk {
	out := make([]Chunk, 0, len(stored))
	for _, c := range stored {
		if !(public && c.Restricted) {
			out = append(out, info(c).Redact(redact))
		}
	}
	return out
}

// ErrNoNote is returned when no note visible to the caller has the path
// asked for.
var ErrNoNote = errors.New("no such note")

// Note is a whole note: its chunks in order.
type Note struct {
	File   string  `json:"file"`
	Title  string  `json:"title"`
	Chunks []Chunk `json:"chunks"`
}

// NoteOf is the note at file made of those of chunks that are its (the
// listing of a folder prefix may hold others); ErrNoNote when none is.
func NoteOf(file string, chunks []Chunk) (Note, error) {
	n := Note{File: file}
	for _, c := range chunks {
		if c.File == file {
			n.Chunks = append(n.Chunks, c)
		}
	}
	if len(n.Chunks) == 0 {
		return Note{}, fmt.Errorf("%w: %q", ErrNoNote, file)
	}
	n.Title = n.Chunks[0].Title
	return n, nil
}
