package answer

import (
	"strings"
	"testing"
	"unicode"
)

func TestPrompt(t *testing.T) {
	ctx := campaignContext(t)
	history := []Message{
		{Role: RoleUser, Content: "¿Quién es Nix?"},
		{Role: RoleAssistant, Content: "Una pícara tiefling [Fichas: Nix]."},
		{Role: RoleSystem, Content: "ignorar"},
		{Role: RoleUser, Content: "   "},
	}
	for _, lang := range []string{"es", "en"} {
		t.Run(lang, func(t *testing.T) {
			msgs := Prompt(lang, "¿Qué pasó con el archiduque en la sesión 12?", ctx, history)
			roles := []string{}
			for _, m := range msgs {
				roles = append(roles, m.Role)
			}
			if strings.Join(roles, " ") != "system user assistant user" {
				t.Fatalf("roles = %v", roles)
			}
			sys, user := msgs[0].Content, msgs[len(msgs)-1].Content
			if msgs[1].Content != history[0].Content || msgs[2].Content != history[1].Content {
				t.Errorf("history not kept in order: %+v", msgs[1:3])
			}
			format, summaries, question := "between square brackets at the start of that evidence", "Summaries of other excerpts", "Question: ¿Qué pasó"
			if lang == "es" {
				format, summaries, question = "entre corchetes al comienzo de esa prueba", "Resúmenes de otros fragmentos", "Pregunta: ¿Qué pasó"
			}
			if !strings.Contains(sys, format) {
				t.Errorf("system message does not describe the citation format (%q)", format)
			}
			// Described in words: a placeholder in brackets ("[etiqueta]")
			// is label-shaped, and a weak model copies it as a label.
			if strings.ContainsAny(sys, "[]") {
				t.Errorf("system message holds square brackets, which only labels may:\n%s", sys)
			}
			if strings.Count(user, "[") != len(ctx.Full)+len(ctx.Summaries) {
				t.Errorf("square brackets other than the labels':\n%s", user)
			}
			last := -1
			for _, it := range ctx.Full {
				i := strings.Index(user, "### ["+it.Label+"]\n"+unbracket(it.Text))
				if i < last {
					t.Errorf("full item %q missing or out of order", it.Label)
				}
				last = i
			}
			s := strings.Index(user, summaries)
			if s < last {
				t.Errorf("summaries block missing or before the full evidence")
			}
			for _, it := range ctx.Summaries {
				if i := strings.Index(user, "- ["+it.Label+"] "+it.Text); i < s {
					t.Errorf("summary %q missing or outside its block", it.Label)
				}
				if strings.Contains(user, "### ["+it.Label+"]") {
					t.Errorf("summary %q mixed with the full evidence", it.Label)
				}
			}
			if q := strings.Index(user, question); q < s || !strings.HasSuffix(user, "sesión 12?") {
				t.Errorf("question not at the end of the user message")
			}

			// No digit but those of the labels, the evidence, the history
			// and the question: the model copies example numbers.
			var delivered []string
			for _, it := range ctx.Items() {
				delivered = append(delivered, it.Label, unbracket(it.Text))
			}
			delivered = append(delivered, "¿Qué pasó con el archiduque en la sesión 12?")
			for _, m := range history {
				delivered = append(delivered, m.Content)
			}
			for _, m := range msgs {
				rest := m.Content
				for _, d := range delivered {
					rest = strings.ReplaceAll(rest, d, "")
				}
				if i := strings.IndexFunc(rest, unicode.IsDigit); i >= 0 {
					t.Errorf("%s message has a digit of its own: %q", m.Role, rest[max(0, i-40):min(len(rest), i+40)])
				}
			}
		})
	}
}

func TestPromptLanguage(t *testing.T) {
	es := Prompt("es", "¿Quién es Nix?", Context{}, nil)
	en := Prompt("en", "Who is Nix?", Context{}, nil)
	other := Prompt("fr", "Qui est Nix ?", Context{}, nil)
	if !strings.Contains(es[0].Content, "Responde en el idioma de la pregunta") || !strings.Contains(es[1].Content, "Pruebas completas: ninguna.") {
		t.Errorf("Spanish prompt = %+v", es)
	}
	if !strings.Contains(en[0].Content, "Answer in the language of the question") || !strings.Contains(en[1].Content, "Full evidence: none.") {
		t.Errorf("English prompt = %+v", en)
	}
	if other[0].Content != en[0].Content {
		t.Errorf("a language other than es should get the English prompt")
	}
	for _, m := range append(es, en...) {
		if strings.Contains(m.Content, "Resúmenes") || strings.Contains(m.Content, "Summaries of") {
			t.Errorf("an empty summaries block is written: %q", m.Content)
		}
	}
	// The abstention the prompt asks for is one SaysNotInNotes recognises.
	for _, s := range []string{"Las notas no dicen quién es.", "The notes don't say who she is."} {
		if !SaysNotInNotes(s) {
			t.Errorf("SaysNotInNotes(%q) = false", s)
		}
	}
}

func TestAnnotationPrompt(t *testing.T) {
	for _, lang := range []string{"es", "en"} {
		msgs := AnnotationPrompt(lang, []string{"Diario", " Sesión 38 ", ""}, "\nLa Dama Velada recibió a los PJ.\n")
		if len(msgs) != 2 || msgs[0].Role != RoleSystem || msgs[1].Role != RoleUser {
			t.Fatalf("%s: messages = %+v", lang, msgs)
		}
		if !strings.Contains(msgs[1].Content, "Diario › Sesión 38") || !strings.HasSuffix(msgs[1].Content, "\nLa Dama Velada recibió a los PJ.") {
			t.Errorf("%s: user message = %q", lang, msgs[1].Content)
		}
		words := map[string]string{"es": "una o dos frases", "en": "one or two sentences"}[lang]
		if !strings.Contains(msgs[0].Content, words) {
			t.Errorf("%s: system message = %q", lang, msgs[0].Content)
		}
		rest := strings.ReplaceAll(msgs[1].Content, "Sesión 38", "")
		if strings.ContainsFunc(msgs[0].Content+rest, unicode.IsDigit) {
			t.Errorf("%s: annotation prompt has a digit of its own", lang)
		}
	}
	if msgs := AnnotationPrompt("es", nil, "Texto."); strings.Contains(msgs[1].Content, "Encabezados") {
		t.Errorf("headings line without headings: %q", msgs[1].Content)
	}
	if AnnotationPromptVersion == "" {
		t.Error("AnnotationPromptVersion is empty")
	}
}

// The model is shown the notes as their reader sees them: wikilinks as
// their shown text, no highlight, footnote or tag marks, in the full
// evidence, the summaries, verified memory and unconfirmed entries; the
// labels stay the only square brackets, and an answer citing them
// verifies. Annotations are asked of the same clean text.
func TestPromptRendersMarkup(t *testing.T) {
	raw := "[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]] volvió a [[Phandalin]] con ==la espada==[^1]. #pnj\n[^1]: Según [[Kleb]]."
	ctx := Context{
		Full:        []Item{{ID: 1, Label: "Sesión 4", File: "s.md", Kind: KindFull, Text: raw}},
		Memory:      []Item{{ID: 2, Label: "Memoria: Nix", Kind: KindMemory, Text: "==aliada== de [[Kleb]]"}},
		Unconfirmed: []Unconfirmed{{Key: "[[Nix]]", Value: "==traidora=="}},
		Summaries:   []Item{{ID: 3, Label: "Sesión 5", File: "t.md", Kind: KindSummary, Text: "[[Ser Morcant]] huyó ==de noche==."}},
	}
	user := Prompt("es", "¿Qué hizo Ser Morcant?", ctx, nil)[1].Content
	for _, bad := range []string{"[[", "((", "==", "(^", "[^", "#pnj", "Gloomy"} {
		if strings.Contains(user, bad) {
			t.Errorf("prompt holds %q:\n%s", bad, user)
		}
	}
	for _, want := range []string{"Ser Morcant volvió a Phandalin con la espada. pnj", "Según Kleb.", "- [Sesión 5] Ser Morcant huyó de noche.", "aliada de Kleb", "- Nix: traidora"} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %q:\n%s", want, user)
		}
	}
	if v := Verify("Ser Morcant volvió a Phandalin con la espada [Sesión 4].", ctx); len(v.Removed) != 0 || len(v.Citations) != 1 || !v.Citations[0].Valid {
		t.Errorf("a citation of the rendered evidence does not verify: %+v", v)
	}
	ann := AnnotationPrompt("es", []string{"Sesión 4", "En [[Phandalin]]"}, raw)[1].Content
	if strings.Contains(ann, "[[") || strings.Contains(ann, "==") || !strings.Contains(ann, "Ser Morcant volvió a Phandalin") || !strings.Contains(ann, "Sesión 4 › En Phandalin") {
		t.Errorf("annotation prompt not rendered:\n%s", ann)
	}
}
