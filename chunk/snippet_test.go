package chunk

import "testing"

// TestFirstLine: the first line with something on it, trimmed; "" for a
// blank text.
func TestFirstLine(t *testing.T) {
	for text, want := range map[string]string{"\n  \n  Hola  \nmundo": "Hola", " \n\t": "", "": ""} {
		if got := FirstLine(text); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestSnippet: headings and lines that only mark a session are skipped;
// a text of nothing else gives its first line.
func TestSnippet(t *testing.T) {
	for text, want := range map[string]string{
		"# Sesión 12\n\n## Llegada\nEl grupo llega a Phandalin.": "El grupo llega a Phandalin.",
		"Sesión 4\nVesper compra una espada.":                    "Vesper compra una espada.",
		"# Solo un título":                                       "# Solo un título",
	} {
		if got := Snippet(text); got != want {
			t.Errorf("Snippet(%q) = %q, want %q", text, got, want)
		}
	}
}
