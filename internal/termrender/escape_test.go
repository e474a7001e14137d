package termrender

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct {
		in, name, text string
	}{
		{"Sesiones/Campaña.md", "Sesiones/Campaña.md", "Sesiones/Campaña.md"},
		{"a\x1b[2J\x1b]0;pwned\x07b.md", `a\x1b[2J\x1b]0;pwned\x07b.md`, `a\x1b[2J\x1b]0;pwned\x07b.md`},
		{"uno\ndos\tdos\r", `uno\ndos\tdos\r`, "uno\ndos\tdos\\r"},
		{"csi\u009b31m del\x7f", `csi\u009b31m del\x7f`, `csi\u009b31m del\x7f`},
		{"txt.\u202egpj.exe", `txt.\u202egpj.exe`, `txt.\u202egpj.exe`},
		{"日本語 ñandú [Sesión 17]", "日本語 ñandú [Sesión 17]", "日本語 ñandú [Sesión 17]"},
		{"cut \xc3", "cut \xc3", "cut \xc3"}, // not UTF-8: left alone
	} {
		if got := Escape(tc.in); got != tc.name {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.name)
		}
		if got := EscapeText(tc.in); got != tc.text {
			t.Errorf("EscapeText(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
}

// Text rendered for the terminal shows an escape sequence it holds
// instead of obeying it, styled or not; its own attributes still work.
func TestWriterEscapes(t *testing.T) {
	for _, style := range []bool{false, true} {
		var b strings.Builder
		w := NewWriter(&b, Options{Width: 80, Style: style})
		w.WriteString("El **dragón**\x1b[2J huyó\x1b]0;x\x07 [Sesión\u202e 3].\n")
		w.Flush()
		got := strings.ReplaceAll(strings.ReplaceAll(b.String(), bold, ""), reset, "")
		if want := `El dragón\x1b[2J huyó\x1b]0;x\x07 [Sesión\u202e 3].` + "\n"; style && got != want || !style && got != strings.Replace(want, "dragón", "**dragón**", 1) {
			t.Errorf("style %v: %q", style, b.String())
		}
	}
}
