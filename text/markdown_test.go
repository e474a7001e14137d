package text

import (
	"strings"
	"testing"
)

func TestATXHeading(t *testing.T) {
	tests := []struct {
		in    string
		level int
		text  string
	}{
		{"# Título", 1, "Título"},
		{"## Sesión 12 — El río", 2, "Sesión 12 — El río"},
		{"   ###\tTres", 3, "Tres"},
		{"    # código", 0, ""},
		{"###### Seis", 6, "Seis"},
		{"####### Siete", 0, ""},
		{"#Pegado", 0, ""},
		{"#", 1, ""},
		{"## ##", 2, ""},
		{"## Cierre ##  ", 2, "Cierre"},
		{"## C#", 2, "C#"},
		{"## Sesión 3 #", 2, "Sesión 3"},
		{"## **Negrita**", 2, "**Negrita**"},
		{"texto", 0, ""},
		{"", 0, ""},
	}
	for _, tt := range tests {
		level, text := ATXHeading(tt.in)
		if level != tt.level || text != tt.text {
			t.Errorf("ATXHeading(%q) = %d, %q; want %d, %q", tt.in, level, text, tt.level, tt.text)
		}
	}
}

func TestFences(t *testing.T) {
	tests := []struct {
		open   string
		ok     bool
		closes map[string]bool
	}{
		{"```", true, map[string]bool{"```": true, "````": true, "  ```  ": true, "```go": false, "~~~": false, "``": false, "    ```": false}},
		{"~~~~ info", true, map[string]bool{"~~~~": true, "~~~": false, "```": false}},
		{"  ```go", true, map[string]bool{"```": true}},
		{"```a`b", false, nil},
		{"~~~a`b", true, map[string]bool{"~~~": true}},
		{"``", false, nil},
		{"    ```", false, nil},
		{"text", false, nil},
	}
	for _, tt := range tests {
		f, ok := OpenFence(tt.open)
		if ok != tt.ok {
			t.Errorf("OpenFence(%q) = %v, want %v", tt.open, ok, tt.ok)
			continue
		}
		for line, want := range tt.closes {
			if got := f.Closes(line); got != want {
				t.Errorf("fence %q closes %q = %v, want %v", tt.open, line, got, want)
			}
		}
	}
	if (Fence{}).Closes("") {
		t.Error("the zero Fence closes an empty line")
	}
}

func TestMarkers(t *testing.T) {
	type cut func(string) (string, bool)
	tests := []struct {
		name string
		f    cut
		in   string
		rest string
		ok   bool
	}{
		{"quote", CutQuoteMarker, "> dicho", " dicho", true},
		{"nested quote", CutQuoteMarker, ">> x", "> x", true},
		{"no quote", CutQuoteMarker, "a > b", "a > b", false},
		{"dash", CutListMarker, "- Nix", "Nix", true},
		{"star and tab", CutListMarker, "*\tNix", "Nix", true},
		{"plus", CutListMarker, "+ Nix", "Nix", true},
		{"bullet", CutListMarker, "• Nix", "Nix", true},
		{"ordered", CutListMarker, "12. Nix", "Nix", true},
		{"ordered paren", CutListMarker, "3) Nix", "Nix", true},
		{"a year is text", CutListMarker, "1984. Llegaron", "1984. Llegaron", false},
		{"dash without space", CutListMarker, "-Nix", "-Nix", false},
		{"a rule is no item", CutListMarker, "---", "---", false},
		{"nothing after", CutListMarker, "- ", "- ", false},
		{"a number alone", CutListMarker, "12.", "12.", false},
		{"decimal", CutListMarker, "3.5 monedas", "3.5 monedas", false},
		{"empty", CutListMarker, "", "", false},
		{"open box", CutTaskBox, "[ ] Pagar", "Pagar", true},
		{"done box", CutTaskBox, "[X] Pagar", "Pagar", true},
		{"no box", CutTaskBox, "[Sesión 3] Pagar", "[Sesión 3] Pagar", false},
	}
	for _, tt := range tests {
		rest, ok := tt.f(tt.in)
		if rest != tt.rest || ok != tt.ok {
			t.Errorf("%s: cut(%q) = %q, %v; want %q, %v", tt.name, tt.in, rest, ok, tt.rest, tt.ok)
		}
	}
}

func TestUnindent(t *testing.T) {
	for in, want := range map[string]string{"   x": "x", "    x": " x", "\tx": "\tx", "x": "x"} {
		if got := Unindent(in); got != want {
			t.Errorf("Unindent(%q) = %q, want %q", in, got, want)
		}
	}
}

// The fenced-code walk that Render, EditWikilinks and EditMarkdownLinks
// share: lines outside fences go through write, fenced blocks (a longer
// closing fence closes, a shorter or other one does not; an unclosed one
// runs to the end) are kept as they are, and so are the line breaks.
func TestEditOutsideFences(t *testing.T) {
	md := "a\n```go\nb\n~~~\n````\nc\n~~~~\nd\n~~~\n\ne"
	got := editOutsideFences(md, func(b *strings.Builder, line string) { b.WriteString(strings.ToUpper(line) + "!") })
	if want := "A!\n```go\nb\n~~~\n````\nC!\n~~~~\nd\n~~~\n\ne"; got != want {
		t.Fatalf("editOutsideFences =\n%q\nwant\n%q", got, want)
	}
	if got := editOutsideFences("", func(b *strings.Builder, line string) { b.WriteString("x") }); got != "x" {
		t.Fatalf("empty text: %q", got)
	}
}
