package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzText checks the package's invariants on any input: folding is
// idempotent and valid UTF-8, words are ordered spans that start with a
// letter or digit, sentences cover the collapsed input, a heading parses
// back from its own rendering, a fence closes itself, and nothing panics.
func FuzzText(f *testing.F) {
	for _, s := range []string{
		"", "Sesión 12", "## Sesión 3 — El río ##", "SESIÓN Año Straße ΛΌΓΟΣ ＡＢＣ",
		"An\u0303o e\u0301 \u0301x", "a\xffb\x00", "Murió. [Sesión 3] Fin... ¿Sí?! no.",
		"El Sr. Pérez y J. R. Valcárcel etc. Fin.", "- [x] tarea\n> cita\n1984. Año\n12) item",
		"```go\ncode\n```", "~~~~\n~~~", "   ###\t#", "हिंदी ǖ ǣ ẞ ς", "«Vete.» **Murió.**",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFold(t, s)

		end := 0
		for start, stop := range Words(s) {
			if start < end || start >= stop || stop > len(s) {
				t.Fatalf("word span %d-%d after %d in %q", start, stop, end, s)
			}
			r, _ := utf8.DecodeRuneInString(s[start:])
			if !IsWordRune(r) {
				t.Fatalf("word %q of %q does not start with a letter or digit", s[start:stop], s)
			}
			end = stop
		}

		for _, atom := range []func(string, int) int{nil, bracketAtom} {
			got := Sentences(s, atom)
			if j, want := strings.Join(got, " "), Collapse(s); j != want {
				t.Fatalf("Sentences(%q) = %q, which joined is %q, not the collapsed input %q", s, got, j, want)
			}
			for _, x := range got {
				if x == "" {
					t.Fatalf("Sentences(%q) has an empty sentence: %q", s, got)
				}
			}
		}

		for line := range strings.SplitSeq(s, "\n") {
			if level, h := ATXHeading(line); level > 0 && h != "" {
				back := strings.Repeat("#", level) + " " + h
				if l2, h2 := ATXHeading(back); l2 != level || h2 != h {
					t.Fatalf("heading %q parses as %d %q; rendered back %q parses as %d %q", line, level, h, back, l2, h2)
				}
			}
			if fence, ok := OpenFence(line); ok && !fence.Closes(strings.Repeat(string(fence.char), fence.count)) {
				t.Fatalf("fence %q is not closed by its own run", line)
			}
			for _, cut := range []func(string) (string, bool){CutQuoteMarker, CutListMarker, CutTaskBox} {
				if rest, ok := cut(line); len(rest) > len(line) || !ok && rest != line || ok && !strings.HasSuffix(line, rest) {
					t.Fatalf("cutting a marker from %q gives %q, %v", line, rest, ok)
				}
			}
		}
	})
}
