// Package load reads the documents a campaign keeps besides its Markdown
// notes (PDF, DOCX, ODT, HTML, EPUB) as structured text: a title, headings
// and paragraphs in reading order, and for paged formats the page each
// paragraph starts on. Ingest renders a document as a note's body
// ([Document.Markdown]) and cuts it as it cuts notes.
//
// Every loader is pure Go, reads bytes already in memory, and returns an
// error for a file it cannot read; it never panics on bad input (Load
// recovers, and each loader is fuzzed).
package load

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
)

// Block is one piece of a document's text, in reading order.
type Block struct {
	// Level is a heading's level, 1 to 6, or 0 for a paragraph (a list
	// item, a table row, a caption...).
	Level int
	// Text is the block's text on one line: white space collapsed,
	// hyphenation at line ends joined.
	Text string
	// Page is the page the block starts on, from 1; 0 when the format has
	// no pages.
	Page int
}

// Document is a file's text, structured.
type Document struct {
	// Kind is the format: one of the Kind constants.
	Kind string
	// Title is the document's own title (its metadata), or "".
	Title string
	// Blocks are its headings and paragraphs in reading order.
	Blocks []Block
	// Pages is how many pages a paged document has, 0 for other formats.
	Pages int
}

// The formats.
const (
	KindPDF  = "pdf"
	KindDOCX = "docx"
	KindODT  = "odt"
	KindHTML = "html"
	KindEPUB = "epub"
)

// Reasons a document cannot be read that are not damage: callers tell
// them apart with errors.Is, and say them to the user as they are.
var (
	// ErrNoText is a document with no text to read: a scanned PDF (images
	// of pages, no text layer).
	ErrNoText = errors.New("no text layer (a scan?): nothing to read")
	// ErrEncrypted is a document that needs a password.
	ErrEncrypted = errors.New("encrypted: it needs a password")
)

// Func reads one format's bytes.
type Func func(data []byte) (*Document, error)

// formats holds each format's loader, registered by the file that
// implements it.
var formats = map[string]Func{}

func register(kind string, f Func) { formats[kind] = f }

// extensions maps a file extension to the format it names.
var extensions = map[string]string{
	".pdf": KindPDF, ".docx": KindDOCX, ".odt": KindODT,
	".html": KindHTML, ".htm": KindHTML, ".xhtml": KindHTML, ".epub": KindEPUB,
}

// Extensions are the file extensions of the formats loaded, sorted.
func Extensions() []string {
	var out []string
	for ext, kind := range extensions {
		if formats[kind] != nil {
			out = append(out, ext)
		}
	}
	slices.Sort(out)
	return out
}

// IsDocumentName reports whether name has the extension of a format this
// package loads.
func IsDocumentName(name string) bool {
	kind := extensions[strings.ToLower(path.Ext(name))]
	return kind != "" && formats[kind] != nil
}

// Detect returns the format of a file named name holding data, or "" when
// it is none of them (a note, or something else). The content decides
// first: a PDF's header, or a ZIP archive's entries (DOCX, ODT, EPUB),
// whatever the name says; HTML, which has no signature, goes by its
// extension.
func Detect(name string, data []byte) string {
	kind := sniff(data)
	if kind == "" && extensions[strings.ToLower(path.Ext(name))] == KindHTML {
		kind = KindHTML
	}
	if formats[kind] == nil {
		return ""
	}
	return kind
}

// sniff tells a format by its bytes.
func sniff(data []byte) string {
	head := data[:min(len(data), 1024)]
	switch {
	case bytes.Contains(head, []byte("%PDF-")):
		return KindPDF
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return sniffZip(data)
	}
	return ""
}

// sniffZip tells the ZIP-based formats apart by their entries: an ODF or
// EPUB "mimetype", or a Word document's part.
func sniffZip(data []byte) string {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return ""
	}
	for _, f := range zr.File {
		switch f.Name {
		case "word/document.xml":
			return KindDOCX
		case "mimetype":
			b, err := readZipFile(f, 256)
			if err != nil {
				return ""
			}
			switch strings.TrimSpace(string(b)) {
			case "application/vnd.oasis.opendocument.text":
				return KindODT
			case "application/epub+zip":
				return KindEPUB
			}
		}
	}
	return ""
}

// Load reads data, a file named name, as the format Detect finds. A file
// that is not one of them, or that its loader cannot read, is an error;
// a loader that panics is an error too, not a crash.
func Load(name string, data []byte) (*Document, error) {
	kind := Detect(name, data)
	if kind == "" {
		return nil, fmt.Errorf("%s: not a document Oráculo reads (%s)", name, strings.Join(Extensions(), ", "))
	}
	return LoadAs(kind, data)
}

// LoadAs reads data as a document of kind, as Detect named it (a caller
// that detected the format already need not detect it again).
func LoadAs(kind string, data []byte) (doc *Document, err error) {
	f := formats[kind]
	if f == nil {
		return nil, fmt.Errorf("no reader for %q documents", kind)
	}
	defer func() {
		if v := recover(); v != nil {
			doc, err = nil, fmt.Errorf("damaged %s: %v", strings.ToUpper(kind), v)
		}
	}()
	doc, err = f(data)
	if err != nil {
		return nil, err
	}
	doc.Kind = kind
	doc.clean()
	return doc, nil
}

// clean collapses each block's white space and drops the empty ones.
func (d *Document) clean() {
	out := d.Blocks[:0]
	for _, b := range d.Blocks {
		b.Text = strings.Join(strings.Fields(b.Text), " ")
		if b.Text == "" {
			continue
		}
		b.Level = max(0, min(b.Level, 6))
		out = append(out, b)
	}
	d.Blocks = out
}

// PageStart is where a page begins in a rendered body.
type PageStart struct {
	Byte int // offset in the body
	Page int
}

// Markdown renders the document as a note's body: each heading an ATX
// heading ("## Combate"), each block a paragraph of its own, separated by
// blank lines. For a paged document it also returns, in order, the offset
// in the body where each page's first block begins.
func (d *Document) Markdown() (body string, pages []PageStart) {
	var b strings.Builder
	for i, bl := range d.Blocks {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if bl.Page > 0 && (len(pages) == 0 || pages[len(pages)-1].Page != bl.Page) {
			pages = append(pages, PageStart{Byte: b.Len(), Page: bl.Page})
		}
		if bl.Level > 0 {
			b.WriteString(strings.Repeat("#", bl.Level) + " ")
		}
		b.WriteString(bl.Text)
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String(), pages
}

// PageAt is the page holding byte offset off of a body rendered with
// pages (0 when there are none).
func PageAt(pages []PageStart, off int) int {
	if len(pages) == 0 {
		return 0
	}
	// The last page starting at or before off; the first before any.
	i := sort.Search(len(pages), func(i int) bool { return pages[i].Byte > off })
	return pages[max(i-1, 0)].Page
}

// maxPart bounds one inflated part of a ZIP-based document.
const maxPart = 64 << 20

// readZipFile reads a ZIP entry, at most limit bytes: an archive's sizes
// are not to be trusted (a ZIP bomb says little and inflates much).
func readZipFile(f *zip.File, limit int64) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(rc, limit+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes once inflated", f.Name, limit)
	}
	return buf.Bytes(), nil
}
