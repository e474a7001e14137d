package answer

import (
	"reflect"
	"testing"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // headings prefixed with "# "
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
			name: "short words that are no abbreviations, ellipses",
			in:   "Dijo que no. Luego se fue. Esperó... y esperó... Nada. Vino, i.e. volvió, e.g. ayer.",
			want: []string{"Dijo que no.", "Luego se fue.", "Esperó... y esperó...", "Nada.", "Vino, i.e. volvió, e.g. ayer."},
		},
		{
			name: "numbers and closing quotes",
			in:   "Pagó 3.5 monedas. «Nunca más», dijo. Ella respondió: «Vete.» Y se fue.",
			want: []string{"Pagó 3.5 monedas.", "«Nunca más», dijo.", "Ella respondió: «Vete.»", "Y se fue."},
		},
		{
			name: "headings, lists and tables",
			in: "# Diario\n## Sesión 12 — El río\n**Resumen**\nLos PJ cruzaron\nel río. Hubo niebla.\n\n" +
				"- Nix perdió la espada.\n  Lloró.\n* [x] Pagar al herrero\n1. Primero\n2) Segundo\n> Una cita. Dos.\n" +
				"| Nombre | Estado |\n|---|---|\n| Nix | viva |\n---\n```\ncódigo. Ignorado.\n```\nFin",
			want: []string{
				"# Diario", "# Sesión 12 — El río", "# Resumen", "Los PJ cruzaron el río.", "Hubo niebla.",
				"Nix perdió la espada.", "Lloró.", "Pagar al herrero", "Primero", "Segundo", "Una cita.", "Dos.",
				"Nombre | Estado", "Nix | viva", "Fin",
			},
		},
		{
			name: "a fact per line",
			in:   "Llegan a Galerna\nNix pelea con el guardia\ny gana\n¿Quién paga?",
			want: []string{"Llegan a Galerna", "Nix pelea con el guardia y gana", "¿Quién paga?"},
		},
		{
			name: "citations stay with their sentence",
			in:   "Murió. [Sesión 3] Luego huyeron [Sesión 4]. [Sesión 5] [Sesión 6] Fin.",
			want: []string{"Murió. [Sesión 3]", "Luego huyeron [Sesión 4]. [Sesión 5] [Sesión 6]", "Fin."},
		},
		{name: "empty", in: " \n\n ", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range sentences(tt.in) {
				if s.heading {
					got = append(got, "# "+s.text)
				} else {
					got = append(got, s.text)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("sentences =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestSentencesUnder(t *testing.T) {
	got := sentences("Antes.\n## Sesión 4\nDespués.")
	if got[0].under != "" || got[2].under != "Sesión 4" {
		t.Errorf("under = %q, %q", got[0].under, got[2].under)
	}
}

func TestLabelKey(t *testing.T) {
	same := [][]string{
		{"Sesión 38 › La Dama Velada", "sesion 38 > la dama velada", "SESIÓN 38»La Dama Velada", "Sesión 38 -> La  Dama Velada.", "`Sesión 38 › La Dama Velada`"},
		{"Fichas: Nix", "fichas:nix", "Fichas : Nix", "“Fichas: Nix”", "*Fichas: Nix*"},
	}
	for _, group := range same {
		for _, l := range group[1:] {
			if labelKey(l) != labelKey(group[0]) {
				t.Errorf("labelKey(%q) = %q, want %q", l, labelKey(l), labelKey(group[0]))
			}
		}
	}
	if labelKey("Sesión 3") == labelKey("Sesión 38") || labelKey("Año") != labelKey("ano") {
		t.Error("labelKey folds too much or too little")
	}
}
