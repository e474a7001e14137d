package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Render turns the Markdown of a note, as Obsidian users write it, into
// the text a reader of that note sees: what an answer quotes, what the
// chat model is shown, what every surface displays.
//
//   - A wikilink becomes the text it shows: "[[Ser Morcant the Gloomy|Ser
//     Morcant]]" is "Ser Morcant", "[[Phandalin]]" is "Phandalin",
//     "[[NPCs/Harbin.md]]" is "Harbin", "[[Dioses#Aurelith]]" is "Dioses ›
//     Aurelith", "[[#Aurelith]]" is "Aurelith"; a block reference
//     ("^id") shows nothing of itself. The escaped pipe of tables
//     ("[[a\|b]]") is a pipe.
//   - An embed ("![[...]]") of a note shows as a link to it does; one of
//     an attachment (an image, a PDF: a target with an extension other
//     than .md) is dropped, since its content is not in the text.
//   - A highlight "==text==" is its text.
//   - A footnote reference "[^1]" is dropped; a footnote's definition
//     "[^1]: text" keeps its text; an inline footnote "^[text]" is
//     "(text)".
//   - A tag "#etiqueta" (after a space or at the start of a line, with a
//     letter in it) is its words, "etiqueta"; "#campaña/lugares" is
//     "campaña/lugares".
//   - A callout's marker ("> [!note] Title") is dropped, its title kept.
//   - Strikethrough "~~text~~" is kept as it is: Markdown's own mark of
//     struck text, which the surfaces that render Markdown show struck
//     and which tells a reader, or a model, that the note crossed it out.
//
// Everything else is kept byte for byte: line structure, headings, list
// and quote markers, emphasis, Markdown links, inline code and fenced code
// blocks (nothing inside code is rendered). Markup left open (a "[["
// never closed, a lone "==") stays as written. Render is pure and never
// panics; invalid UTF-8 passes through.
func Render(md string) string {
	return RenderLinks(md, nil)
}

// Wikilink is one wikilink of a note, as [RenderLinks] reads it.
type Wikilink struct {
	// Target is the note it names as written, without "#heading" or
	// "^block" ("NPCs/Harbin.md", "Phandalin"); empty for a link inside
	// the same note ("[[#Aurelith]]").
	Target string
	// Place is the heading path or block after the target, "#" or "^"
	// included ("#Aurelith"), or "".
	Place string
	// Shown is the text [Render] shows for it.
	Shown string
}

// RenderLinks is [Render], with every wikilink (and embed of a note)
// written as link returns it, instead of as its shown text: a surface
// that has links makes one ("[Ser Morcant](/n?file=…)"), or returns
// l.Shown. A nil link is [Render]. What link returns is written as it
// is, not rendered again.
func RenderLinks(md string, link func(l Wikilink) string) string {
	if !strings.ContainsAny(md, "[=#^") {
		return md
	}
	sc := &scan{link: func(l Wikilink, _ string) string { return l.Shown }}
	if link != nil {
		sc.link = func(l Wikilink, _ string) string { return link(l) }
	}
	return sc.lines(md)
}

// EditWikilinks returns md as written, but for the wikilinks (and embeds)
// that edit rewrites: edit returns what to write instead of the link, and
// true, or false to keep the link as written. Everything else, markup
// included, is kept byte for byte. The links are those [RenderLinks]
// reads, found by the same rules (none inside code), with the same
// fields; an embed of an attachment ("![[mapa.png]]"), which Render
// drops, is given to edit too, with an empty Shown. So writing l.Shown
// for a link leaves what [Render] shows of md as it was, and no trace of
// the link's target.
func EditWikilinks(md string, edit func(l Wikilink) (string, bool)) string {
	if !strings.Contains(md, "[[") {
		return md
	}
	sc := &scan{asWritten: true, link: func(l Wikilink, written string) string {
		if s, ok := edit(l); ok {
			return s
		}
		return written
	}}
	return sc.lines(md)
}

// scan is how the lines of a note are read and written: rendered, or
// (asWritten) as written but for the wikilinks.
type scan struct {
	// link writes a wikilink l, written in the note as written ("[[a|b]]",
	// "![[a]]").
	link func(l Wikilink, written string) string
	// asWritten writes every mark but wikilinks as it is, and gives
	// link the embeds of attachments too.
	asWritten bool
}

// lines writes md, line by line, code fences kept as written.
func (sc *scan) lines(md string) string {
	return editOutsideFences(md, sc.renderLine)
}

// Wikilinks returns the wikilinks of md (and embeds of notes) outside
// code, in order, as [RenderLinks] reads them.
func Wikilinks(md string) []Wikilink {
	var out []Wikilink
	RenderLinks(md, func(l Wikilink) string {
		out = append(out, l)
		return l.Shown
	})
	return out
}

// writeWikilink writes the wikilink whose inner text is inner, written
// as written: what sc.link makes of it. An embed of an attachment shows
// nothing.
func (sc *scan) writeWikilink(b *strings.Builder, inner, written string, attachment bool) {
	target, place, _ := splitWikilink(inner)
	shown := ""
	if !attachment {
		shown = wikilinkText(inner)
	}
	b.WriteString(sc.link(Wikilink{Target: target, Place: place, Shown: shown}, written))
}

// renderLine writes one line outside code fences, rendered.
func (sc *scan) renderLine(b *strings.Builder, line string) {
	// Block-level marks at the line's start: a callout's marker after the
	// quote markers, a footnote's definition.
	i := 0
	for {
		j := i
		for j < len(line) && j-i < 3 && line[j] == ' ' {
			j++
		}
		if j < len(line) && line[j] == '>' {
			j++
			for j < len(line) && line[j] == ' ' {
				j++
			}
			b.WriteString(line[i:j])
			i = j
			if end, ok := calloutMarker(line, i); ok && !sc.asWritten {
				i = end
				for i < len(line) && line[i] == ' ' {
					i++
				}
			}
			continue
		}
		break
	}
	if end, ok := footnoteDefinition(line, i); ok && !sc.asWritten {
		b.WriteString(line[i : strings.IndexByte(line[i:], '[')+i])
		i = end
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	sc.renderInline(b, line[i:], i == 0 || isSpaceByte(line[i-1]))
}

// renderInline writes the inline text s rendered (or as written, but for
// its wikilinks: see [scan]); atStart reports that what precedes s may
// precede a tag (the line's start or a space).
func (sc *scan) renderInline(b *strings.Builder, s string, atStart bool) {
	last := 0 // s[last:i] is still to be written
	flush := func(i int) {
		b.WriteString(s[last:i])
	}
	// prevOK reports whether the byte before i lets a tag start at i.
	prevOK := func(i int) bool {
		if i == 0 {
			return atStart
		}
		return isSpaceByte(s[i-1])
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			end := CodeSpanEnd(s, i+n, n)
			if end < 0 {
				i += n
				continue
			}
			i = end // code spans are kept as written
		case c == '!' && strings.HasPrefix(s[i+1:], "[["):
			inner, end, ok := wikilinkAt(s, i+1)
			if !ok {
				i++
				continue
			}
			flush(i)
			if target, _, _ := splitWikilink(inner); !isAttachment(target) || sc.asWritten {
				sc.writeWikilink(b, inner, s[i:end], isAttachment(target))
			}
			i, last = end, end
		case c == '[' && strings.HasPrefix(s[i:], "[["):
			inner, end, ok := wikilinkAt(s, i)
			if !ok {
				i += 2
				continue
			}
			flush(i)
			sc.writeWikilink(b, inner, s[i:end], false)
			i, last = end, end
		case c == '[' && strings.HasPrefix(s[i:], "[^"):
			end := strings.IndexByte(s[i:], ']')
			if end < 0 || end < 3 || strings.ContainsAny(s[i+2:i+end], " \t[") {
				i += 2
				continue
			}
			if sc.asWritten {
				i += end + 1
				continue
			}
			flush(i)
			i, last = i+end+1, i+end+1
		case c == '^' && strings.HasPrefix(s[i:], "^["):
			end := matchingBracket(s, i+1)
			if end < 0 {
				i += 2
				continue
			}
			flush(i)
			open, closing := "(", ")"
			if sc.asWritten {
				open, closing = "^[", "]"
			}
			b.WriteString(open)
			sc.renderInline(b, s[i+2:end], false)
			b.WriteString(closing)
			i, last = end+1, end+1
		case c == '=' && strings.HasPrefix(s[i:], "=="):
			end := closingHighlight(s, i)
			if end < 0 {
				n := 0
				for i+n < len(s) && s[i+n] == '=' {
					n++
				}
				i += n
				continue
			}
			flush(i)
			if sc.asWritten {
				b.WriteString("==")
			}
			sc.renderInline(b, s[i+2:end], false)
			if sc.asWritten {
				b.WriteString("==")
			}
			i, last = end+2, end+2
		case c == '#' && prevOK(i):
			end := tagEnd(s, i+1)
			if end < 0 {
				i++
				continue
			}
			if sc.asWritten {
				i = end
				continue
			}
			flush(i)
			b.WriteString(s[i+1 : end])
			i, last = end, end
		default:
			i++
		}
	}
	flush(len(s))
}

// CodeSpanEnd returns the index after the run of exactly n backticks
// that closes a code span opened (by a run of n) before from, or -1 when
// none does: Markdown's rule for inline code.
func CodeSpanEnd(s string, from, n int) int {
	for i := from; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		m := 0
		for i+m < len(s) && s[i+m] == '`' {
			m++
		}
		if m == n {
			return i + m
		}
		i += m
	}
	return -1
}

// wikilinkAt reads the wikilink whose "[[" is at s[i]: its inner text and
// the index after its "]]". A link holds no "[" or "]" of its own, and
// is not empty.
func wikilinkAt(s string, i int) (inner string, end int, ok bool) {
	rest := s[i+2:]
	j := strings.Index(rest, "]]")
	if j <= 0 || strings.ContainsAny(rest[:j], "[]") {
		return "", 0, false
	}
	inner = rest[:j]
	if strings.TrimSpace(inner) == "" {
		return "", 0, false
	}
	return inner, i + 2 + j + 2, true
}

// splitWikilink cuts a wikilink's inner text into its target note, the
// place in it (a heading path or a block) and the text shown instead, if
// any.
func splitWikilink(inner string) (target, place, shown string) {
	inner = strings.ReplaceAll(inner, `\|`, "|")
	target, shown, _ = strings.Cut(inner, "|")
	if k := strings.IndexAny(target, "#^"); k >= 0 {
		target, place = target[:k], target[k:]
	}
	return strings.TrimSpace(target), place, strings.TrimSpace(shown)
}

// wikilinkText is the text a wikilink shows (see [Render]).
func wikilinkText(inner string) string {
	target, place, shown := splitWikilink(inner)
	if shown != "" {
		return shown
	}
	if k := strings.LastIndexByte(target, '/'); k >= 0 {
		target = target[k+1:]
	}
	if len(target) > 3 && strings.EqualFold(target[len(target)-3:], ".md") {
		target = target[:len(target)-3]
	}
	parts := []string{}
	if target != "" {
		parts = append(parts, target)
	}
	for p := range strings.SplitSeq(place, "#") {
		if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "^") {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return strings.TrimSpace(strings.NewReplacer("#", "", "^", "").Replace(inner))
	}
	return strings.Join(parts, " › ")
}

// isAttachment reports a target that is a file other than a note: one
// with an extension other than .md ("mapa.png", "reglas.pdf").
func isAttachment(target string) bool {
	if k := strings.LastIndexByte(target, '/'); k >= 0 {
		target = target[k+1:]
	}
	k := strings.LastIndexByte(target, '.')
	if k <= 0 || k == len(target)-1 {
		return false
	}
	ext := target[k+1:]
	if strings.EqualFold(ext, "md") || len(ext) > 5 {
		return false
	}
	for _, r := range ext {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// matchingBracket returns the index of the "]" that closes the "[" at
// s[i], nesting counted, or -1.
func matchingBracket(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// closingHighlight returns the index of the "==" that closes the
// highlight opened at s[i], or -1: the text between is not empty and
// neither starts nor ends with a space, as Obsidian requires.
func closingHighlight(s string, i int) int {
	from := i + 2
	if from >= len(s) || isSpaceByte(s[from]) || s[from] == '=' {
		return -1
	}
	j := strings.Index(s[from:], "==")
	if j <= 0 || isSpaceByte(s[from+j-1]) {
		return -1
	}
	return from + j
}

// tagEnd returns the end of a tag's name starting at s[i] (after the
// "#"), or -1 when none starts there: a tag is letters, digits, "_", "-"
// and "/", with at least one that is not a digit ("#12" is not a tag).
func tagEnd(s string, i int) int {
	j := i
	letter := false
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if unicode.IsLetter(r) || unicode.IsMark(r) || r == '_' {
			letter = true
		} else if !unicode.IsDigit(r) && r != '-' && r != '/' {
			break
		}
		j += n
	}
	if !letter {
		return -1
	}
	return j
}

// calloutMarker reads a callout's "[!type]" (and its fold mark "+" or
// "-") at s[i], after a quote marker, and returns the index after it.
func calloutMarker(s string, i int) (int, bool) {
	if !strings.HasPrefix(s[i:], "[!") {
		return 0, false
	}
	j := strings.IndexByte(s[i:], ']')
	if j < 3 || strings.ContainsAny(s[i+2:i+j], " \t[") {
		return 0, false
	}
	end := i + j + 1
	if end < len(s) && (s[end] == '+' || s[end] == '-') {
		end++
	}
	return end, true
}

// footnoteDefinition reads a footnote's definition "[^label]:" at s[i]
// (up to three spaces of indentation allowed) and returns the index
// after its colon.
func footnoteDefinition(s string, i int) (int, bool) {
	j := i
	for j < len(s) && j-i < 3 && s[j] == ' ' {
		j++
	}
	if !strings.HasPrefix(s[j:], "[^") {
		return 0, false
	}
	k := strings.Index(s[j:], "]:")
	if k < 3 || strings.ContainsAny(s[j+2:j+k], " \t[]") {
		return 0, false
	}
	return j + k + 2, true
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' }
