// Package chunk turns one document's text into retrievable units: session
// blocks first, then Markdown sections grouped up to a word cap, and blind
// windows with overlap only for a single section over the cap. Each chunk
// carries its paragraphs as children, the small pieces that search matches
// before returning the whole chunk (small-to-big).
//
// Everything here is pure: text in, chunks out, no I/O.
package chunk

// Defaults from the design (seed 000).
const (
	DefaultMaxWords     = 1200
	DefaultOverlapWords = 120
)

// Options control how a document is cut.
type Options struct {
	// MaxWords is the cap on a chunk's words (SESSION_MAX_WORDS).
	MaxWords int
	// OverlapWords is the overlap between consecutive blind windows of a
	// single section larger than MaxWords (OVERLAP_WORDS).
	OverlapWords int
	// Lang is the notes' language ("es" or "en"); it decides the words used
	// in labels ("Sesión 12" or "Session 12").
	Lang string
}

// Document is the input of [Split]: one note, already read and decoded.
type Document struct {
	// Path is the note's path relative to the ingested folder, with forward
	// slashes ("Sesiones/Sesion 7.md").
	Path string
	// Title is the note's title: front matter title, else first level-one
	// heading, else the file stem. Empty means "derive it".
	Title string
	// Text is the body to cut: valid UTF-8, LF line endings, front matter
	// already removed.
	Text string
}

// Chunk is one retrievable unit.
type Chunk struct {
	// Ordinal is the chunk's position in its document, from 0.
	Ordinal int
	// Session is the session number when InSession is true.
	Session   int
	InSession bool
	// Headings is the heading path, outermost first: the document title,
	// then the session heading and section headings that enclose the chunk.
	Headings []string
	// Label names the chunk the way a player would cite it ("Sesión 12",
	// "NPCs: Harbin Wester", plus " › heading" when that narrows the place).
	// Labels are unique within a document and deterministic.
	Label string
	// WordStart and WordEnd are the chunk's word range [start, end) in the
	// document text, counting words as strings.Fields does.
	WordStart, WordEnd int
	// ByteStart and ByteEnd are the chunk's byte range [start, end) in the
	// document text; Text == doc.Text[ByteStart:ByteEnd].
	ByteStart, ByteEnd int
	// Text is the chunk's text, an exact slice of the document text.
	Text string
	// Children are the chunk's paragraphs, in order.
	Children []Child
}

// Child is a paragraph of a chunk: what search matches before it returns the
// parent chunk.
type Child struct {
	// Ordinal is the child's position in its chunk, from 0.
	Ordinal int
	// ByteStart and ByteEnd are the child's byte range in the document text.
	ByteStart, ByteEnd int
	// Text is the paragraph's text, an exact slice of the document text.
	Text string
}

// Words returns the chunk's word count.
func (c Chunk) Words() int { return c.WordEnd - c.WordStart }
