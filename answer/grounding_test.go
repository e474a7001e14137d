package answer

import (
	"slices"
	"strings"
	"testing"
)

func TestUnknown(t *testing.T) {
	notes := map[string]bool{}
	for _, w := range analyzerTerms("es")("Tomás cabalgaba con Galerna hacia el torneo de la ciudad") {
		notes[w] = true
	}
	used := func(term string) bool { return notes[term] }
	cases := []struct {
		q            string
		names, words []string
		total        int
	}{
		{"¿Quién ganó el torneo de vóley?", nil, []string{"ganó", "vóley"}, 3},
		{"¿Cómo se llama el caballo de Tomás?", nil, []string{"llama", "caballo"}, 3},
		{"¿Dónde vive Zarquifol?", []string{"Zarquifol"}, []string{"vive", "Zarquifol"}, 2},
		{"Zarquifol, ¿quién es?", nil, []string{"Zarquifol"}, 1}, // opening the question: not taken for a name
		{"¿Qué pasó en el torneo de Galerna?", nil, nil, 2},      // "pasó" is how a question is asked
	}
	for _, c := range cases {
		names, words, total := Unknown(c.q, "es", nil, used)
		if !slices.Equal(names, c.names) || !slices.Equal(words, c.words) || total != c.total {
			t.Errorf("Unknown(%q) = %q %q %d, want %q %q %d", c.q, names, words, total, c.names, c.words, c.total)
		}
	}
}

func TestClosestAnswerAndUnmentioned(t *testing.T) {
	ctx := Context{Full: []Item{{ID: 1, Label: "Sesión 3", File: "s.md", Kind: "full", Text: "El grupo cruzó el puente de Galerna bajo la lluvia.\n\nNorkiel perdió su escudo en el río."}}}
	text, ok := ClosestAnswer("¿Qué escudo llevaba el troll del puente?", ctx, nil, "es")
	if !ok || !strings.HasPrefix(text, "Esto es lo más cercano") || !strings.Contains(text, "[Sesión 3]") {
		t.Fatalf("closest answer: %q %v", text, ok)
	}
	if SaysNotInNotes(strings.SplitN(text, "\n", 2)[0]) {
		t.Error("the closest answer's opening claims the notes are silent")
	}
	if v := Verify(text, ctx); len(v.Removed) > 0 || len(v.Citations) == 0 {
		t.Errorf("closest answer's citations: %+v", v)
	}
	if _, ok := ClosestAnswer("¿Quién es Zarquifol?", ctx, nil, "es"); ok {
		t.Error("a question matching no word of the evidence has no closest answer")
	}
	if got := Unmentioned("es", []string{"vóley"}); got != "Ninguna nota menciona «vóley»." {
		t.Errorf("Unmentioned es = %q", got)
	}
	if got := Unmentioned("en", []string{"volleyball", "Zed"}); got != "No note mentions “volleyball”, “Zed”." {
		t.Errorf("Unmentioned en = %q", got)
	}
}
