package analysis

import (
	"reflect"
	"testing"
)

func tokenTerms(ts TokenStream) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Term)
	}
	return out
}

func TestTokenizer(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"only separators", " \t\n—¿?¡!...", nil},
		{"punctuation", "Hola, mundo. ¿Qué tal? ¡Bien!", []string{"Hola", "mundo", "Qué", "tal", "Bien"}},
		{"markdown heading", "## Sesión 12 — El puente", []string{"Sesión", "12", "El", "puente"}},
		{"markdown bold", "**Sesión 7**", []string{"Sesión", "7"}},
		{"wiki link with alias", "[[Harbin Wester|el viejo]]", []string{"Harbin", "Wester", "el", "viejo"}},
		{"markdown link", "[nota](notas/sesión-3.md)", []string{"nota", "notas", "sesión", "3", "md"}},
		{"list and quote", "- uno\n> dos\n1. tres", []string{"uno", "dos", "1", "tres"}},
		{"numbers", "En 2015 había 50 soldados y 3,5 km; 1.000 €", []string{"En", "2015", "había", "50", "soldados", "y", "3", "5", "km", "1", "000"}},
		{"letters and digits together", "mp3 3D COVID19 1º 2ª", []string{"mp3", "3D", "COVID19", "1º", "2ª"}},
		{"apostrophes", "l'amour O’Brien d'Artagnan", []string{"l", "amour", "O", "Brien", "d", "Artagnan"}},
		{"hyphen and underscore", "bien-estar código_fuente", []string{"bien", "estar", "código", "fuente"}},
		{"url and email", "https://ejemplo.es/a?b=1 ana@correo.es", []string{"https", "ejemplo", "es", "a", "b", "1", "ana", "correo", "es"}},
		{"nfd marks stay with their letter", "Sesio\u0301n cancelacio\u0301n", []string{"Sesio\u0301n", "cancelacio\u0301n"}},
		{"nfd enye", "an\u0303o", []string{"an\u0303o"}},
		{"mark without base separates", "\u0301abc \u0301", []string{"abc"}},
		{"invalid utf-8 separates", "ab\xffcd\xc3\xe2\x82 ef\x80", []string{"ab", "cd", "ef"}},
		{"emoji separates", "fuego🔥agua", []string{"fuego", "agua"}},
		{"other scripts", "東京タワー Москва ٣٤", []string{"東京タワー", "Москва", "٣٤"}},
		{"zero width and nbsp separate", "a\u200bb\u00a0c", []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tokenTerms(unicodeTokenizer{}.Tokenize(tt.in))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Tokenize(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTokenizerOffsets(t *testing.T) {
	in := "¿Qué\xffpasó? **Ñu**"
	want := TokenStream{
		{Term: "Qué", Start: 2, End: 6, Position: 0},
		{Term: "pasó", Start: 7, End: 12, Position: 1},
		{Term: "Ñu", Start: 16, End: 19, Position: 2},
	}
	got := unicodeTokenizer{}.Tokenize(in)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Tokenize(%q)\n got %+v\nwant %+v", in, got, want)
	}
	for _, tok := range got {
		if in[tok.Start:tok.End] != tok.Term {
			t.Errorf("offsets of %q point at %q", tok.Term, in[tok.Start:tok.End])
		}
	}
}
