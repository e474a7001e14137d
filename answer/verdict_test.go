package answer

import (
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	ctx := Context{Full: []Item{
		{ID: 1, Label: "Sesión 3", File: "s.md", Kind: KindFull, Text: "El grupo cruzó el puente de Galerna bajo la lluvia.\n\nNorkiel perdió su escudo en el río."},
		{ID: 2, Label: "Sesión 4", File: "s.md", Kind: KindFull, Text: "Llueve sobre el puerto toda la noche."},
	}}
	const question = "¿Qué perdió Norkiel en el río?"
	tests := []struct {
		name       string
		draft      Draft
		text       string // the verdict's text starts with it
		grounding  string
		citations  int // how many citations the verdict's text makes
		removed    int
		uncited    int
		abstention bool // the text is the abstention
	}{
		{
			name:      "cited answer",
			draft:     Draft{Text: "Norkiel perdió su escudo en el río [Sesión 3]."},
			text:      "Norkiel perdió su escudo en el río [Sesión 3].",
			grounding: GroundingDirect, citations: 1,
		},
		{
			name:      "an invalid citation is removed, an uncited claim kept",
			draft:     Draft{Text: "Norkiel perdió su escudo en el río [Sesión 3] [Sesión 99]. Después el grupo volvió a la ciudad sin él."},
			text:      "Norkiel perdió su escudo en el río [Sesión 3]. Después",
			grounding: GroundingDirect, citations: 2, removed: 1, uncited: 1,
		},
		{
			name:      "empty draft abstains with the unknown words",
			draft:     Draft{Unmentioned: []string{"Zarquifol"}},
			text:      "Ninguna nota menciona «Zarquifol». Las notas no dicen eso.",
			grounding: GroundingNone, citations: 1, abstention: true,
		},
		{
			name:      "says the notes are silent and cites nothing valid",
			draft:     Draft{Text: "Las notas no dicen nada de eso [Sesión 99]."},
			text:      "Las notas no dicen eso.",
			grounding: GroundingNone, citations: 1, removed: 1, abstention: true,
		},
		{
			name:      "says the notes are silent, backed by evidence",
			draft:     Draft{Text: "Las notas no dicen qué perdió; solo que llovía [Sesión 4]."},
			text:      "Las notas no dicen qué perdió; solo que llovía [Sesión 4].",
			grounding: GroundingNone, citations: 1,
		},
		{
			name:      "closest answer",
			draft:     Draft{Text: "Esto es lo más cercano que encontré en las notas:\n- Norkiel perdió su escudo en el río. [Sesión 3]\nDespués el grupo volvió a la ciudad sin él.", Closest: true},
			text:      "Esto es lo más cercano",
			grounding: GroundingClosest, citations: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(question, tt.draft, ctx, nil, "es")
			if !strings.HasPrefix(v.Text, tt.text) {
				t.Errorf("text = %q, want it to start with %q", v.Text, tt.text)
			}
			if v.Grounding != tt.grounding || v.Abstained != (tt.grounding == GroundingNone) {
				t.Errorf("grounding %q, abstained %v; want %q", v.Grounding, v.Abstained, tt.grounding)
			}
			if len(v.Citations) != tt.citations || len(v.Removed) != tt.removed || len(v.Uncited) != tt.uncited {
				t.Errorf("%d citations, %d removed, %d uncited; want %d, %d, %d: %+v", len(v.Citations), len(v.Removed), len(v.Uncited), tt.citations, tt.removed, tt.uncited, v)
			}
			joined := ""
			for _, s := range v.Segments {
				joined += s.Text
			}
			if joined != v.Text {
				t.Errorf("segments join to %q, not the text %q", joined, v.Text)
			}
			if tt.abstention && (!SaysNotInNotes(v.Text) || !strings.Contains(v.Text, "[Sesión 3]")) {
				t.Errorf("abstention %q does not quote the closest evidence", v.Text)
			}
		})
	}
}
