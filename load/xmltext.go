package load

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"golang.org/x/net/html/charset"
)

// The office formats (DOCX, ODT) and the EPUB package files are XML; this
// file holds what their loaders share: an XML part read whole into a tree
// with a bounded depth, and the rendering of lists and tables as text
// blocks, which HTML shares too.

// maxDepth bounds how deeply elements may nest in a part: real documents
// stay under a few dozen levels; a forged one could nest a million.
const maxDepth = 512

// errTooDeep is a part nested deeper than maxDepth.
var errTooDeep = fmt.Errorf("elements nested deeper than %d levels", maxDepth)

// xnode is an XML element read whole: its name, attributes, and children
// in document order; text is a child with an empty name.
type xnode struct {
	name string // the local name: prefixes and namespace URLs vary between writers
	attr []xml.Attr
	kids []*xnode
	text string
}

// parseXML reads an XML part into a tree under a nameless root. Elements
// go by local name only: OOXML has a strict and a transitional namespace
// for the same vocabulary, and within the parts read here no two
// vocabularies share a local name that matters.
func parseXML(data []byte) (*xnode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charset.NewReaderLabel
	root := &xnode{}
	stack := []*xnode{root}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > maxDepth {
				return nil, errTooDeep
			}
			n := &xnode{name: t.Name.Local, attr: t.Attr}
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			top.kids = append(top.kids, &xnode{text: string(t)})
		}
	}
	return root, nil
}

// get is the value of the attribute with local name local, or "".
func (n *xnode) get(local string) string {
	for _, a := range n.attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// child is the first child element named local, or nil.
func (n *xnode) child(local string) *xnode {
	for _, k := range n.kids {
		if k.name == local {
			return k
		}
	}
	return nil
}

// find is the first element named local at any depth below n, or nil.
func (n *xnode) find(local string) *xnode {
	for _, k := range n.kids {
		if k.name == local {
			return k
		}
		if f := k.find(local); f != nil {
			return f
		}
	}
	return nil
}

// allText is the text of n and all its descendants.
func (n *xnode) allText() string {
	var b strings.Builder
	var walk func(*xnode)
	walk = func(n *xnode) {
		b.WriteString(n.text)
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(n)
	return b.String()
}

// oneLine collapses a text's white space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// listItem is how a list item's text reads as a block.
func listItem(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return "- " + text
}

// headingPrefixes are the names, folded, that styles give their headings
// before the level: "heading 1" (Word's name in any language), "Título 1",
// the ids localized Words write ("Ttulo1", "berschrift1").
var headingPrefixes = []string{"heading", "título", "titulo", "ttulo", "überschrift", "berschrift", "titre", "titolo", "kop", "nagłówek", "rubrik", "otsikko"}

// headingLevel is the level a style named name gives a paragraph: N for
// "heading N" and its translations, 0 for any other name ("Title",
// "Título" without a number).
func headingLevel(name string) int {
	s := strings.ToLower(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '_' || r == '-' {
			return -1
		}
		return r
	}, strings.ReplaceAll(name, "_20_", " ")))
	for _, p := range headingPrefixes {
		rest, ok := strings.CutPrefix(s, p)
		if ok && len(rest) == 1 && rest[0] >= '1' && rest[0] <= '9' {
			return int(rest[0] - '0')
		}
	}
	return 0
}

// tableRow is a table row's cell texts, one line each.
type tableRow struct {
	cells []string
	// header is a row the format marks as a heading row (Word's repeated
	// header, ODF's header rows, HTML's th cells).
	header bool
	// keyed is a row whose first cell is a heading for the rest (HTML's th
	// then td, as in an infobox).
	keyed bool
}

// maxLabel bounds a header cell used as a label: each data cell repeats
// its header's words, and a long header would multiply the text.
const maxLabel = 80

// tableBlocks renders a table as one block per row. A data row keeps its
// header's words before each cell ("Nombre: Anika · Rol: molinera"), so
// that a row read alone still says what its cells are. The header is the
// last marked header row, or, when none is marked, a first row of short
// non-empty cells; it has no block of its own unless no rows follow it.
func tableBlocks(rows []tableRow) []string {
	var labels []string
	start := 0
	for i, r := range rows {
		if !r.header {
			break
		}
		start = i + 1
		if isLabels(r.cells) {
			labels = r.cells
		}
	}
	if start == 0 && len(rows) > 1 && isLabels(rows[0].cells) && !rows[0].keyed {
		labels, start = rows[0].cells, 1
	}
	var out []string
	for _, r := range rows[:start] {
		if !isLabels(r.cells) || start == len(rows) {
			out = append(out, joinCells(r.cells, nil))
		}
	}
	for _, r := range rows[start:] {
		switch {
		case r.keyed && len(r.cells) > 1:
			out = append(out, r.cells[0]+": "+joinCells(r.cells[1:], nil))
		default:
			out = append(out, joinCells(r.cells, labels))
		}
	}
	return out
}

// isLabels reports whether a row's cells can serve as column labels: at
// least two, none empty, none long.
func isLabels(cells []string) bool {
	if len(cells) < 2 {
		return false
	}
	for _, c := range cells {
		if c == "" || len(c) > maxLabel {
			return false
		}
	}
	return true
}

// joinCells joins a row's non-empty cells with " · ", each after its
// label when there is one.
func joinCells(cells, labels []string) string {
	var parts []string
	for i, c := range cells {
		if c == "" {
			continue
		}
		if i < len(labels) && labels[i] != c {
			c = labels[i] + ": " + c
		}
		parts = append(parts, c)
	}
	return strings.Join(parts, " · ")
}

// noteQueue holds the footnotes the paragraph being read cited, until it
// ends and they are added after it. A note citing a note queues it; the
// loop reading the outer one reads it next.
type noteQueue struct {
	notes   []*xnode
	reading bool // reading a note's own paragraphs
}

// add queues a note the paragraph being read cites.
func (q *noteQueue) add(note *xnode) { q.notes = append(q.notes, note) }

// flush reads every queued note, in the order they were cited, into
// paragraphs of their own appended to *blocks (see appendNote): read
// appends the note's blocks to *blocks, which holds nothing else while it
// runs, and returns the mark of the note's first paragraph ("[1] ").
func (q *noteQueue) flush(blocks *[]Block, read func(note *xnode) (mark string)) {
	if q.reading {
		return // a note citing a note: it queues, and the outer loop reads it
	}
	q.reading = true
	defer func() { q.reading = false }()
	for len(q.notes) > 0 {
		note := q.notes[0]
		q.notes = q.notes[1:]
		saved := *blocks
		*blocks = nil
		mark := read(note)
		*blocks = appendNote(saved, *blocks, mark)
	}
}

// appendNote adds a footnote's blocks to out as paragraphs after the one
// that cites it, the first marked with mark ("[1] "); empty blocks go.
func appendNote(out, note []Block, mark string) []Block {
	for _, b := range note {
		if strings.TrimSpace(b.Text) == "" {
			continue
		}
		b.Level = 0
		b.Text = mark + strings.TrimSpace(b.Text)
		mark = ""
		out = append(out, b)
	}
	return out
}
