package answer

import (
	"strings"
	"testing"
)

func TestSaysNotInNotes(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		// Spanish, abstaining.
		{"Las notas no dicen qué pasó con el archiduque.", true},
		{"Las notas no lo dicen.", true},
		{"Las notas que tengo no mencionan a la hermana de Nix.", true},
		{"Ninguna de las notas menciona el barco.", true},
		{"Eso no aparece en las notas.", true},
		{"No hay información sobre eso en las pruebas.", true},
		{"En las notas no se dice quién lo mató.", true},
		{"No tengo información sobre el barco.", true},
		{"No se menciona quién era el padre de Kael.", true},
		{"Las pruebas no dicen nada sobre el dragón.", true},
		{"No consta en ningún fragmento.", true},
		{"Huyó al norte [Sesión 12]. Las notas no dicen adónde.", true},
		{"No encuentro nada sobre eso.", true},
		{"NO LO SÉ.", true},
		// English, abstaining.
		{"The notes don't say what happened to the duke.", true},
		{"The evidence does not mention her sister.", true},
		{"There is no information about the ship in the notes.", true},
		{"I couldn't find anything about that in the notes.", true},
		{"It is not mentioned in the evidence.", true},
		{"Nothing in the notes covers that.", true},
		{"The notes say nothing about the dragon.", true},
		{"I don't know.", true},
		{"The provided excerpts do not specify who sent the letter.", true},
		// Answers.
		{"Las notas dicen que el archiduque huyó al norte [Sesión 12].", false},
		{"Las notas dicen que Nix no habló con el duque [Sesión 3].", false},
		{"No, Baika no murió: huyó al norte [Sesión 3].", false},
		{"El rey no mencionó a su hija [Sesión 4].", false},
		{"No hay tiempo que perder, dijo Nix [Sesión 5].", false},
		{"No, la información que tenía Nix era falsa [Sesión 7].", false},
		{"El duque no dijo nada en la reunión [Sesión 9].", false},
		{"Nix no se dio cuenta de la trampa [Sesión 4].", false},
		{"No encontraron nada en la cueva [Sesión 4].", false},
		{"The notes say he fled to Galerna [Session 3].", false},
		{"She did not mention the ring to anyone [Session 8].", false},
		{"They could not find the sword [Session 2].", false},
		{"No, Baika did not die: she fled north [Session 3].", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := SaysNotInNotes(tt.text); got != tt.want {
			t.Errorf("SaysNotInNotes(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestAbstention(t *testing.T) {
	ctx := campaignContext(t)
	tests := []struct {
		lang  string
		ctx   Context
		start string
		lines int
	}{
		{"es", ctx, "Las notas no dicen eso. Lo más cercano que cubren:\n- La Dama Velada encarga a los PJ recuperar el Cáliz de Ezkarra; Nix desconfía de ella [Sesión 38 › La Dama Velada]\n", 6}, // the annotation, not the opening
		{"en", ctx, "The notes don't say. The closest they cover:\n- La Dama Velada", 6},
		{"es", Context{}, "Las notas no dicen eso, y no encuentro en ellas nada cercano.", 1},
		{"en", Context{}, "The notes don't say, and I find nothing close in them.", 1},
	}
	for _, tt := range tests {
		a := Abstention(tt.lang, tt.ctx)
		if !strings.HasPrefix(a, tt.start) {
			t.Errorf("Abstention(%s) = %q\nwant start %q", tt.lang, a, tt.start)
		}
		if n := len(strings.Split(a, "\n")); n != tt.lines {
			t.Errorf("Abstention(%s) has %d lines, want %d:\n%s", tt.lang, n, tt.lines, a)
		}
		if !SaysNotInNotes(a) {
			t.Errorf("SaysNotInNotes(Abstention(%s)) = false", tt.lang)
		}
		v := Verify(a, tt.ctx)
		if v.Text != a || len(v.Removed) != 0 || len(v.Uncited) != 0 || len(v.Citations) != tt.lines-1 {
			t.Errorf("Verify(Abstention(%s)) = %+v", tt.lang, v)
		}
	}
	// Items that their labels cannot cite are left out.
	bad := Context{Full: []Item{{ID: 1, Label: "a [b]", Text: "Algo pasó allí."}, {ID: 2, Label: "A [B]", Text: "Otra cosa pasó."}, {ID: 3, Label: "Nix", Text: "Nix es una pícara."}}}
	if a := Abstention("es", bad); !strings.HasSuffix(a, "\n- Nix es una pícara [Nix]") || strings.Count(a, "\n") != 1 {
		t.Errorf("Abstention with uncitable labels = %q", a)
	}
}
