package analysis

import (
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// FuzzTerms checks, for both languages, that Terms never panics, that every
// term is non-empty, valid UTF-8, at most MaxTermBytes long, free of spaces
// and made of letters, digits and marks only (a-z and 0-9 in ASCII), that
// Terms is deterministic, and that NFC and NFD spellings of
// the same text give the same terms.
func FuzzTerms(f *testing.F) {
	for _, s := range []string{
		"",
		"¿Qué pasó con el archiduque?",
		"## Sesión 12 — El puente\n**Sesión 7** [[Harbin Wester|el viejo]]",
		"cancelación cancelacio\u0301n an\u0303o AÑO pingüino",
		"l'amour O’Brien 2015 50 3 1º",
		"pue\xffnte \xc3\xa9 \xed\xa0\x80 \xf4\x90\x80\x80",
		"\u0301\u0301a\u0301\u0301\u0301",
		"ﷺ ﬁ ＡＢＣ１２３ İstanbul ΟΔΟΣ ß ẞ",
		"東京タワー Москва ٣٤ 한국어 हिन्दी",
		strings.Repeat("a", 70),
		"a" + strings.Repeat("\u0301", 40),
	} {
		f.Add(s)
	}
	es, en := mustNew(f, "es"), mustNew(f, "en")
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range []*Analyzer{es, en} {
			terms := a.Terms(s)
			for _, term := range terms {
				if term == "" || len(term) > MaxTermBytes || !utf8.ValidString(term) ||
					strings.ContainsFunc(term, unicode.IsSpace) || strings.ContainsFunc(term, badTermRune) {
					t.Fatalf("%s: Terms(%q) has bad term %q", a.Lang(), s, term)
				}
			}
			if again := a.Terms(s); !reflect.DeepEqual(terms, again) {
				t.Fatalf("%s: Terms(%q) not deterministic: %q then %q", a.Lang(), s, terms, again)
			}
			if utf8.ValidString(s) {
				nfc, nfd := a.Terms(norm.NFC.String(s)), a.Terms(norm.NFD.String(s))
				if !reflect.DeepEqual(nfc, nfd) {
					t.Fatalf("%s: Terms(%q): NFC gives %q, NFD gives %q", a.Lang(), s, nfc, nfd)
				}
			}
		}
	})
}

// badTermRune reports whether r may not appear in a term.
func badTermRune(r rune) bool {
	if r < utf8.RuneSelf {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.M, r)
}
