package termrender

import (
	"fmt"
	"strings"
)

// Escape returns s as a terminal should show a name, a label or any other
// one-line text the user does not control the whole of (a file name, a
// heading, a memory key): every character a terminal would act on rather
// than show is written as a visible escape instead — line breaks and tabs
// as \n, \r and \t, other control characters as \x1b or \u009b — and so
// are the bidirectional controls that reorder what follows (\u202e). A
// string with none is returned as is.
func Escape(s string) string { return escape(s, false) }

// EscapeText is [Escape] for text shown over several lines (a passage,
// an answer): line breaks and tabs are kept.
func EscapeText(s string) string { return escape(s, true) }

func escape(s string, text bool) string {
	i := strings.IndexFunc(s, func(r rune) bool { return escaped(r, text) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if escaped(r, text) {
			b.WriteString(escapeRune(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// escaped reports whether r is shown escaped: C0 and C1 controls and DEL
// (line breaks and tabs too, unless in text), and the bidirectional
// embeddings, overrides and isolates. Bytes that are not UTF-8 are left
// alone: a UTF-8 terminal shows them as a replacement character, and a
// text streamed in pieces may cut a character in two.
func escaped(r rune, text bool) bool {
	switch {
	case text && (r == '\n' || r == '\t'):
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// escapeRune writes r as Go would in a quoted string.
func escapeRune(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	if r < 0x80 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
