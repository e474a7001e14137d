package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// appendTermsCases are texts whose terms AppendTerms must give as Terms
// does: every stage of both languages, and the edges of each.
var appendTermsCases = []string{
	"",
	" \n\t— ",
	goldenText,
	spanishSample,
	"¿Qué pasó con el archiduque?",
	"## Sesión 12 — El puente\n**Sesión 7** [[Harbin Wester|el viejo]]",
	"cancelación cancelacio\u0301n an\u0303o AÑO pingüino Ñandú ÑANDÚ",
	"l'amour O’Brien 2015 50 3 1º",
	"pue\xffnte \xc3\xa9 \xed\xa0\x80 \xf4\x90\x80\x80",
	"\u0301\u0301a\u0301\u0301\u0301",
	"ﷺ ﬁ ＡＢＣ１２３ İstanbul ΟΔΟΣ ß ẞ",
	"東京タワー Москва ٣٤ 한국어 हिन्दी",
	strings.Repeat("a", 64) + " " + strings.Repeat("á", 32) + " " + strings.Repeat("á", 33) + " " + strings.Repeat("b", 65),
	"a" + strings.Repeat("\u0301", 40),
	"de la que el en y los del se las por un para con no una su al lo como",
	"the of and to in is was that it for on with as his he at by",
	"haciéndola diciéndoselo cayendo logía logías cancelaciones paciencia lentamente felicidad",
	"Running runners generously isn't they'll dogs' caresses",
}

// TestAppendTermsIsJoinedTerms checks that AppendTerms gives
// strings.Join(Terms(s), " ") in both languages, after what dst held.
func TestAppendTermsIsJoinedTerms(t *testing.T) {
	for _, lang := range []string{"es", "en"} {
		a := mustNew(t, lang)
		for _, s := range appendTermsCases {
			want := strings.Join(a.Terms(s), " ")
			if got := string(a.AppendTerms(nil, s)); got != want {
				t.Errorf("%s: AppendTerms(%q) = %q, want %q", lang, s, got, want)
			}
			if got := string(a.AppendTerms([]byte("kept|"), s)); got != "kept|"+want {
				t.Errorf("%s: AppendTerms(\"kept|\", %q) = %q, want %q", lang, s, got, "kept|"+want)
			}
		}
	}
}

// TestAppendTermsGolden checks AppendTerms against the golden digests
// Terms is held to.
func TestAppendTermsGolden(t *testing.T) {
	for lang, rev := range map[string]int{"es": esRevision, "en": enRevision} {
		sum := sha256.Sum256(mustNew(t, lang).AppendTerms(nil, goldenText))
		if got := hex.EncodeToString(sum[:]); got != goldenDigests[lang][rev] {
			t.Errorf("%s: AppendTerms of the golden text has digest %s, want %s", lang, got, goldenDigests[lang][rev])
		}
	}
}

// TestAppendTermsAllocations checks that analysing a Spanish paragraph
// into a buffer with room allocates nothing.
func TestAppendTermsAllocations(t *testing.T) {
	es := mustNew(t, "es")
	buf := make([]byte, 0, 4*len(spanishSample))
	if n := testing.AllocsPerRun(20, func() { buf = es.AppendTerms(buf[:0], spanishSample) }); n != 0 {
		t.Errorf("AppendTerms allocates %.0f times a paragraph, want 0", n)
	}
}

// FuzzAppendTerms checks that AppendTerms gives what Terms gives, joined.
func FuzzAppendTerms(f *testing.F) {
	for _, s := range appendTermsCases {
		f.Add(s)
	}
	es, en := mustNew(f, "es"), mustNew(f, "en")
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range []*Analyzer{es, en} {
			if got, want := string(a.AppendTerms(nil, s)), strings.Join(a.Terms(s), " "); got != want {
				t.Fatalf("%s: AppendTerms(%q) = %q, want %q", a.Lang(), s, got, want)
			}
		}
	})
}

func BenchmarkAppendTermsSpanish(b *testing.B) {
	es := mustNew(b, "es")
	text := spanishText(10 << 10)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = es.AppendTerms(buf[:0], text)
	}
}
