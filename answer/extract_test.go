package answer

import (
	"slices"
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	ctx := Context{Full: []Item{{ID: 1, Label: "Sesión 3", File: "s.md", Kind: KindFull, Text: "El grupo cruzó el puente de Galerna bajo la lluvia.\n\nNorkiel perdió su escudo en el río."}}}
	// The notes use the words of the evidence and nothing else.
	notes := map[string]bool{}
	for _, it := range ctx.Full {
		for _, w := range analyzerTerms("es")(it.Text) {
			notes[w] = true
		}
	}
	used := func(term string) bool { return notes[term] }
	tests := []struct {
		name        string
		question    string
		ctx         Context
		prefix      string // Text starts with it ("" for an empty Text)
		closest     bool
		unmentioned []string
	}{
		{
			name:     "the evidence answers",
			question: "¿Qué perdió Norkiel en el río?",
			ctx:      ctx,
			prefix:   "- Norkiel perdió su escudo en el río. [Sesión 3]",
		},
		{
			name:        "a name no note uses",
			question:    "¿Quién es Zarquifol?",
			ctx:         ctx,
			unmentioned: []string{"Zarquifol"},
		},
		{
			// Common words the notes do not use say nothing of whether
			// they answer: nothing is claimed missing.
			name:     "most words no note uses, none a name",
			question: "¿Quién ganó el torneo de vóley?",
			ctx:      ctx,
		},
		{
			name:     "what comes closest, with no word claimed missing",
			question: "¿Qué escudo llevaba el troll del puente?",
			ctx:      ctx,
			prefix:   "Esto es lo más cercano que encontré en las notas, aunque no responde del todo a la pregunta:\n",
			closest:  true,
		},
		{
			name:     "no evidence and nothing unknown",
			question: "¿Qué escudo perdió Norkiel en el río?",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Extract(tt.question, tt.ctx, nil, "es", used)
			if tt.prefix == "" && d.Text != "" || !strings.HasPrefix(d.Text, tt.prefix) {
				t.Errorf("text = %q, want it to start with %q", d.Text, tt.prefix)
			}
			if d.Closest != tt.closest || !slices.Equal(d.Unmentioned, tt.unmentioned) {
				t.Errorf("closest %v, unmentioned %q; want %v, %q", d.Closest, d.Unmentioned, tt.closest, tt.unmentioned)
			}
		})
	}
}
