package analysis

import "github.com/oraculo/oraculo/text"

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

// Tokenize implements Tokenizer. Token terms are substrings of text; the
// tokens are [text.Words].
func (unicodeTokenizer) Tokenize(s string) TokenStream {
	// Typical prose has a token every 6 to 7 bytes; this usually avoids
	// regrowing the slice without wasting much on sparse text.
	ts := make(TokenStream, 0, len(s)/6+1)
	for start, end := range text.Words(s) {
		ts = append(ts, Token{Term: s[start:end], Start: start, End: end, Position: len(ts)})
	}
	if len(ts) == 0 {
		return nil
	}
	return ts
}
