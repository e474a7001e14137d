package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/ledongthuc/pdf"
)

// PDF text comes from github.com/ledongthuc/pdf (pure Go): it parses the
// file, decrypts what an empty user password opens (RC4, AES-128) and
// decodes each page's glyphs with their position and size. Everything
// else (reading order, paragraphs, headings, running headers) is layout
// work done here, in pdflayout.go, on those glyphs. BENCHMARKS.md ("Issue
// 16: PDF loaders compared") says why this library and not PDFium.

func init() { register(KindPDF, loadPDF) }

// Bounds on the work one PDF may cost, whatever its objects say: a
// damaged or hostile file (a /Prev or /Extends loop, a page tree that
// holds itself) stops with an error instead of running forever.
const (
	maxPDFPages         = 10000
	maxOutlineEntries   = 10000
	maxPDFTreeDepth     = 32
	pdfReadFactor       = 64       // bytes read may be this many times the file's size...
	pdfReadSlack        = 64 << 20 // ...plus this
	pdfTimeBase         = 5 * time.Second
	pdfTimePerMegabyte  = 2 * time.Second
	pdfGlyphsPerPageCap = 200000
)

// errPDFBudget is raised (as a panic, from inside the parser) when a PDF
// has cost more reading or time than its size warrants.
var errPDFBudget = errors.New("too much work for its size (a loop among its objects?)")

// loadPDF reads a PDF's text layer.
func loadPDF(data []byte) (doc *Document, err error) {
	data = normalizePDF(data)
	if err := checkXrefSizes(data); err != nil {
		return nil, err
	}
	src := &budgetReader{
		data:     data,
		left:     int64(len(data))*pdfReadFactor + pdfReadSlack,
		deadline: time.Now().Add(pdfTimeBase + time.Duration(len(data)>>20)*pdfTimePerMegabyte),
	}
	defer func() {
		if v := recover(); v != nil {
			doc = nil
			err = pdfDamage(v)
		}
	}()
	r, err := pdf.NewReader(src, int64(len(data)))
	if err != nil {
		if errors.Is(err, errPDFBudget) {
			return nil, fmt.Errorf("damaged PDF: %w", err)
		}
		if bytes.Contains(data, []byte("/Encrypt")) {
			// A password, or an encryption the parser cannot undo even
			// with an empty one (AES-256): either way the text is locked.
			return nil, fmt.Errorf("%w (%v)", ErrEncrypted, err)
		}
		return nil, fmt.Errorf("damaged PDF: %w", err)
	}
	pages, err := pdfPages(r.Trailer().Key("Root").Key("Pages"))
	if err != nil {
		return nil, err
	}
	var glyphs [][]glyph
	var damage error
	total := 0
	for i, p := range pages {
		g, err := pageText(p)
		if err != nil && damage == nil {
			damage = fmt.Errorf("page %d: %w", i+1, err)
		}
		total += len(g)
		glyphs = append(glyphs, g)
	}
	if total == 0 {
		if damage != nil {
			return nil, damage
		}
		return nil, ErrNoText
	}
	doc = &Document{
		Title:  pdfText(r.Trailer().Key("Info").Key("Title")),
		Pages:  len(pages),
		Blocks: layoutPDF(glyphs, pdfOutline(r.Trailer().Key("Root").Key("Outlines"))),
	}
	if len(doc.Blocks) == 0 {
		return nil, ErrNoText
	}
	return doc, nil
}

// pdfDamage turns a panic inside the parser into an error naming it.
func pdfDamage(v any) error {
	if e, ok := v.(error); ok {
		return fmt.Errorf("damaged PDF: %w", e)
	}
	return fmt.Errorf("damaged PDF: %v", v)
}

// normalizePDF smooths two harmless departures from what the parser
// accepts: a version other than 1.0-1.7 in the header (PDF 2.0 files
// read the same), and bytes after the last %%EOF (padding some tools
// leave). It copies data rather than change the caller's bytes.
func normalizePDF(data []byte) []byte {
	if i := bytes.LastIndex(data, []byte("%%EOF")); i >= 0 && len(data)-(i+5) > 2 {
		data = data[:i+5]
	}
	if len(data) > 9 && bytes.HasPrefix(data, []byte("%PDF-")) {
		v := data[5:9]
		ok := v[0] == '1' && v[1] == '.' && v[2] >= '0' && v[2] <= '7' && (v[3] == '\n' || v[3] == '\r')
		if !ok && v[0] >= '1' && v[0] <= '9' && v[1] == '.' && v[2] >= '0' && v[2] <= '9' {
			c := bytes.Clone(data)
			copy(c[5:8], "1.7")
			if c[8] == ' ' || c[8] == '\t' {
				c[8] = '\n'
			}
			data = c
		}
	}
	return data
}

// xrefSizeRe finds the object counts a file declares (/Size in a trailer
// or a cross-reference stream).
var xrefSizeRe = regexp.MustCompile(`/Size\s+(\d{1,20})`)

// checkXrefSizes refuses a file that declares more objects than it has
// bytes: the parser allocates its object table by that count before
// reading anything else.
func checkXrefSizes(data []byte) error {
	for _, m := range xrefSizeRe.FindAllSubmatch(data, 64) {
		n, err := strconv.ParseInt(string(m[1]), 10, 64)
		if err != nil || n > int64(len(data)) {
			return fmt.Errorf("damaged PDF: it declares %s objects in %d bytes", m[1], len(data))
		}
	}
	return nil
}

// budgetReader serves a PDF's bytes to the parser, and stops it (by a
// panic the parser or loadPDF recovers) once it has read more than its
// budget or run past its deadline: the parser follows the file's own
// pointers, and a damaged file can point in circles.
type budgetReader struct {
	data     []byte
	left     int64
	deadline time.Time
	calls    int
}

func (b *budgetReader) ReadAt(p []byte, off int64) (int, error) {
	b.left -= int64(len(p))
	b.calls++
	if b.left < 0 || b.calls%256 == 0 && time.Now().After(b.deadline) {
		panic(errPDFBudget)
	}
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= int64(len(b.data)) {
		return 0, io.EOF
	}
	n := copy(p, b.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// pdfPages lists the page tree's leaves in order, refusing a tree deeper
// or larger than any real document's (a damaged one can hold itself).
func pdfPages(root pdf.Value) ([]pdf.Page, error) {
	var pages []pdf.Page
	visits := 0
	var walk func(node pdf.Value, depth int) error
	walk = func(node pdf.Value, depth int) error {
		visits++
		if depth > maxPDFTreeDepth || visits > 4*maxPDFPages {
			return errors.New("damaged PDF: its page tree loops or is too deep")
		}
		kids := node.Key("Kids")
		if node.Key("Type").Name() == "Page" || kids.Kind() != pdf.Array {
			if node.Kind() == pdf.Dict {
				if len(pages) >= maxPDFPages {
					return fmt.Errorf("more than %d pages", maxPDFPages)
				}
				pages = append(pages, pdf.Page{V: node})
			}
			return nil
		}
		for i := range kids.Len() {
			if err := walk(kids.Index(i), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if root.Kind() != pdf.Dict {
		return nil, errors.New("damaged PDF: no page tree")
	}
	if err := walk(root, 0); err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, errors.New("damaged PDF: no pages")
	}
	return pages, nil
}

// pdfText is a text string of the file's, without the control bytes a
// weak decryption leaves at its end (AES padding).
func pdfText(v pdf.Value) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, v.Text()))
}

// pdfOutline flattens the document's outline (its bookmarks) in order,
// each entry with its depth from 1, bounded in size and depth.
func pdfOutline(root pdf.Value) []outlineEntry {
	var out []outlineEntry
	visits := 0
	var walk func(first pdf.Value, depth int)
	walk = func(first pdf.Value, depth int) {
		if depth > maxPDFTreeDepth {
			return
		}
		for e := first; e.Kind() == pdf.Dict && visits < maxOutlineEntries; e = e.Key("Next") {
			visits++
			if t := pdfText(e.Key("Title")); t != "" {
				out = append(out, outlineEntry{title: t, depth: depth})
			}
			walk(e.Key("First"), depth+1)
		}
	}
	if root.Kind() == pdf.Dict {
		walk(root.Key("First"), 1)
	}
	return out
}
