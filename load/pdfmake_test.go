package load

import (
	"bytes"
	"fmt"
	"strings"
)

// makePDF writes a PDF whose pages draw the given lines in Helvetica (not
// embedded, WinAnsiEncoding: the way simple generators write text), one
// line a baseline from the top of an A4 page.
func makePDF(pages [][]string) []byte {
	contents := make([]string, len(pages))
	for i, lines := range pages {
		var s strings.Builder
		for j, l := range lines {
			fmt.Fprintf(&s, "BT /F1 12 Tf 72 %d Td (%s) Tj ET\n", 770-16*j, pdfLiteral(l))
		}
		contents[i] = s.String()
	}
	return makePDFContents(contents)
}

// makePDFContents writes a PDF of one page for each content stream given,
// with Helvetica as font /F1 in every page's resources.
func makePDFContents(contents []string) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	b.WriteString("%PDF-1.4\n")
	// Objects: 1 the catalog, 2 the page tree, 3 the font, then each
	// page (4, 6, ...) followed by its content stream (5, 7, ...).
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	kids := make([]string, len(contents))
	for i := range contents {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(contents)))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	for i, c := range contents {
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i))
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(c), c))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// pdfLiteral is s as the inside of a PDF literal string in WinAnsi
// (Latin-1 for the accented letters of Spanish), escaped.
func pdfLiteral(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '(' || r == ')' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x80:
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, "\\%03o", r)
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}
