package text

import (
	"reflect"
	"strings"
	"testing"
)

// bracketAtom treats "[...]" on one line as an atom, as a citation is.
func bracketAtom(s string, i int) int {
	if s[i] != '[' {
		return -1
	}
	if j := strings.IndexByte(s[i:], ']'); j > 0 {
		return i + j + 1
	}
	return -1
}

func TestSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		atom func(string, int) int
		want []string
	}{
		{
			name: "Spanish punctuation",
			in:   "¿Quién le avisó? Nadie lo sabe. ¡Cuidado! gritó Nix. ¡Corred! El puente cae… Luego, silencio.",
			want: []string{"¿Quién le avisó?", "Nadie lo sabe.", "¡Cuidado! gritó Nix.", "¡Corred!", "El puente cae…", "Luego, silencio."},
		},
		{
			name: "abbreviations and initials",
			in:   "El Sr. Pérez y la Dra. Ruiz llegaron, p. ej. al alba. J. R. Valcárcel firmó etc. Después se fueron. Mr. Smith waited.",
			want: []string{"El Sr. Pérez y la Dra. Ruiz llegaron, p. ej. al alba.", "J. R. Valcárcel firmó etc.", "Después se fueron.", "Mr. Smith waited."},
		},
		{
			name: "an accented abbreviation folds",
			in:   "Ver pág. 3 del libro. Fin.",
			want: []string{"Ver pág. 3 del libro.", "Fin."},
		},
		{
			name: "ellipses",
			in:   "Esperó... y esperó... Nada. ¿Sí?! No.",
			want: []string{"Esperó... y esperó...", "Nada.", "¿Sí?!", "No."},
		},
		{
			name: "closing quotes and emphasis",
			in:   "Ella respondió: «Vete.» Y se fue. **Murió.** Fin.",
			want: []string{"Ella respondió: «Vete.»", "Y se fue.", "**Murió.**", "Fin."},
		},
		{
			name: "whitespace collapsed",
			in:   "  Uno.\n\tDos.  ",
			want: []string{"Uno.", "Dos."},
		},
		{
			name: "atoms are not cut and stay with the sentence before",
			in:   "Murió [Sesión 3. Parte 2]. [Sesión 4] [Sesión 5] Fin.",
			atom: bracketAtom,
			want: []string{"Murió [Sesión 3. Parte 2]. [Sesión 4] [Sesión 5]", "Fin."},
		},
		{
			name: "without atoms brackets are text",
			in:   "Murió [Sesión 3. Parte 2]. Fin.",
			want: []string{"Murió [Sesión 3.", "Parte 2].", "Fin."},
		},
		{name: "empty", in: " \n ", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sentences(tt.in, tt.atom)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Sentences =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// An atom that reports a nonsensical end is ignored.
func TestSentencesBadAtom(t *testing.T) {
	for _, end := range []int{-5, 0, 1 << 20} {
		got := Sentences("Uno. Dos.", func(string, int) int { return end })
		if want := []string{"Uno.", "Dos."}; !reflect.DeepEqual(got, want) {
			t.Errorf("atom ending at %d: Sentences = %q, want %q", end, got, want)
		}
	}
}

func TestKeywords(t *testing.T) {
	got := Keywords("¿Quién cayó en el Puente de Galerna, en 1492?")
	want := map[string]bool{"quien": true, "cayo": true, "puente": true, "galerna": true, "1492": true}
	if len(got) != len(want) {
		t.Fatalf("Keywords = %v, want %v", got, want)
	}
	for w := range want {
		if !got[w] {
			t.Errorf("Keywords lacks %q: %v", w, got)
		}
	}
}
