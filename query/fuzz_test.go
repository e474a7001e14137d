package query

import (
	"slices"
	"strings"
	"testing"
)

// FuzzAnalyze checks the guarantees of the package doc on any input:
// no panic, Sessions nil or ascending, distinct and within known, Said
// empty exactly when there is no filter and made of pieces of the
// question, Kind one of the two kinds, Until bounding Sessions.
func FuzzAnalyze(f *testing.F) {
	seeds := []string{
		"¿Qué pasó en la sesión 12?", "entre la sesión 3 y la 5", "sessions 3, 4 and 7",
		"las últimas tres sesiones", "the last three sessions", "S3-S5", "sesión ciento noventa y nueve",
		"one hundred and five", "desde la sesión 100", "¿Qué fue de Harbin?", "sesion\u0301 12", "\xff sesión \xfe 3",
		"sesiones 99999 a 0", "la penúltima sesión", "sesión nº 12 y 13, 14 o 15 a 20",
		"hasta la sesión 20", "antes de la sesión 1", "En la sesión 20, ¿seguía vivo?", "as of session 3", "by session 0",
	}
	for _, s := range seeds {
		f.Add(s, "", []byte{1, 2, 3, 5, 12, 100})
		f.Add(s, "en", []byte{})
	}
	f.Fuzz(func(t *testing.T, q, lang string, k []byte) {
		known := make([]int, len(k))
		for i, b := range k {
			known[i] = int(b) - 10 // unsorted, repeated, negative: tolerated
		}
		a := Analyze(q, lang, known)
		if a.Kind != KindArc && a.Kind != KindLookup {
			t.Fatalf("Kind %q", a.Kind)
		}
		if (a.Sessions == nil) != (a.Said == "") {
			t.Fatalf("Sessions %v but Said %q", a.Sessions, a.Said)
		}
		if a.Sessions != nil && len(a.Sessions) == 0 {
			t.Fatalf("empty non-nil Sessions")
		}
		for i, s := range a.Sessions {
			if i > 0 && a.Sessions[i-1] >= s {
				t.Fatalf("Sessions %v not ascending and distinct", a.Sessions)
			}
			if !slices.Contains(known, s) {
				t.Fatalf("session %d not in known %v", s, known)
			}
		}
		if a.Until > 0 && (a.Sessions == nil || a.Sessions[len(a.Sessions)-1] > a.Until) || a.Until < 0 {
			t.Fatalf("Until %d with Sessions %v", a.Until, a.Sessions)
		}
		if a.Said != "" {
			for _, part := range strings.Split(a.Said, "; ") {
				if !strings.Contains(q, part) {
					t.Fatalf("Said part %q not in question %q", part, q)
				}
			}
		}
	})
}
