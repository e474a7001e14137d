package load

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

func init() { register(KindDOCX, loadDOCX) }

// loadDOCX reads a Word document (word/document.xml): each paragraph a
// block, a heading when its style is one (by outline level or by name,
// following the styles it is based on), a list item prefixed "- ", a
// table row per block keeping its header's words. Tracked deletions,
// moved-away text, hidden text, comments, field codes and drawings are
// left out; insertions are kept. Footnotes and endnotes follow the
// paragraph that cites them, "[1] ...", so they stay in its section.
func loadDOCX(data []byte) (*Document, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("reading the docx archive: %w", err)
	}
	parts := map[string]*zip.File{}
	for _, f := range zr.File {
		parts[f.Name] = f
	}
	part := func(name string) (*xnode, error) {
		f := parts[name]
		if f == nil {
			return nil, nil
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
	main, err := part("word/document.xml")
	if err != nil {
		return nil, err
	}
	if main == nil {
		return nil, fmt.Errorf("no word/document.xml: not a word document")
	}
	r := &docxReader{styles: map[string]docxStyle{}, notes: map[string]*xnode{}, cited: map[string]bool{}}
	if st, err := part("word/styles.xml"); err != nil {
		return nil, err
	} else if st != nil {
		r.readStyles(st)
	}
	for _, name := range []string{"word/footnotes.xml", "word/endnotes.xml"} {
		notes, err := part(name)
		if err != nil {
			return nil, err
		}
		if notes == nil {
			continue
		}
		for _, n := range notes.kids {
			for _, note := range n.kids {
				if (note.name == "footnote" || note.name == "endnote") && note.get("type") == "" {
					r.notes[note.name+note.get("id")] = note
				}
			}
		}
	}
	doc := &Document{}
	if core, err := part("docProps/core.xml"); err != nil {
		return nil, err
	} else if core != nil {
		if t := core.find("title"); t != nil {
			doc.Title = oneLine(t.allText())
		}
	}
	if body := main.find("body"); body != nil {
		r.body(body, 0)
	}
	doc.Blocks = r.blocks
	return doc, nil
}

// docxStyle is what a paragraph style says about its paragraphs.
type docxStyle struct {
	name, basedOn string
	outline       int  // w:outlineLvl, 0-based; -1 when not set
	list          int8 // 1 numbered (w:numPr), -1 numbering removed (numId 0), 0 not said
}

// docxReader walks a document's body into blocks.
type docxReader struct {
	styles map[string]docxStyle
	notes  map[string]*xnode // "footnote"/"endnote" + id
	cited  map[string]bool
	queue  noteQueue // notes cited by the paragraph being read
	// numbered counts the notes added so far.
	numbered int
	blocks   []Block
}

func (r *docxReader) readStyles(root *xnode) {
	styles := root.child("styles")
	if styles == nil {
		return
	}
	for _, s := range styles.kids {
		if s.name != "style" || s.get("type") != "paragraph" {
			continue
		}
		st := docxStyle{outline: -1}
		if n := s.child("name"); n != nil {
			st.name = n.get("val")
		}
		if b := s.child("basedOn"); b != nil {
			st.basedOn = b.get("val")
		}
		if ppr := s.child("pPr"); ppr != nil {
			st.outline, st.list = paraProps(ppr)
		}
		r.styles[s.get("styleId")] = st
	}
}

// paraProps reads a paragraph's (or a style's) outline level and
// numbering from its w:pPr.
func paraProps(ppr *xnode) (outline int, list int8) {
	outline = -1
	if o := ppr.child("outlineLvl"); o != nil {
		if v, err := strconv.Atoi(o.get("val")); err == nil && v >= 0 {
			outline = v
		}
	}
	if np := ppr.child("numPr"); np != nil {
		list = 1
		if id := np.child("numId"); id != nil && id.get("val") == "0" {
			list = -1
		}
	}
	return outline, list
}

// paragraph is a paragraph's heading level and whether it is a list item,
// from its own properties first, then its style's chain.
func (r *docxReader) paragraph(ppr *xnode) (level int, list bool) {
	outline, l := -1, int8(0)
	id := ""
	if ppr != nil {
		outline, l = paraProps(ppr)
		if ps := ppr.child("pStyle"); ps != nil {
			id = ps.get("val")
		}
	}
	if outline >= 0 {
		level = outlineLevel(outline)
	}
	known := outline >= 0
	for range 16 { // a chain of basedOn, cut short should it loop
		if id == "" || (known && l != 0) {
			break
		}
		st, ok := r.styles[id]
		if !ok {
			if !known {
				level, known = headingLevel(id), true
			}
			break
		}
		if !known {
			if st.outline >= 0 {
				level, known = outlineLevel(st.outline), true
			} else if n := headingLevel(st.name); n > 0 {
				level, known = n, true
			}
		}
		if l == 0 {
			l = st.list
		}
		id = st.basedOn
	}
	return level, l > 0 && level == 0
}

// outlineLevel is a heading level from Word's 0-based outline level, of
// which 9 is body text.
func outlineLevel(v int) int {
	if v > 8 {
		return 0
	}
	return v + 1
}

// body reads block-level content: paragraphs, tables, and the containers
// that hold them.
func (r *docxReader) body(n *xnode, depth int) {
	if depth > maxDepth {
		return
	}
	for _, k := range n.kids {
		switch k.name {
		case "p":
			level, list := r.paragraph(k.child("pPr"))
			text := r.runs(k)
			if list {
				text = listItem(text)
			}
			r.blocks = append(r.blocks, Block{Level: level, Text: text})
			r.flushNotes(depth)
		case "tbl":
			r.table(k, depth)
			r.flushNotes(depth)
		case "sdt", "sdtContent", "customXml", "ins", "moveTo", "smartTag":
			r.body(k, depth+1)
		}
	}
}

// table renders a table one block per row.
func (r *docxReader) table(t *xnode, depth int) {
	var rows []tableRow
	for _, tr := range t.kids {
		if tr.name != "tr" {
			continue
		}
		var row tableRow
		if pr := tr.child("trPr"); pr != nil {
			if pr.child("del") != nil {
				continue
			}
			if h := pr.child("tblHeader"); h != nil && on(h) {
				row.header = true
			}
		}
		for _, tc := range tr.kids {
			if tc.name == "tc" {
				row.cells = append(row.cells, r.cell(tc, depth+1))
			}
		}
		rows = append(rows, row)
	}
	for _, s := range tableBlocks(rows) {
		r.blocks = append(r.blocks, Block{Text: s})
	}
}

// cell is a table cell's text on one line.
func (r *docxReader) cell(tc *xnode, depth int) string {
	saved := r.blocks
	r.blocks = nil
	r.body(tc, depth)
	var parts []string
	for _, b := range r.blocks {
		parts = append(parts, strings.TrimPrefix(b.Text, "- "))
	}
	r.blocks = saved
	return oneLine(strings.Join(parts, " "))
}

// on reads a WordprocessingML toggle: present means on unless its value
// says otherwise.
func on(n *xnode) bool {
	switch n.get("val") {
	case "0", "false", "off":
		return false
	}
	return true
}

// runs is a paragraph's text.
func (r *docxReader) runs(p *xnode) string {
	var b strings.Builder
	var walk func(n *xnode, depth int)
	walk = func(n *xnode, depth int) {
		if depth > maxDepth {
			return
		}
		for _, k := range n.kids {
			switch k.name {
			case "":
				// Text outside w:t is the XML's layout, not the document's.
			case "t":
				b.WriteString(k.allText())
			case "tab", "ptab", "br", "cr":
				b.WriteByte(' ')
			case "noBreakHyphen":
				b.WriteByte('-')
			case "r":
				if pr := k.child("rPr"); pr != nil {
					if v := pr.child("vanish"); v != nil && on(v) {
						continue
					}
				}
				walk(k, depth+1)
			case "footnoteReference", "endnoteReference":
				id := strings.TrimSuffix(k.name, "Reference") + k.get("id")
				if note := r.notes[id]; note != nil && !r.cited[id] {
					r.cited[id] = true
					r.queue.add(note)
				}
			case "del", "moveFrom", "delText", "instrText", "delInstrText",
				"pPr", "rPr", "drawing", "pict", "object", "AlternateContent":
				// Deleted or moved-away text, field codes, properties, and
				// drawings (whose text boxes Word also keeps as a fallback).
			default:
				walk(k, depth+1)
			}
		}
	}
	walk(p, 0)
	return b.String()
}

// flushNotes adds the notes the last paragraph cited, numbered in the
// order they were first cited.
func (r *docxReader) flushNotes(depth int) {
	r.queue.flush(&r.blocks, func(note *xnode) string {
		r.numbered++
		mark := fmt.Sprintf("[%d] ", r.numbered)
		r.body(note, depth+1)
		return mark
	})
}
