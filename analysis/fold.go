package analysis

import (
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// foldFilter removes diacritics so that accented and unaccented spellings
// give the same term ("sesión" → "sesion", "pingüino" → "pinguino",
// "garçon" → "garcon"), whether the input was precomposed (NFC) or
// decomposed (NFD).
//
// Each term is decomposed canonically (NFD); combining diacritical marks
// are dropped; a few Latin letters without a decomposition are spelled out
// (ß → ss, æ → ae, œ → oe, ø → o, ł → l, đ/ð → d, þ → th, ı → i, ſ → s,
// ª → a, º → o), final sigma ς becomes σ and fullwidth ASCII letters and
// digits become ASCII; what remains is recomposed (NFC). With keepEnye a
// tilde on n is kept, since ñ is a separate letter in Spanish ("año" is not
// "ano"); without it ñ folds to n.
//
// Only marks from the combining-diacritics blocks are removed; marks that
// are part of other scripts (Devanagari vowel signs, Hebrew points...) are
// kept, so folding never merges words of those scripts. Terms must already
// be lowercase.
type foldFilter struct {
	keepEnye bool
}

// Filter implements TokenFilter.
func (f foldFilter) Filter(ts TokenStream) TokenStream {
	for i := range ts {
		ts[i].Term = fold(ts[i].Term, f.keepEnye)
	}
	return ts
}

// fold returns s without diacritics; see foldFilter. ASCII input is
// returned as is, without allocating.
func fold(s string, keepEnye bool) string {
	if isASCII(s) {
		return s
	}
	// Fast path for text made of ASCII and precomposed Latin-1 and Latin
	// Extended-A letters (all of Spanish): a table lookup per letter gives
	// what the general path below would.
	buf := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			buf = append(buf, byte(r))
			continue
		case r == 'ñ' && keepEnye:
			buf = append(buf, "ñ"...)
			continue
		case latinFoldFirst <= r && r <= latinFoldLast:
			if f := latinFold[r-latinFoldFirst]; f != "" {
				buf = append(buf, f...)
				continue
			}
		}
		return foldGeneral(s, keepEnye)
	}
	return string(buf)
}

// latinFold[r-latinFoldFirst] is foldGeneral(string(r), false) for the
// letters of U+00C0–U+017F whose folding is ASCII, and "" otherwise.
const latinFoldFirst, latinFoldLast = 0xC0, 0x17F

var latinFold = func() (t [latinFoldLast - latinFoldFirst + 1]string) {
	for r := rune(latinFoldFirst); r <= latinFoldLast; r++ {
		if f := foldGeneral(string(r), false); isASCII(f) {
			t[r-latinFoldFirst] = f
		}
	}
	return t
}()

// foldGeneral is fold for any input: canonical decomposition, diacritics
// dropped, recomposition.
func foldGeneral(s string, keepEnye bool) string {
	d := norm.NFD.String(s)
	buf := make([]byte, 0, len(d))
	for _, r := range d {
		switch {
		case isDiacritic(r):
			// U+0303 COMBINING TILDE right after n (other diacritics
			// between them have been dropped already) makes ñ.
			if keepEnye && r == 0x0303 && len(buf) > 0 && buf[len(buf)-1] == 'n' {
				buf = append(buf[:len(buf)-1], "ñ"...)
			}
		case r >= 0xFF10 && r <= 0xFF5A:
			// Fullwidth digits and letters (only those reach here).
			buf = utf8.AppendRune(buf, r-0xFEE0)
		default:
			if sp, ok := foldSpecial[r]; ok {
				buf = append(buf, sp...)
			} else {
				buf = utf8.AppendRune(buf, r)
			}
		}
	}
	if isASCII(string(buf)) {
		return string(buf)
	}
	return norm.NFC.String(string(buf))
}

// foldSpecial spells out letters that have no canonical decomposition.
var foldSpecial = map[rune]string{
	'ß': "ss", 'ẞ': "ss",
	'æ': "ae", 'œ': "oe", 'ø': "o",
	'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th",
	'ı': "i", 'ſ': "s",
	'ª': "a", 'º': "o",
	'ς': "σ",
}

// isDiacritic reports whether r is in one of the combining diacritical
// marks blocks (this includes U+034F COMBINING GRAPHEME JOINER, which the
// normaliser inserts into very long runs of marks).
func isDiacritic(r rune) bool {
	switch {
	case r < 0x0300:
		return false
	case r <= 0x036F: // Combining Diacritical Marks
		return true
	case 0x1AB0 <= r && r <= 0x1AFF: // ... Extended
		return true
	case 0x1DC0 <= r && r <= 0x1DFF: // ... Supplement
		return true
	case 0x20D0 <= r && r <= 0x20FF: // ... for Symbols
		return true
	case 0xFE20 <= r && r <= 0xFE2F: // Combining Half Marks
		return true
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
