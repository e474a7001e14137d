package load

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

func init() { register(KindODT, loadODT) }

// loadODT reads an OpenDocument text (content.xml): text:h a heading of
// its outline level, text:p a paragraph (a heading when its style, or one
// it inherits from, has an outline level or a heading's name), list items
// prefixed "- ", a table row per block keeping its header's words. The
// tracked changes' deletion regions, annotations (comments), generated
// indexes and frames are left out; insertions, already in the text, are
// kept. Notes follow the paragraph that cites them, "[1] ...".
func loadODT(data []byte) (*Document, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("reading the odt archive: %w", err)
	}
	part := func(name string) (*xnode, error) {
		for _, f := range zr.File {
			if f.Name != name {
				continue
			}
			b, err := readZipFile(f, maxPart)
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", name, err)
			}
			n, err := parseXML(b)
			if err != nil {
				return nil, fmt.Errorf("parsing %s: %w", name, err)
			}
			return n, nil
		}
		return nil, nil
	}
	content, err := part("content.xml")
	if err != nil {
		return nil, err
	}
	if content == nil {
		return nil, fmt.Errorf("no content.xml: not an opendocument text")
	}
	r := &odtReader{styles: map[string]odtStyle{}}
	styles, err := part("styles.xml")
	if err != nil {
		return nil, err
	}
	for _, root := range []*xnode{styles, content} {
		if root != nil {
			r.readStyles(root.child("document-styles"))
			r.readStyles(root.child("document-content"))
		}
	}
	doc := &Document{}
	meta, err := part("meta.xml")
	if err != nil {
		return nil, err
	}
	if meta != nil {
		if t := meta.find("title"); t != nil {
			doc.Title = oneLine(t.allText())
		}
	}
	if body := content.find("body"); body != nil {
		if text := body.child("text"); text != nil {
			r.body(text, false, 0)
		}
	}
	doc.Blocks = r.blocks
	return doc, nil
}

// odtStyle is what a paragraph style says about its paragraphs.
type odtStyle struct {
	parent string
	level  int // from style:default-outline-level or a heading's name; 0 if neither
}

// odtReader walks a document's text into blocks.
type odtReader struct {
	styles map[string]odtStyle
	queue  noteQueue // notes cited by the paragraph being read
	blocks []Block
}

// readStyles reads the paragraph styles, common and automatic, of a
// document part.
func (r *odtReader) readStyles(root *xnode) {
	if root == nil {
		return
	}
	for _, group := range root.kids {
		if group.name != "styles" && group.name != "automatic-styles" {
			continue
		}
		for _, s := range group.kids {
			if s.name != "style" || s.get("family") != "paragraph" {
				continue
			}
			st := odtStyle{parent: s.get("parent-style-name")}
			if v, err := strconv.Atoi(s.get("default-outline-level")); err == nil && v > 0 {
				st.level = v
			} else if name := s.get("display-name"); name != "" {
				st.level = headingLevel(name)
			} else {
				st.level = headingLevel(s.get("name"))
			}
			r.styles[s.get("name")] = st
		}
	}
}

// styleLevel is the heading level a paragraph style gives, through the
// styles it inherits from.
func (r *odtReader) styleLevel(name string) int {
	for range 16 { // a chain of parents, cut short should it loop
		st, ok := r.styles[name]
		if !ok {
			return headingLevel(name)
		}
		if st.level > 0 || st.parent == "" {
			return st.level
		}
		name = st.parent
	}
	return 0
}

// body reads block-level content.
func (r *odtReader) body(n *xnode, inList bool, depth int) {
	if depth > maxDepth {
		return
	}
	for _, k := range n.kids {
		switch k.name {
		case "h":
			level, err := strconv.Atoi(k.get("outline-level"))
			if err != nil || level < 1 {
				level = 1
			}
			r.blocks = append(r.blocks, Block{Level: level, Text: r.inline(k)})
			r.flushNotes(depth)
		case "p":
			level := r.styleLevel(k.get("style-name"))
			text := r.inline(k)
			if inList && level == 0 {
				text = listItem(text)
			}
			r.blocks = append(r.blocks, Block{Level: level, Text: text})
			r.flushNotes(depth)
		case "list":
			r.body(k, true, depth+1)
		case "list-item", "list-header", "section":
			r.body(k, inList, depth+1)
		case "table":
			r.table(k, depth+1)
			r.flushNotes(depth)
		}
		// Left out: tracked-changes (the deleted text), generated indexes
		// (table-of-content and the like), forms, declarations.
	}
}

// table renders a table one block per row.
func (r *odtReader) table(t *xnode, depth int) {
	var rows []tableRow
	var walk func(n *xnode, header bool, depth int)
	walk = func(n *xnode, header bool, depth int) {
		if depth > maxDepth {
			return
		}
		for _, k := range n.kids {
			switch k.name {
			case "table-header-rows":
				walk(k, true, depth+1)
			case "table-rows", "table-row-group":
				walk(k, header, depth+1)
			case "table-row":
				// A row or cell repeated (table:number-rows-repeated) is read
				// once: spreadsheets repeat empty ones a million times.
				row := tableRow{header: header}
				for _, c := range k.kids {
					if c.name == "table-cell" || c.name == "covered-table-cell" {
						row.cells = append(row.cells, r.cell(c, depth+1))
					}
				}
				rows = append(rows, row)
			}
		}
	}
	walk(t, false, depth)
	for _, s := range tableBlocks(rows) {
		r.blocks = append(r.blocks, Block{Text: s})
	}
}

// cell is a table cell's text on one line.
func (r *odtReader) cell(c *xnode, depth int) string {
	saved := r.blocks
	r.blocks = nil
	r.body(c, false, depth)
	var parts []string
	for _, b := range r.blocks {
		parts = append(parts, b.Text)
	}
	r.blocks = saved
	return oneLine(strings.Join(parts, " "))
}

// inline is a paragraph's or heading's text.
func (r *odtReader) inline(p *xnode) string {
	var b strings.Builder
	var walk func(n *xnode, depth int)
	walk = func(n *xnode, depth int) {
		if depth > maxDepth {
			return
		}
		for _, k := range n.kids {
			switch k.name {
			case "":
				b.WriteString(k.text)
			case "s", "tab", "line-break":
				b.WriteByte(' ') // text:s c="N" is N spaces, and they collapse
			case "note":
				if body := k.child("note-body"); body != nil {
					r.queue.add(k)
				}
			case "annotation", "frame", "hidden-text", "tracked-changes":
				// Comments, images and text boxes, hidden text.
			default:
				walk(k, depth+1)
			}
		}
	}
	walk(p, 0)
	return b.String()
}

// flushNotes adds the notes the last paragraph cited, marked with their
// citation ("[1] ...").
func (r *odtReader) flushNotes(depth int) {
	r.queue.flush(&r.blocks, func(note *xnode) string {
		r.body(note.child("note-body"), false, depth+1)
		if c := note.child("note-citation"); c != nil {
			if s := oneLine(c.allText()); s != "" {
				return "[" + s + "] "
			}
		}
		return ""
	})
}
