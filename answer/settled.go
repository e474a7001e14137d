package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	txt "github.com/oraculo/oraculo/text"
)

// Settled returns the length of the longest prefix of a streamed answer,
// text so far, that can be verified before the rest arrives: verifying
// text[:n] alone gives the start of what verifying any continuation of
// text gives (see [Verify]). It is 0 when no such prefix ends a sentence
// yet.
//
// A settled prefix ends a sentence (after ".", "!", "?" or "…", and any
// closing quotes or brackets) or a line, and is followed by white space
// and then by something other than a citation: a sentence whose
// citations come after its full stop waits for them. It never ends inside
// a code span or fence, nor inside a bracket opened on its line, since
// the rest could make a citation of what looks like text, or text of what
// looks like a citation.
func Settled(text string) int {
	settled := 0
	open := 0 // brackets opened on this line and not closed
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\\':
			i += 2
			continue
		case c == '`':
			n := 0
			for i+n < len(text) && text[i+n] == '`' {
				n++
			}
			end := skipCode(text, i+n, n)
			if end == i+n {
				return settled // an open code span or fence: the rest may close it
			}
			i = end
			continue
		case c == '[':
			open++
		case c == ']':
			if open > 0 {
				open--
			}
		case c == '\n':
			open = 0
		}
		if (c == ' ' || c == '\n' || c == '\t') && open == 0 && i > 0 && endsSentence(text[:i], c == '\n') {
			if next := nextVisible(text, i); next > 0 && text[next] != '[' {
				settled = i
			}
		}
		i++
	}
	return settled
}

// endsSentence reports whether s ends a sentence, or a line when newline
// (a list item or a heading ends there without a full stop).
func endsSentence(s string, newline bool) bool {
	s = strings.TrimRight(s, " \t")
	if s == "" {
		return false
	}
	if newline {
		return true
	}
	for s != "" {
		r, size := utf8.DecodeLastRuneInString(s)
		switch {
		case r == '.' || r == '!' || r == '?' || r == '…':
			return true
		case r == ']':
			// A citation after the full stop: "murió. [Sesión 3]".
			k := strings.LastIndexByte(s, '[')
			if k < 0 {
				return false
			}
			s = strings.TrimRight(s[:k], " \t")
		case txt.IsCloser(r):
			s = s[:len(s)-size]
		default:
			return false
		}
	}
	return false
}

// nextVisible returns the index of the first byte after text[i:]'s white
// space, or 0 when the text ends before one.
func nextVisible(text string, i int) int {
	for j := i; j < len(text); j++ {
		if c := text[j]; c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			return j
		}
	}
	return 0
}

// CheckSettled is what a stream may show of an answer while text, the
// answer so far, is still growing: the settled prefix of text (see
// [Settled]) checked and marked as [Check] does, less its last sentence
// when that one is marked unsupported, since what follows may yet extend
// it. Checking the whole answer gives text that starts with its Text and
// segments that start with its Segments, but for the last one, which the
// whole may extend.
func CheckSettled(text string, ctx Context, lang string) Verification {
	n := Settled(text)
	if n == 0 {
		return Verification{}
	}
	v := Check(text[:n], ctx, lang)
	k := len(v.Segments)
	if k < 2 || v.Segments[k-1].Mark != MarkUnsupported {
		return v
	}
	v.Segments = v.Segments[:k-2]
	for len(v.Segments) > 0 {
		last := &v.Segments[len(v.Segments)-1]
		if len(last.Citations) > 0 || last.Supported != nil || last.Mark != "" {
			break
		}
		if last.Text = strings.TrimRightFunc(last.Text, unicode.IsSpace); last.Text != "" {
			break
		}
		v.Segments = v.Segments[:len(v.Segments)-1]
	}
	var b strings.Builder
	for _, s := range v.Segments {
		b.WriteString(s.Text)
	}
	v.Text = b.String()
	v.Sentences--
	if len(v.Uncited) > 0 {
		v.Uncited = v.Uncited[:len(v.Uncited)-1]
	}
	return v
}
