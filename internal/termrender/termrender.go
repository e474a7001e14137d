// Package termrender writes Markdown text, such as an answer streaming in,
// to a terminal: wrapped at word boundaries to the terminal's width (a
// word is split only when it is longer than a whole line), with **bold**,
// *italic*, _italic_ and ~~struck~~ shown as ANSI attributes and `code`
// shown plainly.
// A citation label such as [Sesión 17] is kept on one line, and list items
// wrap under their own text.
//
// Text may arrive in pieces cut anywhere, even inside a character: a
// [Writer] holds back the last word until it is whole, so that the output
// is the same however the text was cut.
//
// Without Style the Markdown is written as it came, only wrapped: no ANSI
// codes at all (for NO_COLOR).
package termrender

import (
	"bytes"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// MarkStart and MarkEnd, written in the text, highlight what lies between
// them (reverse video, or »…« without Style). They take no room.
const (
	MarkStart = "\uE000"
	MarkEnd   = "\uE001"
)

const (
	markStart = '\uE000'
	markEnd   = '\uE001'
)

// DefaultWidth is the width used when none is known.
const DefaultWidth = 80

// maxLabel is the longest bracketed span, in characters, kept on one line.
const maxLabel = 40

// Options say how a Writer renders.
type Options struct {
	// Width is the number of columns; 0 or less means DefaultWidth.
	Width int
	// Style renders Markdown emphasis and highlights with ANSI codes;
	// without it the text is written as it came, only wrapped.
	Style bool
}

// attr is a set of ANSI attributes.
type attr uint8

const (
	attrBold attr = 1 << iota
	attrItalic
	attrMark
	attrStrike
)

// cell is one character as shown.
type cell struct {
	r rune
	a attr
}

// Writer renders text written to it onto an underlying writer. It is not
// safe for concurrent use.
type Writer struct {
	w     io.Writer
	width int
	style bool

	in   []byte // bytes not yet taken: an incomplete character
	unit []rune // the word being read, with the spaces of a label glued in

	// The source line being read.
	lineStart bool // no word of it yet
	lead      int  // its leading spaces
	indent    int  // where its continuation lines start
	firstUnit bool // the next word is the line's first
	space     bool // white space came before the word being read

	// Markdown state, carried from word to word.
	bold, italic, code, mark, strike bool

	col int  // the output column
	cur attr // the attributes the terminal has on
	out bytes.Buffer
	err error
}

// NewWriter returns a Writer onto w.
func NewWriter(w io.Writer, o Options) *Writer {
	rw := &Writer{w: w, style: o.Style, lineStart: true, firstUnit: true}
	rw.SetWidth(o.Width)
	return rw
}

// SetWidth changes the width, for the lines that follow (a terminal
// resized).
func (w *Writer) SetWidth(n int) {
	if n <= 0 {
		n = DefaultWidth
	}
	w.width = n
}

// Col is the column the output is at: 0 at the start of a line.
func (w *Writer) Col() int { return w.col }

// Write renders p, holding back its last word until what follows shows
// that it is whole; it returns len(p) unless the underlying writer fails.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	w.in = append(w.in, p...)
	i := 0
	for i < len(w.in) {
		if !utf8.FullRune(w.in[i:]) {
			break
		}
		r, size := utf8.DecodeRune(w.in[i:])
		i += size
		w.take(r)
	}
	w.in = append(w.in[:0], w.in[i:]...)
	if err := w.send(); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteString is Write for a string.
func (w *Writer) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// Flush writes the word held back and ends any emphasis, as at the end
// of a text; the line is left open.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if len(w.in) > 0 { // a character cut short: shown as the replacement
		w.take(utf8.RuneError)
		w.in = w.in[:0]
	}
	w.endUnit()
	w.bold, w.italic, w.code, w.mark, w.strike = false, false, false, false, false
	w.setAttr(0)
	return w.send()
}

// EndLine flushes and, unless the output is at the start of a line,
// ends it.
func (w *Writer) EndLine() error {
	if err := w.Flush(); err != nil {
		return err
	}
	if w.col > 0 {
		w.newline()
	}
	w.startLine()
	return w.send()
}

func (w *Writer) send() error {
	if w.out.Len() == 0 || w.err != nil {
		return w.err
	}
	_, w.err = w.w.Write(w.out.Bytes())
	w.out.Reset()
	return w.err
}

// take reads one character of the source.
func (w *Writer) take(r rune) {
	switch {
	case r == '\n':
		w.endUnit()
		// Emphasis does not run past a line: a stray marker spoils one
		// line at most.
		w.bold, w.italic, w.code, w.strike = false, false, false, false
		w.setAttr(0)
		w.newline()
		w.startLine()
	case r == '\r':
	case escaped(r, true) && !unicode.IsSpace(r):
		// An escape sequence from the notes or a model is shown, not
		// obeyed.
		w.lineStart = false
		w.unit = append(w.unit, []rune(escapeRune(r))...)
	case unicode.IsSpace(r):
		switch {
		case w.lineStart:
			if r == '\t' {
				w.lead += 4
			} else {
				w.lead++
			}
		case w.inLabel():
			if w.unit[len(w.unit)-1] != ' ' {
				w.unit = append(w.unit, ' ')
			}
		default:
			w.endUnit()
			w.space = true
		}
	default:
		w.lineStart = false
		w.unit = append(w.unit, r)
		if len(w.unit) > maxLabel && w.inLabel() {
			w.splitLabel()
		}
	}
}

func (w *Writer) startLine() {
	w.lineStart, w.lead, w.indent, w.firstUnit, w.space = true, 0, 0, true, false
}

// inLabel reports whether the word being read opened a bracket it has not
// closed: its spaces are kept in it, so that "[Sesión 17]" stays whole.
func (w *Writer) inLabel() bool {
	open := -1
	for i, r := range w.unit {
		switch r {
		case '[':
			open = i
		case ']':
			open = -1
		}
	}
	return open >= 0
}

// splitLabel gives up keeping a bracketed span whole, too long to be a
// label: its words go out one by one.
func (w *Writer) splitLabel() {
	words := strings.Fields(string(w.unit))
	for _, word := range words[:len(words)-1] {
		w.emit(w.cells([]rune(word)))
		w.space = true
	}
	// The last word is still being read.
	w.unit = append(w.unit[:0], []rune(words[len(words)-1])...)
}

// endUnit places the word being read.
func (w *Writer) endUnit() {
	if len(w.unit) == 0 {
		return
	}
	cs := w.cells(w.unit)
	w.unit = w.unit[:0]
	w.emit(cs)
}

// emit places a word's cells: on this line after a space, or on the next,
// or cut across lines when it is longer than one.
func (w *Writer) emit(cs []cell) {
	if w.firstUnit {
		w.firstUnit = false
		w.indent = min(w.lead, w.width/2)
		if isListMarker(cs) {
			w.indent = min(w.lead+cellsWidth(cs)+1, w.width/2)
		}
		w.pad(min(w.lead, w.width-1))
		w.space = false
	}
	if len(cs) == 0 { // only markup: nothing to show
		return
	}
	n := cellsWidth(cs)
	sep := 0
	if w.space && w.col > 0 {
		sep = 1
	}
	if w.col+sep+n > w.width && w.col > w.indent {
		w.wrap()
		sep = 0
	}
	if sep == 1 {
		w.setAttr(w.cur & cs[0].a)
		w.out.WriteByte(' ')
		w.col++
	}
	for _, c := range cs {
		cw := runeWidth(c.r)
		if w.col+cw > w.width && w.col > w.indent {
			w.wrap()
		}
		w.setAttr(c.a)
		w.out.WriteRune(c.r)
		w.col += cw
	}
	w.space = false
}

// wrap ends the output line and starts a continuation line.
func (w *Writer) wrap() {
	w.newline()
	w.pad(w.indent)
}

func (w *Writer) newline() {
	w.setAttr(0)
	w.out.WriteByte('\n')
	w.col = 0
}

func (w *Writer) pad(n int) {
	if n <= 0 {
		return
	}
	w.setAttr(0)
	w.out.WriteString(strings.Repeat(" ", n))
	w.col += n
}

// setAttr switches the terminal to attributes a.
func (w *Writer) setAttr(a attr) {
	if a == w.cur || !w.style {
		return
	}
	w.out.WriteString("\x1b[0m")
	if a&attrBold != 0 {
		w.out.WriteString("\x1b[1m")
	}
	if a&attrItalic != 0 {
		w.out.WriteString("\x1b[3m")
	}
	if a&attrMark != 0 {
		w.out.WriteString("\x1b[7m")
	}
	if a&attrStrike != 0 {
		w.out.WriteString("\x1b[9m")
	}
	w.cur = a
}

// cells renders a word: its Markdown markers become attributes (with
// Style) and the highlight markers attributes or »«.
func (w *Writer) cells(u []rune) []cell {
	out := make([]cell, 0, len(u))
	for i := 0; i < len(u); i++ {
		r := u[i]
		switch r {
		case markStart, markEnd:
			w.mark = r == markStart
			if !w.style && w.mark {
				out = append(out, cell{r: '»'})
			} else if !w.style {
				out = append(out, cell{r: '«'})
			}
			continue
		}
		if !w.style {
			out = append(out, cell{r: r})
			continue
		}
		if w.code {
			if r == '`' {
				w.code = false
				continue
			}
			out = append(out, cell{r, w.attr()})
			continue
		}
		switch r {
		case '`':
			w.code = true
			continue
		case '~':
			// "~~" opens struck text before a character that is not a
			// space and closes it after one; a lone "~" is a tilde.
			if i+1 < len(u) && u[i+1] == '~' && (i+2 >= len(u) || u[i+2] != '~') {
				prev, next := ' ', ' '
				if i > 0 {
					prev = u[i-1]
				}
				if i+2 < len(u) {
					next = u[i+2]
				}
				if (w.strike && !unicode.IsSpace(prev)) || (!w.strike && !unicode.IsSpace(next)) {
					w.strike = !w.strike
					i++
					continue
				}
			}
		case '*', '_':
			n := 1
			for i+n < len(u) && u[i+n] == r {
				n++
			}
			if n <= 3 && w.toggle(u, i, n) {
				i += n - 1
				continue
			}
			for k := 0; k < n; k++ {
				out = append(out, cell{r, w.attr()})
			}
			i += n - 1
			continue
		}
		out = append(out, cell{r, w.attr()})
	}
	return out
}

// toggle applies the run of n emphasis markers at u[i] if it opens or
// closes emphasis, as CommonMark would for the common cases: an opener is
// followed by a character that is not a space and does not stand inside a
// word; a closer follows one that is not a space. It reports whether the
// run was markup.
func (w *Writer) toggle(u []rune, i, n int) bool {
	prev, next := ' ', ' '
	if i > 0 {
		prev = u[i-1]
	}
	if i+n < len(u) {
		next = u[i+n]
	}
	inWord := isWordRune(prev) && isWordRune(next)
	if u[i] == '_' && inWord { // snake_case
		return false
	}
	opens := !unicode.IsSpace(next) && !isWordRune(prev)
	closes := !unicode.IsSpace(prev)
	bold, italic := n >= 2, n == 1 || n == 3
	on := (!bold || w.bold) && (!italic || w.italic)    // all it would close is on
	off := (!bold || !w.bold) && (!italic || !w.italic) // all it would open is off
	switch {
	case on && closes:
		if bold {
			w.bold = false
		}
		if italic {
			w.italic = false
		}
		return true
	case off && opens:
		if bold {
			w.bold = true
		}
		if italic {
			w.italic = true
		}
		return true
	}
	return false
}

func (w *Writer) attr() attr {
	var a attr
	if w.bold {
		a |= attrBold
	}
	if w.italic {
		a |= attrItalic
	}
	if w.mark {
		a |= attrMark
	}
	if w.strike {
		a |= attrStrike
	}
	return a
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isListMarker reports a word that starts a list item: -, *, +, • or a
// number followed by . or ).
func isListMarker(cs []cell) bool {
	switch len(cs) {
	case 0:
		return false
	case 1:
		return strings.ContainsRune("-*+•", cs[0].r)
	}
	last := cs[len(cs)-1].r
	if len(cs) > 4 || last != '.' && last != ')' {
		return false
	}
	for _, c := range cs[:len(cs)-1] {
		if c.r < '0' || c.r > '9' {
			return false
		}
	}
	return true
}

func cellsWidth(cs []cell) int {
	n := 0
	for _, c := range cs {
		n += runeWidth(c.r)
	}
	return n
}

// runeWidth is the columns a character takes: none for a combining mark,
// two for a wide East Asian one.
func runeWidth(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r), r == '\u200b', r == '\u2060':
		return 0
	case r < 0x1100:
		return 1
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// Render renders a whole text, as a Writer given it at once and flushed:
// for tests and for text that does not stream.
func Render(s string, o Options) string {
	var b strings.Builder
	w := NewWriter(&b, o)
	_, _ = w.WriteString(s)
	_ = w.Flush()
	return b.String()
}
