package text

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold returns s lowercased and without diacritics, so that spellings that
// differ only in case or accents compare equal: "Sesión" → "sesion",
// "Pingüino" → "pinguino", "GARÇON" → "garcon", "Año" → "ano". Precomposed
// (NFC) and decomposed (NFD) input fold alike.
//
// s is lowercased with Unicode simple case mapping (as strings.ToLower),
// decomposed canonically (NFD); the marks of the combining diacritics
// blocks are dropped; a few Latin letters without a decomposition are
// spelled out (ß → ss, æ → ae, œ → oe, ø → o, ł → l, đ/ð → d, þ → th,
// ı → i, ſ → s, ª → a, º → o); final sigma ς becomes σ; fullwidth ASCII
// letters and digits become ASCII; what remains is recomposed (NFC).
// Marks that belong to other scripts (Devanagari vowel signs, Hebrew
// points...) are kept, so folding never merges words of those scripts.
// Invalid UTF-8 becomes U+FFFD.
//
// Fold is idempotent. ASCII input without capitals is returned as is,
// without allocating.
func Fold(s string) string { return fold(s, false) }

// FoldKeepEnye is [Fold], except that ñ stays ñ: in Spanish it is a letter
// of its own ("año" is not "ano"). Fold(FoldKeepEnye(s)) == Fold(s).
func FoldKeepEnye(s string) string { return fold(s, true) }

// AppendFold appends Fold(s) to dst and returns the extended buffer.
func AppendFold(dst []byte, s string) []byte { return appendFold(dst, s, false) }

// AppendFoldKeepEnye appends FoldKeepEnye(s) to dst and returns the
// extended buffer.
func AppendFoldKeepEnye(dst []byte, s string) []byte { return appendFold(dst, s, true) }

func fold(s string, keepEnye bool) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	return string(appendFold(make([]byte, 0, len(s)), s, keepEnye))
}

// appendFold appends the folding of s to dst. Text made of ASCII and of
// the precomposed Latin letters of U+00C0–U+024F (all of Spanish) takes a
// table lookup per letter, which gives what appendFoldGeneral would.
func appendFold(dst []byte, s string, keepEnye bool) []byte {
	start := len(dst)
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case keepEnye && (r == 'ñ' || r == 'Ñ'):
			dst = append(dst, "ñ"...)
			continue
		case latinFoldFirst <= r && r <= latinFoldLast:
			if f := latinFold[r-latinFoldFirst]; f != "" {
				dst = append(dst, f...)
				continue
			}
		}
		return appendFoldGeneral(dst[:start], s, keepEnye)
	}
	return dst
}

// latinFold[r-latinFoldFirst] is the folding of r for the letters of
// U+00C0–U+024F whose folding is ASCII, and "" for the others.
const latinFoldFirst, latinFoldLast = 0xC0, 0x24F

var latinFold = func() (t [latinFoldLast - latinFoldFirst + 1]string) {
	for r := rune(latinFoldFirst); r <= latinFoldLast; r++ {
		if f := string(appendFoldGeneral(nil, string(r), false)); isASCII(f) {
			t[r-latinFoldFirst] = f
		}
	}
	return t
}()

// appendFoldGeneral is appendFold for any input: lowercase, canonical
// decomposition, diacritics dropped, recomposition.
func appendFoldGeneral(dst []byte, s string, keepEnye bool) []byte {
	d := norm.NFD.String(strings.ToLower(s))
	buf := make([]byte, 0, len(d))
	for _, r := range d {
		switch {
		case isDiacritic(r):
			// U+0303 COMBINING TILDE right after n (other diacritics
			// between them have been dropped already) makes ñ.
			if keepEnye && r == 0x0303 && len(buf) > 0 && buf[len(buf)-1] == 'n' {
				buf = append(buf[:len(buf)-1], "ñ"...)
			}
		case 0xFF10 <= r && r <= 0xFF19, 0xFF41 <= r && r <= 0xFF5A:
			// Fullwidth digits and (already lowercase) letters.
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
		return append(dst, buf...)
	}
	return append(dst, norm.NFC.Bytes(buf)...)
}

// foldSpecial spells out lowercase letters that have no canonical
// decomposition.
var foldSpecial = map[rune]string{
	'ß': "ss",
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
