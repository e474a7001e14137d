package text

import (
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsWordRune reports whether r is a letter or a digit: what words are made
// of.
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Words yields the byte span [start, end) of every word of s, in order. A
// word is a maximal run of letters and digits together with the combining
// marks (categories Mn, Mc, Me) that follow them, so decomposed (NFD) text
// such as "e"+U+0301 is one word. Everything else separates words:
// spaces, punctuation, apostrophes, hyphens ("Kael-Dur" is two words),
// symbols, a combining mark with no base, and every byte that is not valid
// UTF-8.
func Words(s string) iter.Seq2[int, int] {
	return func(yield func(start, end int) bool) {
		start := -1 // byte offset of the word being scanned, or -1
		for i := 0; i < len(s); {
			r, size := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				// An invalid byte decodes as (RuneError, 1); RuneError is
				// a symbol, so it separates like any other symbol.
				r, size = utf8.DecodeRuneInString(s[i:])
			}
			if IsWordRune(r) || start >= 0 && unicode.Is(unicode.M, r) {
				if start < 0 {
					start = i
				}
			} else if start >= 0 {
				if !yield(start, i) {
					return
				}
				start = -1
			}
			i += size
		}
		if start >= 0 {
			yield(start, len(s))
		}
	}
}

// Collapse trims s and turns each run of whitespace into one space.
func Collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// IndexWord returns the byte offset of the first occurrence of w in s
// from from on that stands as whole words (no letter or digit touches it
// on either side), or -1: "Kleb" is found in "a Kleb." but not in
// "Klebber".
func IndexWord(s, w string) int { return IndexWordFrom(s, w, 0) }

// IndexWordFrom is [IndexWord] from the byte offset from on.
func IndexWordFrom(s, w string, from int) int {
	if w == "" {
		return -1
	}
	for from <= len(s) {
		k := strings.Index(s[from:], w)
		if k < 0 {
			return -1
		}
		i, j := from+k, from+k+len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[j:])
		first, _ := utf8.DecodeRuneInString(w)
		last, _ := utf8.DecodeLastRuneInString(w)
		if (i == 0 || !IsWordRune(before) || !IsWordRune(first)) && (j == len(s) || !IsWordRune(after) || !IsWordRune(last)) {
			return i
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		from = i + n
	}
	return -1
}
