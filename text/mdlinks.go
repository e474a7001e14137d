package text

import (
	"net/url"
	"strings"
)

// MarkdownLink is one Markdown-style link of a note ("[el viejo](DM/Plan%20secreto.md)",
// "[x](<DM/Plan secreto.md>)"), image ("![mapa](DM/mapa.png)") or link
// reference definition ("[ref]: DM/Plan.md"), as [EditMarkdownLinks]
// reads it.
type MarkdownLink struct {
	// Destination is the link's destination as written, without the
	// angle brackets of "<...>" ("DM/Plan%20secreto.md#Fase",
	// "https://example.com").
	Destination string
	// Text is the link's text (an image's alt text, a definition's label)
	// as written.
	Text string
	// Image reports an image ("![alt](dest)").
	Image bool
	// Definition reports a link reference definition ("[ref]: dest"),
	// which shows nothing.
	Definition bool
	// Shown is what a reader sees of it once the link is gone: a link's
	// text; an image's alt text when it embeds a note, nothing when it
	// embeds an attachment (see [Render] for embeds); nothing for a
	// definition.
	Shown string
}

// NotePath returns the path of the file the link's destination names,
// URL-decoded, without "#heading", "?query" and leading "./" or "../"
// ("DM/Plan secreto.md" for "../DM/Plan%20secreto.md#Fase"), and true; or
// false when the destination names no file of the notes: an URL with a
// scheme ("https:", "mailto:"), one with a host ("//host/x"), an anchor
// in the same note ("#Arriba"), or nothing. An Obsidian URI
// ("obsidian://open?vault=v&file=DM%2FPlan") names the note of its
// "file" parameter ("" when it has none, which names no note).
func (l MarkdownLink) NotePath() (string, bool) {
	d := strings.TrimSpace(l.Destination)
	if d == "" || strings.HasPrefix(d, "#") || strings.HasPrefix(d, "//") {
		return "", false
	}
	if scheme, ok := urlScheme(d); ok {
		if !strings.EqualFold(scheme, "obsidian") {
			return "", false
		}
		u, err := url.Parse(d)
		if err != nil {
			return "", true
		}
		return u.Query().Get("file"), true
	}
	if k := strings.IndexAny(d, "#?"); k >= 0 {
		d = d[:k]
	}
	if p, err := url.PathUnescape(d); err == nil {
		d = p
	}
	for {
		switch {
		case strings.HasPrefix(d, "./"):
			d = d[2:]
		case strings.HasPrefix(d, "../"):
			d = d[3:]
		default:
			return d, true
		}
	}
}

// urlScheme returns the scheme of an URL that starts with one ("https"
// of "https://x"): a letter, then 1 to 31 letters, digits, "+", "." or
// "-", then ":". A drive letter ("C:") is no scheme.
func urlScheme(s string) (string, bool) {
	for i := 0; i < len(s) && i <= 32; i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'):
		case c == ':' && i >= 2:
			return s[:i], true
		default:
			return "", false
		}
	}
	return "", false
}

// EditMarkdownLinks returns md as written, but for the Markdown links,
// images and link reference definitions that edit rewrites: edit returns
// what to write instead of the whole link ("[text](dest)") or definition
// line's rest, and true, or false to keep it as written. Nothing inside
// code (spans or fenced blocks) is a link, nor is a wikilink; the text of
// a kept link is read for links too ("[![alt](a.png)](b.md)").
// Everything else is kept byte for byte. Pure; never panics.
func EditMarkdownLinks(md string, edit func(l MarkdownLink) (string, bool)) string {
	if !strings.Contains(md, "]") {
		return md
	}
	return editOutsideFences(md, func(b *strings.Builder, line string) {
		if start, l, ok := linkDefinition(line); ok {
			if s, ok := edit(l); ok {
				b.WriteString(line[:start])
				b.WriteString(s)
				return
			}
		}
		editLinksInline(b, line, edit)
	})
}

// linkDefinition reads a link reference definition ("[ref]: dest
// "title""): where it starts (after up to three spaces) and the link.
func linkDefinition(line string) (int, MarkdownLink, bool) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '[' || strings.HasPrefix(line[i:], "[[") || strings.HasPrefix(line[i:], "[^") {
		return 0, MarkdownLink{}, false
	}
	end := strings.IndexByte(line[i:], ']')
	if end < 2 || !strings.HasPrefix(line[i+end:], "]:") {
		return 0, MarkdownLink{}, false
	}
	label := line[i+1 : i+end]
	if strings.Contains(label, "[") {
		return 0, MarkdownLink{}, false
	}
	rest := strings.TrimLeft(line[i+end+2:], " \t")
	dest := ""
	if strings.HasPrefix(rest, "<") {
		k := strings.IndexByte(rest, '>')
		if k < 0 {
			return 0, MarkdownLink{}, false
		}
		dest, rest = rest[1:k], rest[k+1:]
	} else {
		k := strings.IndexAny(rest, " \t")
		if k < 0 {
			k = len(rest)
		}
		dest, rest = rest[:k], rest[k:]
	}
	// What follows the destination is nothing or a title: else the line
	// is text ("[Nota]: algo importante").
	title := strings.TrimSpace(rest)
	if dest == "" || title != "" && !isLinkTitle(title) {
		return 0, MarkdownLink{}, false
	}
	return i, MarkdownLink{Destination: dest, Text: label, Definition: true}, true
}

// isLinkTitle reports a link title: text in "", ” or ().
func isLinkTitle(s string) bool {
	if len(s) < 2 {
		return false
	}
	closing := map[byte]byte{'"': '"', '\'': '\'', '(': ')'}[s[0]]
	return closing != 0 && s[len(s)-1] == closing
}

// editLinksInline writes the inline text s with its Markdown links edited
// (see [EditMarkdownLinks]).
func editLinksInline(b *strings.Builder, s string, edit func(l MarkdownLink) (string, bool)) {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i += 2
		case c == '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			if end := CodeSpanEnd(s, i+n, n); end >= 0 {
				i = end
			} else {
				i += n
			}
		case c == '[' && strings.HasPrefix(s[i:], "[["):
			if _, end, ok := wikilinkAt(s, i); ok {
				i = end
			} else {
				i += 2
			}
		case c == '[' || c == '!' && strings.HasPrefix(s[i:], "!["):
			image := c == '!'
			open := i
			if image {
				open++
			}
			l, textEnd, end, ok := markdownLinkAt(s, open)
			if !ok {
				i = open + 1
				continue
			}
			l.Image = image
			l.Shown = l.Text
			if image {
				if p, isPath := l.NotePath(); isPath && isAttachment(p) {
					l.Shown = ""
				}
			}
			b.WriteString(s[last:i])
			if w, ok := edit(l); ok {
				b.WriteString(w)
			} else {
				b.WriteString(s[i : open+1])
				editLinksInline(b, s[open+1:textEnd], edit)
				b.WriteString(s[textEnd:end])
			}
			i, last = end, end
		default:
			i++
		}
	}
	b.WriteString(s[last:])
}

// markdownLinkAt reads the inline link whose "[" is at s[i]: the link
// (Destination and Text), the index of the "]" closing its text and the
// index after its ")".
func markdownLinkAt(s string, i int) (l MarkdownLink, textEnd, end int, ok bool) {
	shut := matchingBracket(s, i)
	if shut < 0 || shut+1 >= len(s) || s[shut+1] != '(' {
		return MarkdownLink{}, 0, 0, false
	}
	j := shut + 2
	for j < len(s) && isSpaceByte(s[j]) {
		j++
	}
	var dest string
	if j < len(s) && s[j] == '<' {
		k := strings.IndexAny(s[j+1:], "<>")
		if k < 0 || s[j+1+k] != '>' {
			return MarkdownLink{}, 0, 0, false
		}
		dest, j = s[j+1:j+1+k], j+1+k+1
	} else {
		from, depth := j, 0
	dest:
		for ; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '(':
				depth++
			case ')':
				if depth == 0 {
					break dest
				}
				depth--
			case ' ', '\t':
				break dest
			}
		}
		if j > len(s) {
			j = len(s)
		}
		dest = s[from:j]
	}
	for j < len(s) && isSpaceByte(s[j]) {
		j++
	}
	if j < len(s) && (s[j] == '"' || s[j] == '\'' || s[j] == '(') {
		closing := s[j]
		if closing == '(' {
			closing = ')'
		}
		k := strings.IndexByte(s[j+1:], closing)
		if k < 0 {
			return MarkdownLink{}, 0, 0, false
		}
		j += 1 + k + 1
		for j < len(s) && isSpaceByte(s[j]) {
			j++
		}
	}
	if j >= len(s) || s[j] != ')' {
		return MarkdownLink{}, 0, 0, false
	}
	return MarkdownLink{Destination: dest, Text: s[i+1 : shut]}, shut, j + 1, true
}
