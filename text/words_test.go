package text

import (
	"reflect"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Kael-Dur, l'épée; 12 ñus", []string{"Kael", "Dur", "l", "épée", "12", "ñus"}},
		{"Cie\u0301naga", []string{"Cie\u0301naga"}}, // marks stay in the word
		{"\u0301a", []string{"a"}},                   // a mark with no base separates
		{"## **Sesión 7**", []string{"Sesión", "7"}}, // Markdown syntax separates
		{"a\xffb🐉c", []string{"a", "b", "c"}},        // invalid UTF-8 and symbols separate
		{"  ", nil},
	}
	for _, tt := range tests {
		var got []string
		for start, end := range Words(tt.in) {
			got = append(got, tt.in[start:end])
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWordsStops(t *testing.T) {
	n := 0
	for range Words("uno dos tres") {
		n++
		break
	}
	if n != 1 {
		t.Errorf("Words yielded %d words after break", n)
	}
}

func TestCollapse(t *testing.T) {
	if got := Collapse(" a \t b\n\nc\u00a0 "); got != "a b c" {
		t.Errorf("Collapse = %q", got)
	}
}

func TestIndexWord(t *testing.T) {
	for _, tc := range []struct {
		s, w string
		want int
	}{
		{"a Kleb.", "Kleb", 2},
		{"Klebber y Kleb", "Kleb", 10},
		{"Klebber", "Kleb", -1},
		{"el Ser Morcant, ayer", "Ser Morcant", 3},
		{"Señor Ñu", "Ñu", 7},
		{"Ñuño", "Ñu", -1},
		{"(Kleb)", "Kleb", 1},
		{"x", "", -1},
		{"Sesión 3 › Resumen y más", "Sesión 3 › Resumen", 0},
	} {
		if got := IndexWord(tc.s, tc.w); got != tc.want {
			t.Errorf("IndexWord(%q, %q) = %d, want %d", tc.s, tc.w, got, tc.want)
		}
	}
}
