package analysis

import (
	"unicode"
	"unicode/utf8"
)

// unicodeTokenizer emits maximal runs of Unicode letters and digits
// (unicode.IsLetter, unicode.IsDigit). Combining marks (categories Mn, Mc,
// Me) that follow a letter or digit stay in its token, so decomposed (NFD)
// text such as "e"+U+0301 is not split. Everything else separates tokens:
// spaces, punctuation, apostrophes, hyphens, symbols, Markdown syntax
// ("#", "**", "[[...|...]]"), a combining mark with no base, and every byte
// that is not valid UTF-8.
//
// The tokenizer never shortens or drops tokens; overlong tokens are dropped
// later by lengthFilter, once they have been normalised, so that the limit
// does not depend on whether the input was NFC or NFD.
type unicodeTokenizer struct{}

// Tokenize implements Tokenizer. Token terms are substrings of text.
func (unicodeTokenizer) Tokenize(text string) TokenStream {
	// Typical prose has a token every 6 to 7 bytes; this usually avoids
	// regrowing the slice without wasting much on sparse text.
	ts := make(TokenStream, 0, len(text)/6+1)
	start := -1 // byte offset of the token being scanned, or -1
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
			// An invalid byte decodes as (RuneError, 1); RuneError is a
			// symbol (So), so it separates like any other symbol.
		}
		if isWordRune(r) || (start >= 0 && unicode.Is(unicode.M, r)) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			ts = append(ts, Token{Term: text[start:i], Start: start, End: i, Position: len(ts)})
			start = -1
		}
		i += size
	}
	if start >= 0 {
		ts = append(ts, Token{Term: text[start:], Start: start, End: len(text), Position: len(ts)})
	}
	if len(ts) == 0 {
		return nil
	}
	return ts
}

// isWordRune reports whether r starts or continues a token.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
