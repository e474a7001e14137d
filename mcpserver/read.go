package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/oraculo/oraculo/link"
)

const readChunkDescription = `Read the whole chunk behind a search hit's id or a citation's evidence id: its label, note, heading path and full text.`

const readNoteDescription = `Read a whole note by its file path (a hit's or an evidence's "file"): its title and every chunk in order, with their ids and labels.`

// ReadChunkInput is the read_chunk tool's input.
type ReadChunkInput struct {
	ID string `json:"id" jsonschema:"the chunk's id, from a search hit or a citation's evidence"`
}

// Chunk is one chunk of a note, whole.
type Chunk struct {
	ID       string   `json:"id" jsonschema:"the chunk's id"`
	Label    string   `json:"label" jsonschema:"what to cite it by, e.g. Sesión 17"`
	File     string   `json:"file" jsonschema:"the note's path, relative to the ingested folder"`
	Title    string   `json:"title" jsonschema:"the note's title"`
	Headings []string `json:"headings" jsonschema:"the chunk's heading path, outermost first"`
	Session  *int     `json:"session,omitempty" jsonschema:"the session number, when the chunk belongs to one"`
	Text     string   `json:"text" jsonschema:"the chunk's whole text (Markdown, with Obsidian's wikilinks, highlights, footnote marks and tags shown as a reader sees them)"`
}

// ReadNoteInput is the read_note tool's input.
type ReadNoteInput struct {
	File string `json:"file" jsonschema:"the note's path, as in a hit's or an evidence's file"`
}

// Note is a whole note: its chunks in order.
type Note struct {
	File   string  `json:"file" jsonschema:"the note's path"`
	Title  string  `json:"title" jsonschema:"the note's title"`
	Chunks []Chunk `json:"chunks" jsonschema:"the note's chunks, in order"`
}

func (t *tools) readChunk(ctx context.Context, _ *mcp.CallToolRequest, in ReadChunkInput) (*mcp.CallToolResult, Chunk, error) {
	id := strings.TrimSpace(in.ID)
	if id == "" {
		return nil, Chunk{}, errors.New("the id is empty")
	}
	c, err := t.eng.Chunk(ctx, id)
	if err != nil {
		return nil, Chunk{}, notFound("chunk", id, t.failure(ctx, "reading chunk", err))
	}
	out := Chunk{ID: c.ID, Label: c.Label, File: c.File, Title: c.Title, Headings: nonNil(c.Headings), Session: c.Session, Text: link.Render(c.Text)}
	return textResult(chunkText(out)), out, nil
}

func (t *tools) readNote(ctx context.Context, _ *mcp.CallToolRequest, in ReadNoteInput) (*mcp.CallToolResult, Note, error) {
	file := strings.TrimSpace(in.File)
	if file == "" {
		return nil, Note{}, errors.New("the file is empty")
	}
	n, err := t.eng.Note(ctx, file)
	if err != nil {
		return nil, Note{}, notFound("note", file, t.failure(ctx, "reading note", err))
	}
	out := Note{File: n.File, Title: n.Title, Chunks: make([]Chunk, len(n.Chunks))}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s), %d chunks\n", n.Title, n.File, len(n.Chunks))
	for i, c := range n.Chunks {
		out.Chunks[i] = Chunk{ID: c.ID, Label: c.Label, File: c.File, Title: c.Title, Headings: nonNil(c.Headings), Session: c.Session, Text: link.Render(c.Text)}
		b.WriteString("\n")
		b.WriteString(chunkText(out.Chunks[i]))
	}
	return textResult(b.String()), out, nil
}

// chunkText is a chunk as a reader would want it: where it is, then its
// text.
func chunkText(c Chunk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s", c.Label, c.File)
	if len(c.Headings) > 0 {
		fmt.Fprintf(&b, " › %s", link.Render(strings.Join(c.Headings, " › ")))
	}
	fmt.Fprintf(&b, " (id %s)\n\n%s\n", c.ID, strings.TrimSpace(c.Text))
	return b.String()
}

// notFound names what was not found when err is errNotFound, and returns
// err unchanged otherwise.
func notFound(what, name string, err error) error {
	if errors.Is(err, errNotFound) {
		return fmt.Errorf("%s %q %w", what, name, errNotFound)
	}
	return err
}
