package compendium

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns the form of s used to compare names: lowercase, accents
// folded, every run of characters other than letters and digits collapsed
// to a single space, no leading or trailing space.
//
// "Ciénaga de Murgo" → "cienaga de murgo", "Kael-Dur" → "kael dur",
// "  ¡Ribafría!  " → "ribafria".
//
// Accents are folded with ñ → n as well (unlike the full-text analyser,
// which keeps ñ): names are often typed without it ("Penaurora" for
// "Peñaurora"), and two entity names that differ only by ñ are rarer than
// that. Matching (Matcher) uses exactly this folding, token by token.
func Normalize(s string) string {
	var buf []byte
	forEachToken(s, func(start, end int) {
		if len(buf) > 0 {
			buf = append(buf, ' ')
		}
		buf = appendFolded(buf, s[start:end])
	})
	return string(buf)
}

// forEachToken calls f with the byte span of every token of s: a maximal
// run of letters and digits, with the combining marks that follow them
// (so decomposed "e"+U+0301 is not split). Everything else separates
// tokens, including hyphens and apostrophes ("Kael-Dur" is two tokens) and
// invalid UTF-8.
func forEachToken(s string, f func(start, end int)) {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				if start < 0 {
					start = i
				}
			} else if start >= 0 {
				f(start, i)
				start = -1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || start >= 0 && unicode.Is(unicode.M, r)) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			f(start, i)
			start = -1
		}
		i += size
	}
	if start >= 0 {
		f(start, len(s))
	}
}

// appendFolded appends tok lowercased and without diacritics to dst.
func appendFolded(dst []byte, tok string) []byte {
	for i := 0; i < len(tok); {
		c := tok[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(tok[i:])
		i += size
		dst = appendFoldedRune(dst, r)
	}
	return dst
}

// appendFoldedRune appends the folded lowercase form of one non-ASCII rune.
func appendFoldedRune(dst []byte, r rune) []byte {
	r = unicode.ToLower(r)
	if latinFoldFirst <= r && r <= latinFoldLast {
		if f := latinFold[r-latinFoldFirst]; f != "" {
			return append(dst, f...)
		}
	}
	if isDiacritic(r) {
		return dst
	}
	if sp, ok := foldSpecial[r]; ok {
		return append(dst, sp...)
	}
	if r < utf8.RuneSelf {
		return append(dst, byte(r))
	}
	return append(dst, foldGeneral(r)...)
}

// foldGeneral decomposes r canonically and drops its diacritics; a rune
// without diacritics is returned unchanged (Hangul syllables, for instance,
// are not split into jamo).
func foldGeneral(r rune) string {
	s := string(r)
	d := norm.NFD.String(s)
	if d == s {
		return s
	}
	var b strings.Builder
	dropped := false
	for _, x := range d {
		if isDiacritic(x) {
			dropped = true
			continue
		}
		x = unicode.ToLower(x)
		if sp, ok := foldSpecial[x]; ok {
			b.WriteString(sp) // "ǣ" → "æ" + macron → "ae"
		} else {
			b.WriteRune(x)
		}
	}
	if !dropped {
		return s
	}
	return b.String()
}

// latinFold[r-latinFoldFirst] is the folded form of the lowercase letters
// of U+00C0–U+024F whose folding is ASCII ("" for the others).
const latinFoldFirst, latinFoldLast = 0xC0, 0x24F

var latinFold = func() (t [latinFoldLast - latinFoldFirst + 1]string) {
	for r := rune(latinFoldFirst); r <= latinFoldLast; r++ {
		if unicode.ToLower(r) != r {
			continue // only lowercase input reaches the table
		}
		var f string
		if sp, ok := foldSpecial[r]; ok {
			f = sp
		} else {
			f = foldGeneral(r)
		}
		ascii := true
		for i := 0; i < len(f); i++ {
			if f[i] >= utf8.RuneSelf {
				ascii = false
			}
		}
		if ascii {
			t[r-latinFoldFirst] = f
		}
	}
	return t
}()

// foldSpecial spells out letters that have no canonical decomposition.
var foldSpecial = map[rune]string{
	'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o",
	'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th",
	'ı': "i", 'ſ': "s", 'ª': "a", 'º': "o",
}

// isDiacritic reports whether r is in one of the combining diacritical
// marks blocks; marks of other scripts are kept.
func isDiacritic(r rune) bool {
	switch {
	case r < 0x0300:
		return false
	case r <= 0x036F, 0x1AB0 <= r && r <= 0x1AFF, 0x1DC0 <= r && r <= 0x1DFF,
		0x20D0 <= r && r <= 0x20FF, 0xFE20 <= r && r <= 0xFE2F:
		return true
	}
	return false
}
