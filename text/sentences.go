package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentences splits one paragraph into sentences, with its whitespace
// collapsed: joined by single spaces, they give Collapse(paragraph).
//
// A sentence ends at ., !, ?, … (and the closing quotes, parentheses and
// emphasis marks right after them, see [IsCloser]) followed by a space,
// except after common Spanish and English abbreviations ("Sr.", "p. ej.",
// "etc." before a lowercase word) and initials ("J. R. Pérez"); after !, ?
// or … it goes on when a lowercase letter, a comma or a semicolon follows
// ("¡Cuidado! gritó Nix").
//
// atom, if not nil, tells inline spans that are never cut, such as a
// citation whose label holds a period: atom(s, i) returns the end of the
// span that starts at s[i] (s being the collapsed paragraph), or -1 when
// none starts there. An atom right after a sentence's end, after one
// space, belongs to that sentence ("Murió. [Sesión 3]").
func Sentences(paragraph string, atom func(s string, i int) int) []string {
	p := Collapse(paragraph)
	atomAt := func(i int) int {
		if atom == nil {
			return -1
		}
		if e := atom(p, i); e > i && e <= len(p) {
			return e
		}
		return -1
	}
	var out []string
	start := 0
	for i := 0; i < len(p); {
		if e := atomAt(i); e >= 0 {
			i = e
			continue
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		if !isTerminator(r) {
			i += size
			continue
		}
		end := i + size
		for end < len(p) {
			r2, s2 := utf8.DecodeRuneInString(p[end:])
			if !isTerminator(r2) && !IsCloser(r2) {
				break
			}
			if isTerminator(r2) && r == '.' {
				r = '…' // "..." or ".!" ends like "…"
			}
			end += s2
		}
		for end+1 < len(p) && p[end] == ' ' {
			e := atomAt(end + 1)
			if e < 0 {
				break
			}
			end = e
		}
		if end >= len(p) {
			break
		}
		if p[end] != ' ' || !sentenceEnds(p, start, i, r, p[end+1:]) {
			i = end
			continue
		}
		if s := strings.TrimSpace(p[start:end]); s != "" {
			out = append(out, s)
		}
		start = end + 1
		i = start
	}
	if s := strings.TrimSpace(p[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

func isTerminator(r rune) bool {
	return r == '.' || r == '!' || r == '?' || r == '…'
}

// IsCloser reports a character that may follow a sentence's final
// punctuation and still belong to the sentence: a closing quote or
// parenthesis, or an emphasis mark.
func IsCloser(r rune) bool {
	return strings.ContainsRune("\"'»”’)*_", r)
}

// sentenceEnds decides whether the terminator r at p[i] ends the sentence
// that started at p[start], given the text after the following space.
func sentenceEnds(p string, start, i int, r rune, next string) bool {
	n, _ := utf8.DecodeRuneInString(next)
	lower := unicode.IsLower(n)
	if r != '.' {
		// "¡Cuidado! gritó Nix": Spanish dialogue goes on in lowercase.
		return !lower && n != ',' && n != ';'
	}
	w := wordBefore(p[start:i])
	if w == "" {
		return true
	}
	fw := Fold(w)
	if abbreviations[fw] {
		return fw == "etc" && !lower
	}
	// An initial: "J. R. Pérez".
	if utf8.RuneCountInString(w) == 1 && unicode.IsUpper([]rune(w)[0]) {
		return false
	}
	return true
}

// wordBefore returns the letters right before the end of s.
func wordBefore(s string) string {
	j := len(s)
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		if !unicode.IsLetter(r) {
			break
		}
		j -= size
	}
	return s[j:]
}

// abbreviations are folded words that a period does not end a sentence
// after (Spanish and English).
var abbreviations = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"sr", "sra", "srta", "sres", "sras", "d", "dna", "dr", "dra",
		"lic", "ing", "arq", "prof", "profa", "gral", "cap", "tte", "cnel",
		"sgto", "cmdt", "sto", "sta", "fr", "mons", "etc", "aprox", "approx",
		"p", "pp", "pag", "pags", "num", "nro", "art", "vol", "ed", "ej",
		"vs", "cf", "av", "avda", "mr", "mrs", "ms", "st", "jr", "ca", "e",
		"g", "ee", "uu", "fig", "cia", "dpto", "esq", "ud", "uds", "vd", "vds",
	} {
		m[w] = true
	}
	return m
}()
