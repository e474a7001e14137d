package compendium

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/text"
)

// brk replaces removed Markdown (code, embeds, URLs, tags...): it separates
// words and ends a capitalised sequence but does not start a sentence.
const brk = '\x01'

// Wikilink is one [[...]] link of a note.
type Wikilink struct {
	// Target is the linked note as written, without "#heading", "^block"
	// or a ".md" extension: "NPCs/Harbin Wester", "Harbin Wester".
	Target string
	// Heading and Block are the parts after "#" and "^" ("" if absent).
	Heading, Block string
	// Display is the text after "|" ("" if absent): what the reader sees.
	Display string
	// Embed is true for ![[...]] (a transclusion, not a mention).
	Embed bool
}

// ParseWikilinks returns the wikilinks of a Markdown text in order, except
// those inside code fences, inline code spans and comments (%%...%%,
// <!--...-->). "[[Target|shown]]", "[[Target#Heading|shown]]",
// "[[Target^block]]", "[[Target#^block]]" and the escaped pipe used inside
// tables, "[[Target\|shown]]", are understood. Links with an empty target
// (such as "[[#Heading]]", a link inside the same note) are skipped.
func ParseWikilinks(text string) []Wikilink {
	var out []Wikilink
	for _, line := range strings.Split(stripCode(text), "\n") {
		scanWikilinks(line, func(l Wikilink, _, _ int) {
			if l.Target != "" {
				out = append(out, l)
			}
		})
	}
	return out
}

// scanWikilinks calls f for every well-formed wikilink of one line, with
// the byte span it occupies (including a leading "!" for embeds).
func scanWikilinks(line string, f func(l Wikilink, start, end int)) {
	for i := 0; ; {
		j := strings.Index(line[i:], "[[")
		if j < 0 {
			return
		}
		open := i + j
		k := strings.Index(line[open+2:], "]]")
		if k < 0 {
			return
		}
		inner := line[open+2 : open+2+k]
		if n := strings.LastIndex(inner, "[["); n >= 0 {
			// "[[a [[b]]": the link is the innermost one.
			i = open + 2 + n
			continue
		}
		end := open + 2 + k + 2
		l := parseWikilinkInner(inner)
		start := open
		if open > 0 && line[open-1] == '!' {
			l.Embed = true
			start--
		}
		f(l, start, end)
		i = end
	}
}

// parseWikilinkInner parses the text between "[[" and "]]".
func parseWikilinkInner(inner string) Wikilink {
	var l Wikilink
	target := inner
	if p := strings.Index(inner, "|"); p >= 0 {
		target, l.Display = inner[:p], strings.TrimSpace(inner[p+1:])
		target = strings.TrimSuffix(target, `\`) // "\|" inside tables
	}
	if p := strings.Index(target, "^"); p >= 0 {
		target, l.Block = target[:p], strings.TrimSpace(target[p+1:])
	}
	if p := strings.Index(target, "#"); p >= 0 {
		target, l.Heading = target[:p], strings.TrimSpace(target[p+1:])
	}
	target = strings.TrimSpace(target)
	if strings.HasSuffix(strings.ToLower(target), ".md") {
		target = strings.TrimSpace(target[:len(target)-3])
	}
	l.Target = target
	return l
}

// stripCode removes fenced code blocks (their lines become empty), inline
// code spans and comments (each becomes brk). Line structure is kept.
func stripCode(s string) string {
	if !strings.ContainsAny(s, "`~%<") {
		return s
	}
	lines := strings.Split(s, "\n")
	var fence text.Fence // the opening fence while inside a block
	inFence := false
	for i, line := range lines {
		if inFence {
			inFence = !fence.Closes(line)
		} else if fence, inFence = text.OpenFence(line); !inFence {
			continue
		}
		lines[i] = ""
	}
	s = strings.Join(lines, "\n")
	s = stripDelimited(s, "%%", "%%")
	s = stripDelimited(s, "<!--", "-->")
	lines = strings.Split(s, "\n")
	for i, line := range lines {
		if strings.Contains(line, "`") {
			lines[i] = stripInlineCode(line)
		}
	}
	return strings.Join(lines, "\n")
}

// stripDelimited replaces every open...close span with brk, keeping the
// newlines inside it. An unclosed open is left as text.
func stripDelimited(text, open, close string) string {
	if !strings.Contains(text, open) {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, open)
		if i < 0 {
			break
		}
		j := strings.Index(text[i+len(open):], close)
		if j < 0 {
			break
		}
		b.WriteString(text[:i])
		b.WriteByte(brk)
		b.WriteString(strings.Repeat("\n", strings.Count(text[i:i+len(open)+j], "\n")))
		text = text[i+len(open)+j+len(close):]
	}
	b.WriteString(text)
	return b.String()
}

// stripInlineCode replaces `code` spans (a run of n backticks closed by a
// run of exactly n) with brk.
func stripInlineCode(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] != '`' {
			b.WriteByte(line[i])
			i++
			continue
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		end := text.CodeSpanEnd(line, i+n, n)
		if end < 0 {
			b.WriteString(line[i : i+n])
			i += n
			continue
		}
		b.WriteByte(brk)
		i = end
	}
	return b.String()
}

// heading is one ATX heading of a note.
type heading struct {
	level int
	text  string
}

// headings returns the ATX headings ("## Name") of a code-stripped text
// that have a text.
func headings(s string) []heading {
	var out []heading
	for _, line := range strings.Split(s, "\n") {
		if level, h := text.ATXHeading(line); h != "" {
			out = append(out, heading{level: level, text: h})
		}
	}
	return out
}

// cleanLine turns one code-stripped Markdown line into prose for the name
// scanner: wikilinks become the text they show, embeds, images, URLs, HTML
// tags and #tags become brk, [text](url) becomes text.
func cleanLine(line string) string {
	if strings.Contains(line, "[[") {
		var b strings.Builder
		last := 0
		scanWikilinks(line, func(l Wikilink, start, end int) {
			b.WriteString(line[last:start])
			switch {
			case l.Embed:
				b.WriteByte(brk)
			case l.Display != "":
				b.WriteString(l.Display)
			default:
				t := l.Target
				if p := strings.LastIndex(t, "/"); p >= 0 {
					t = t[p+1:]
				}
				b.WriteString(t)
			}
			last = end
		})
		b.WriteString(line[last:])
		line = b.String()
	}
	if !strings.ContainsAny(line, "[<#:w") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '!' && strings.HasPrefix(line[i+1:], "[") || c == '[':
			// [text](url) → text; ![alt](url) → brk.
			img := c == '!'
			o := i
			if img {
				o++
			}
			cl := strings.Index(line[o:], "](")
			if cl >= 0 {
				ce := strings.Index(line[o+cl:], ")")
				if ce >= 0 && !strings.Contains(line[o+1:o+cl], "[") {
					if img {
						b.WriteByte(brk)
					} else {
						b.WriteString(line[o+1 : o+cl])
						b.WriteByte(brk)
					}
					i = o + cl + ce + 1
					continue
				}
			}
			b.WriteByte(c)
			i++
		case c == '<':
			if e := strings.IndexByte(line[i:], '>'); e > 0 && !strings.ContainsAny(line[i+1:i+e], "<") {
				b.WriteByte(brk)
				i += e + 1
				continue
			}
			b.WriteByte(c)
			i++
		case c == '#' && (i == 0 || line[i-1] == ' ') && i+1 < len(line) && isLetterAt(line, i+1):
			// An inline #tag (a heading has a space after its #s).
			j := i + 1
			for j < len(line) && line[j] != ' ' && line[j] != '\t' {
				j++
			}
			b.WriteByte(brk)
			i = j
		case (c == 'h' || c == 'w') && (i == 0 || line[i-1] == ' ' || line[i-1] == '(') &&
			(strings.HasPrefix(line[i:], "http://") || strings.HasPrefix(line[i:], "https://") || strings.HasPrefix(line[i:], "www.")):
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != ')' {
				j++
			}
			b.WriteByte(brk)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// isLetterAt reports whether a letter starts at s[i].
func isLetterAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

// cleanName tidies a title, heading or link text into a name: Markdown
// emphasis and brackets removed, a trailing parenthetical dropped
// ("El traidor (secreto)" → "El traidor"), spaces collapsed.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '*', '_', '`', '[', ']', brk:
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	for strings.HasSuffix(s, ")") {
		i := strings.LastIndex(s, "(")
		if i <= 0 {
			break
		}
		t := strings.TrimSpace(s[:i])
		if Normalize(t) == "" {
			break
		}
		s = t
	}
	return strings.Trim(s, " .,;:-—–")
}
