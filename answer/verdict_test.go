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
		// sentences and supported count the claims; marked are the
		// sentences marked unsupported, as their segments hold them.
		sentences, supported int
		marked               []string
		lang                 string // "es" when empty
	}{
		{
			name:      "cited answer",
			draft:     Draft{Text: "Norkiel perdió su escudo en el río [Sesión 3]."},
			text:      "Norkiel perdió su escudo en el río [Sesión 3].",
			grounding: GroundingDirect, citations: 1, sentences: 1, supported: 1,
		},
		{
			name:      "an invalid citation is removed, an uncited claim kept",
			draft:     Draft{Text: "Norkiel perdió su escudo en el río [Sesión 3] [Sesión 99]. Después el grupo volvió a la ciudad sin él."},
			text:      "Norkiel perdió su escudo en el río [Sesión 3]. Después el grupo volvió a la ciudad sin él. _(sin fuente)_",
			grounding: GroundingDirect, citations: 2, removed: 1, uncited: 1, sentences: 2, supported: 1,
			marked: []string{"Después el grupo volvió a la ciudad sin él."},
		},
		{
			name:      "the only citation is invented: an abstention",
			draft:     Draft{Text: "Además, el dragón huyó al norte [Sesión 99]."},
			text:      "Las notas no dicen eso.",
			grounding: GroundingNone, citations: 1, removed: 1, abstention: true, sentences: 1, supported: 1,
		},
		{
			name:      "no citation at all: an abstention",
			draft:     Draft{Text: "Norkiel perdió su escudo. Además, el dragón huyó al norte."},
			text:      "Las notas no dicen eso.",
			grounding: GroundingNone, citations: 1, abstention: true, sentences: 1, supported: 1,
		},
		{
			name:      "marks in the middle, in a list, in English",
			draft:     Draft{Text: "Norkiel lost his shield.\n\n- It rained on the port [Sesión 4]\n- The dragon flew north [Sesión 99]\n- Norkiel lost his shield in the river [Sesión 3]"},
			text:      "Norkiel lost his shield. _(unsupported)_\n\n- It rained on the port [Sesión 4]\n- The dragon flew north _(unsupported)_\n- Norkiel",
			grounding: GroundingDirect, citations: 3, removed: 1, uncited: 2, sentences: 4, supported: 2,
			marked: []string{"Norkiel lost his shield.", "The dragon flew north"}, lang: "en",
		},
		{
			name:      "empty draft abstains with the unknown words",
			draft:     Draft{Unmentioned: []string{"Zarquifol"}},
			text:      "Ninguna nota menciona «Zarquifol». Las notas no dicen eso.",
			grounding: GroundingNone, citations: 1, abstention: true, sentences: 1, supported: 1,
		},
		{
			name:      "says the notes are silent and cites nothing valid",
			draft:     Draft{Text: "Las notas no dicen nada de eso [Sesión 99]."},
			text:      "Las notas no dicen eso.",
			grounding: GroundingNone, citations: 1, removed: 1, abstention: true, sentences: 1, supported: 1,
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
			grounding: GroundingClosest, citations: 1, sentences: 2, supported: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lang := tt.lang
			if lang == "" {
				lang = "es"
			}
			v := Judge(question, tt.draft, ctx, nil, lang)
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
			if v.Sentences != tt.sentences || v.Supported != tt.supported {
				t.Errorf("%d of %d sentences supported; want %d of %d", v.Supported, v.Sentences, tt.supported, tt.sentences)
			}
			var marked []string
			for i, s := range v.Segments {
				if s.Supported != nil && !*s.Supported {
					marked = append(marked, s.Text)
					if i+1 == len(v.Segments) || v.Segments[i+1].Mark != MarkUnsupported || strings.TrimSpace(v.Segments[i+1].Text) != Unsupported(lang) {
						t.Errorf("the unsupported %q is not followed by its mark: %+v", s.Text, v.Segments)
					}
				}
			}
			if strings.Join(marked, "|") != strings.Join(tt.marked, "|") {
				t.Errorf("marked %q, want %q", marked, tt.marked)
			}
			if tt.abstention && (!SaysNotInNotes(v.Text) || !strings.Contains(v.Text, "[Sesión 3]")) {
				t.Errorf("abstention %q does not quote the closest evidence", v.Text)
			}
		})
	}
}

// TestJudgeQuotedNoteSayingNo: an extractive answer quotes the notes; a
// quoted sentence that says something is not spoken of is the note's
// statement, not the answer saying the notes do not answer.
func TestJudgeQuotedNoteSayingNo(t *testing.T) {
	ctx := Assemble([]Candidate{{ID: 1, Label: "Sesión 6", File: "s6.md", Session: 6, InSession: true,
		Text: "El símbolo de Ozrún es una mano de tres dedos. En la aldea no se menciona después de la puesta del sol."}}, AssembleOptions{})
	q := "¿Cuál es el símbolo de Ozrún?"
	d := Extract(q, ctx, nil, "es", nil)
	if !strings.Contains(d.Text, "no se menciona") || d.Closest {
		t.Fatalf("draft (closest %v) does not quote the note's negation:\n%s", d.Closest, d.Text)
	}
	v := Judge(q, d, ctx, nil, "es")
	if v.Abstained || v.Grounding != GroundingDirect {
		t.Errorf("quoted answer judged %q (abstained %v):\n%s", v.Grounding, v.Abstained, v.Text)
	}
	// The same words written by a model are an abstention.
	m := Judge(q, Draft{Text: "En las notas no se menciona el símbolo de Ozrún [Sesión 6]."}, ctx, nil, "es")
	if !m.Abstained {
		t.Errorf("a model's 'no se menciona' is not an abstention: %+v", m)
	}
}
