package termrender

import (
	"strings"
	"testing"
	"unicode/utf8"
)

const (
	bold   = "\x1b[0m\x1b[1m"
	italic = "\x1b[0m\x1b[3m"
	mark   = "\x1b[0m\x1b[7m"
	reset  = "\x1b[0m"
)

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		width int
		want  string
	}{
		{"fits", "Norkiel cayó en combate.", 40, "Norkiel cayó en combate."},
		{"at word boundaries", "Norkiel cayó en combate contra los trolls del puente.", 20,
			"Norkiel cayó en\ncombate contra los\ntrolls del puente."},
		{"exactly the width", "abcd efgh", 9, "abcd efgh"},
		{"one over the width", "abcd efghi", 9, "abcd\nefghi"},
		{"spaces collapse", "uno   dos \t tres", 80, "uno dos tres"},
		{"line breaks kept", "uno\n\ndos", 80, "uno\n\ndos"},
		{"a word longer than the line is cut", "ab abcdefghijkl cd", 5, "ab\nabcde\nfghij\nkl cd"},
		{"accents take one column", "ñandú éxito", 6, "ñandú\néxito"},
		{"combining marks take none", "nan\u0303du\u0301 x", 7, "nan\u0303du\u0301 x"},
		{"wide characters take two", "日本語 x", 6, "日本語\nx"},
		{"a citation label stays whole", "Norkiel cayó [Sesión 17].", 20, "Norkiel cayó\n[Sesión 17]."},
		{"a label's spaces collapse", "dijo [Sesión   3]", 80, "dijo [Sesión 3]"},
		{"a long bracket is not a label", "x [" + strings.Repeat("palabra ", 8) + "fin]", 20,
			"x [palabra palabra\npalabra palabra\npalabra palabra\npalabra palabra fin]"},
		{"list items hang", "- uno dos tres cuatro\n- cinco", 12, "- uno dos\n  tres\n  cuatro\n- cinco"},
		{"numbered items hang", "12. uno dos tres", 10, "12. uno\n    dos\n    tres"},
		{"indented lines keep their indent", "  uno dos tres", 9, "  uno dos\n  tres"},
		{"zero width means 80", strings.Repeat("a ", 41), 0, strings.Repeat("a ", 39) + "a\na"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Render(tc.in, Options{Width: tc.width})
			if got != tc.want {
				t.Errorf("Render(%q, %d) =\n%q\nwant\n%q", tc.in, tc.width, got, tc.want)
			}
			for _, line := range strings.Split(got, "\n") {
				if n := utf8.RuneCountInString(line); tc.width > 0 && n > tc.width && !strings.ContainsAny(line, "日\u0303") {
					t.Errorf("line %q is %d wide, over %d", line, n, tc.width)
				}
			}
		})
	}
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want string // with Style
		// plain is the output without Style; "" means the input itself.
		plain string
	}{
		{"bold", "es **Norkiel** y", "es " + bold + "Norkiel" + reset + " y", ""},
		{"bold over words", "**muy fuerte** x", bold + "muy fuerte" + reset + " x", ""},
		{"italic with stars", "*así* es", italic + "así" + reset + " es", ""},
		{"italic with underscores", "_así_ es", italic + "así" + reset + " es", ""},
		{"bold and italic", "***ya***", "\x1b[0m\x1b[1m\x1b[3mya" + reset, ""},
		{"italic inside bold", "**a *b* c**", bold + "a " + "\x1b[0m\x1b[1m\x1b[3mb" + bold + " c" + reset, ""},
		{"code is plain", "usa `--db x` aquí", "usa --db x aquí", ""},
		{"no emphasis inside code", "`**x**`", "**x**", ""},
		{"snake_case is not emphasis", "mi_nota_larga.md", "mi_nota_larga.md", ""},
		{"a lone star is a star", "2 * 3 = 6", "2 * 3 = 6", ""},
		{"a star inside a word is a star", "5*3*2", "5*3*2", ""},
		{"a bullet is not emphasis", "* uno\n* dos", "* uno\n* dos", ""},
		{"emphasis ends with the line", "**sin cerrar\nluego", bold + "sin cerrar" + reset + "\nluego", ""},
		{"punctuation after a closer", "(**sí**), no", "(" + bold + "sí" + reset + "), no", ""},
		{"a label in bold stays readable", "**[Sesión 17]**", bold + "[Sesión 17]" + reset, ""},
		{"strikethrough", "~~vivo~~ muerto", "\x1b[0m\x1b[9mvivo" + reset + " muerto", ""},
		{"strikethrough over words", "x ~~dos palabras~~.", "x \x1b[0m\x1b[9mdos palabras" + reset + ".", ""},
		{"a lone tilde is a tilde", "~5 km y ~~ suelto", "~5 km y ~~ suelto", ""},
		{"highlight", "a " + MarkStart + "b c" + MarkEnd + " d", "a " + mark + "b c" + reset + " d", "a »b c« d"},
		{"highlight across lines", MarkStart + "a\nb" + MarkEnd, mark + "a" + reset + "\n" + mark + "b" + reset, "»a\nb«"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Render(tc.in, Options{Width: 80, Style: true}); got != tc.want {
				t.Errorf("styled %q =\n%q\nwant\n%q", tc.in, got, tc.want)
			}
			plain := tc.plain
			if plain == "" {
				plain = tc.in
			}
			got := Render(tc.in, Options{Width: 80})
			if got != plain {
				t.Errorf("plain %q = %q, want %q", tc.in, got, plain)
			}
			if strings.Contains(got, "\x1b") {
				t.Errorf("plain %q has ANSI codes: %q", tc.in, got)
			}
		})
	}
}

// Emphasis markers take no room: a bold word wraps as the word would.
func TestMarkersTakeNoRoom(t *testing.T) {
	got := Render("uno **dos** tres", Options{Width: 8, Style: true})
	want := "uno " + bold + "dos" + reset + "\ntres"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// The wrap does not carry bold into the next line's padding.
	got = Render("- **uno dos tres**", Options{Width: 9, Style: true})
	want = "- " + bold + "uno dos" + reset + "\n  " + bold + "tres" + reset
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// However the text is cut as it streams in, even inside a character, the
// output is the same as for the whole text.
func TestStreamedLikeWhole(t *testing.T) {
	texts := []string{
		"Norkiel **cayó** en combate contra los trolls [Sesión 1]. Luego _huyeron_ al `bosque` [Sesión 2, Sesión 3].",
		"- uno dos tres cuatro cinco\n- seis siete ocho nueve diez once doce\n\n1. ñandú éxito camión árbol",
		"palabralarguísimaquenocabeenunalínea y más " + MarkStart + "marcado aquí" + MarkEnd + " fin",
	}
	for _, style := range []bool{false, true} {
		for _, text := range texts {
			o := Options{Width: 17, Style: style}
			whole := Render(text, o)
			for _, size := range []int{1, 2, 3, 5, 7} {
				var b strings.Builder
				w := NewWriter(&b, o)
				for i := 0; i < len(text); i += size {
					if _, err := w.Write([]byte(text[i:min(i+size, len(text))])); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				if b.String() != whole {
					t.Errorf("style %v, pieces of %d bytes:\n%q\nwhole:\n%q", style, size, b.String(), whole)
				}
			}
		}
	}
}

// A word is not written before it is known to be whole.
func TestHoldsBackTheLastWord(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b, Options{Width: 80})
	w.WriteString("uno do")
	if b.String() != "uno" {
		t.Errorf("after \"uno do\": %q, want \"uno\"", b.String())
	}
	w.WriteString("s ")
	if b.String() != "uno dos" {
		t.Errorf("after \"s \": %q", b.String())
	}
	if err := w.EndLine(); err != nil || b.String() != "uno dos\n" || w.Col() != 0 {
		t.Errorf("EndLine: %q, col %d, %v", b.String(), w.Col(), err)
	}
	if err := w.EndLine(); err != nil || b.String() != "uno dos\n" {
		t.Errorf("EndLine at a line's start wrote: %q", b.String())
	}
}

// Flush ends emphasis left open, so that the next text starts plain.
func TestFlushEndsEmphasis(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b, Options{Width: 80, Style: true})
	w.WriteString("**abierto")
	w.Flush()
	w.WriteString(" luego")
	w.Flush()
	if want := bold + "abierto" + reset + " luego"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestSetWidth(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b, Options{Width: 80})
	w.WriteString("uno dos tres\n")
	w.SetWidth(4)
	w.WriteString("uno dos tres")
	w.Flush()
	if want := "uno dos tres\nuno\ndos\ntres"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// Whatever the text, a plain rendering holds no ANSI code and no line
// wider than the width (for text of narrow characters), and a styled one
// leaves the terminal's attributes off.
func FuzzRender(f *testing.F) {
	f.Add("Norkiel **cayó** en _combate_ [Sesión 1].\n- `x` *y*", 10)
	f.Add("  12. ***a*** b_c_ [x y z] "+MarkStart+"m\nn"+MarkEnd, 3)
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = 1 + (width%100+100)%100
		narrow := true
		for _, r := range s {
			if r < ' ' && r != '\n' && r != '\t' || r >= 0x300 {
				narrow = false
			}
		}
		if !narrow {
			return
		}
		out := Render(s, Options{Width: width})
		if strings.Contains(out, "\x1b") {
			t.Fatalf("plain output has ANSI codes: %q", out)
		}
		for _, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > width {
				t.Fatalf("line %q is %d wide, over %d", line, n, width)
			}
		}
		out = Render(s, Options{Width: width, Style: true})
		if last := strings.LastIndex(out, "\x1b["); last >= 0 && !strings.HasPrefix(out[last:], reset) {
			t.Fatalf("attributes left on: %q", out)
		}
	})
}
