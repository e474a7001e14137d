package answer

import (
	"slices"
	"strings"
	"testing"
)

func TestQuestionKinds(t *testing.T) {
	cases := []struct {
		q    string
		want []string
	}{
		{"¿Quién nos dio el mapa?", []string{AskWho}},
		{"¿Cómo se llama el caballo de Tomás?", []string{AskWho}},
		{"¿Adónde fue Nix?", []string{AskWhere}},
		{"¿Dónde y cuándo murió Corvo?", []string{AskWhere, AskWhen}},
		{"¿En qué sesión murió Corvo?", []string{AskWhen}},
		{"¿Cuántas jarras había?", []string{AskHowMany}},
		{"¿Por qué se fue Rhosyn?", []string{AskWhy}},
		// Without an accent these are not questions: "cuando volvimos".
		{"¿Qué había pasado en Ribafría cuando volvimos?", nil},
		{"Who gave us the map?", []string{AskWho}},
		{"Where did Kleb's sword come from, and when did he swap it?", []string{AskWhere, AskWhen}},
		{"How much did the priests charge?", []string{AskHowMany}},
		{"Why did we leave?", []string{AskWhy}},
		{"What happened when we came back?", nil},
	}
	for _, c := range cases {
		if got := QuestionKinds(c.q); !slices.Equal(got, c.want) {
			t.Errorf("QuestionKinds(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestAsksForTimeline(t *testing.T) {
	cases := []struct {
		q    string
		want bool
	}{
		{"¿Qué papel ha jugado Vesper?", true},
		{"¿Qué ha hecho Vesper a lo largo de la campaña?", true},
		{"Resúmeme la historia de Cardenio: quién era, qué le pasó con Luscinda y cómo acabó.", true},
		{"What has Kleb done across the sessions?", true},
		{"Tell me Beezer's whole story with us.", true},
		{"What was our history with Toby Keith Blackbird?", true},
		// The arc phrases are query's, one list: what search reads as an
		// arc is a timeline here too (these three were not, before issue 28).
		{"¿Qué se hizo de Harbin Wester?", true},
		{"Tell me about Vesper in the entire campaign", true},
		{"¿En cuántas ocasiones vimos al archiduque?", true},
		{"¿Quién nos dio el mapa de las criptas?", false},
		{"¿Qué pasó cuando volvimos a Ribafría?", false},
		{"Who gave us the map?", false},
	}
	for _, c := range cases {
		if got := AsksForTimeline(c.q); got != c.want {
			t.Errorf("AsksForTimeline(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// sessionsContext is evidence in session order: Vesper appears in
// sessions 1, 2 and 4, and session 3 says nothing of him.
func sessionsContext() Context {
	return Assemble([]Candidate{
		{ID: 4, Label: "Sesión 4", File: "s.md", Session: 4, InSession: true, Text: "Sacamos a Vesper de la cárcel escondido en un saco de harina. Llovía."},
		{ID: 2, Label: "Sesión 2", File: "s.md", Session: 2, InSession: true, Text: "Cruzamos el pantano. Vesper nos traiciona y vende el mapa a la Guardia."},
		{ID: 1, Label: "Sesión 1", File: "s.md", Session: 1, InSession: true, Text: "Vesper nos recibe en el Gremio del Farol y nos da un mapa. El posadero cobra tres monedas. Dormimos en el establo de la posada."},
		{ID: 3, Label: "Sesión 3", File: "s.md", Session: 3, InSession: true, Text: "Descansamos en la posada y reparamos las armas del grupo."},
	}, AssembleOptions{Chronological: true})
}

// TestExtractTimeline: an arc question is answered with one cited
// sentence per session that names its subject, with the sentence that
// follows it and no more, in session order, not in rank order, and the
// sessions that do not name it are left out.
func TestExtractTimeline(t *testing.T) {
	ctx := sessionsContext()
	d := ExtractWith("¿Qué papel ha jugado Vesper en la campaña?", ctx, nil, "es", nil, ExtractOptions{Timeline: true})
	want := "- Vesper nos recibe en el Gremio del Farol y nos da un mapa. [Sesión 1] El posadero cobra tres monedas. [Sesión 1]\n" +
		"- Vesper nos traiciona y vende el mapa a la Guardia. [Sesión 2]\n" +
		"- Sacamos a Vesper de la cárcel escondido en un saco de harina. [Sesión 4]"
	if d.Text != want || d.Closest {
		t.Errorf("timeline:\n%s\n(closest %v), want:\n%s", d.Text, d.Closest, want)
	}
	// Extract decides for itself that the question asks for a history.
	if got := Extract("¿Qué papel ha jugado Vesper en la campaña?", ctx, nil, "es", nil); got.Text != want {
		t.Errorf("Extract:\n%s", got.Text)
	}
	v := Judge("¿Qué papel ha jugado Vesper?", d, ctx, nil, "es")
	if v.Grounding != GroundingDirect || len(v.Removed) > 0 || v.Supported != 4 {
		t.Errorf("timeline verdict: %+v", v)
	}
}

// TestExtractNeverSaysQuestionWordsAreMissing: words the notes happen not
// to use (question words, common words, inflections) are never said to
// be in no note; only a name no note uses is.
func TestExtractNeverSaysQuestionWordsAreMissing(t *testing.T) {
	ctx := sessionsContext()
	notes := map[string]bool{}
	for _, it := range ctx.Full {
		for _, w := range analyzerTerms("es")(it.Text) {
			notes[w] = true
		}
	}
	used := func(term string) bool { return notes[term] }
	for _, q := range []string{
		"¿Adónde llevó el joven Vesper el mapa?",
		"¿Por qué echaran a Vesper de la cárcel?",
		"¿Quién arregló las armas del grupo en la posada?",
		"Adónde fue Vesper cuando destruyera el mapa",
	} {
		d := Extract(q, ctx, nil, "es", used)
		v := Judge(q, d, ctx, nil, "es")
		if len(d.Unmentioned) > 0 || strings.Contains(v.Text, "Ninguna nota menciona") {
			t.Errorf("%q: unmentioned %q, answer %q", q, d.Unmentioned, v.Text)
		}
	}
	d := Extract("¿Dónde vive Zarquifol?", ctx, nil, "es", used)
	if !slices.Equal(d.Unmentioned, []string{"Zarquifol"}) {
		t.Errorf("a name no note uses: unmentioned %q", d.Unmentioned)
	}
}

// TestExtractClosestWhenOffTopic: sentences that match the question's
// common words but not what it is about, or not what it asks for, are
// given as what comes closest, said in words, never as the answer.
func TestExtractClosestWhenOffTopic(t *testing.T) {
	ctx := Assemble([]Candidate{
		{ID: 1, Label: "Sesión 5", File: "s.md", Session: 5, InSession: true, Text: "Tomás compra una armadura de placas con el dinero del archiduque. Tomás cabalga hacia el norte con la armadura puesta."},
		{ID: 2, Label: "Sesión 6", File: "s.md", Session: 6, InSession: true, Text: "Nix fue abandonada de bebé en la escalinata del Templo del Alba. Llueve toda la noche."},
	}, AssembleOptions{})
	cases := []struct{ q, lang, intro string }{
		// What it asks for (a price) is not in the sentences.
		{"¿Cuánto costó la armadura de placas de Tomás?", "es", "Esto es lo más cercano"},
		// Nor who did it.
		{"¿Quién abandonó a Nix en la escalinata del Templo del Alba?", "es", "Esto es lo más cercano"},
		// Nor its rare word (the helmet).
		{"¿Qué yelmo compra Tomás con el dinero del archiduque?", "es", "Esto es lo más cercano"},
		{"How much did Tomás pay for the plate armour?", "en", "This is the closest"},
	}
	for _, c := range cases {
		d := Extract(c.q, ctx, nil, c.lang, func(string) bool { return true })
		v := Judge(c.q, d, ctx, nil, c.lang)
		if v.Grounding != GroundingClosest || !strings.HasPrefix(v.Text, c.intro) || v.Abstained {
			t.Errorf("%q: grounding %q, abstained %v:\n%s", c.q, v.Grounding, v.Abstained, v.Text)
		}
	}
	// The same evidence answers squarely what it does say.
	q := "¿Con qué dinero compra Tomás la armadura de placas?"
	if v := Judge(q, Extract(q, ctx, nil, "es", func(string) bool { return true }), ctx, nil, "es"); v.Grounding != GroundingDirect {
		t.Errorf("%q: grounding %q:\n%s", q, v.Grounding, v.Text)
	}
}

// TestJudgeNoNotes: an empty index says so, in the asker's language, and
// tells only the owner how to add notes.
func TestJudgeNoNotes(t *testing.T) {
	cases := []struct {
		lang  string
		owner bool
		want  string
	}{
		{"es", true, "El índice está vacío"},
		{"en", true, "The index is empty"},
		{"es", false, "Todavía no hay notas que consultar."},
		{"en", false, "There are no notes to look in yet."},
	}
	for _, c := range cases {
		v := Judge("hola", Draft{NoNotes: true, Owner: c.owner}, Context{}, nil, c.lang)
		if !strings.HasPrefix(v.Text, c.want) || !v.Abstained || v.Grounding != GroundingNone || strings.Contains(v.Text, "menciona") {
			t.Errorf("%s owner %v: %+v", c.lang, c.owner, v)
		}
		if !c.owner && strings.Contains(v.Text, "ingest") {
			t.Errorf("a player is told to ingest: %q", v.Text)
		}
	}
}

// TestUnknownNamesSkipsCodes: a code or formula ("CO2") is written in
// many ways by notes and is never said to be missing; a name is.
func TestUnknownNamesSkipsCodes(t *testing.T) {
	used := func(string) bool { return false }
	got := UnknownNames("¿Qué limitaciones tiene el CO2 frente a Zarquifol?", "es", nil, used)
	if !slices.Equal(got, []string{"Zarquifol"}) {
		t.Errorf("UnknownNames = %q", got)
	}
}

// TestExtractWithoutLookup: with no way to look words up, nothing is said
// to be missing, and a name outside the evidence is no reason to fail.
func TestExtractWithoutLookup(t *testing.T) {
	d := Extract("¿Dónde vive Zarquifol?", sessionsContext(), nil, "es", nil)
	if len(d.Unmentioned) > 0 {
		t.Errorf("unmentioned %q without a lookup", d.Unmentioned)
	}
}

// TestWhoAnsweredByAnOpeningName: a name that opens the sentence answers
// "¿quién…?"; an ordinary opening word, or one the question uses, does
// not.
func TestWhoAnsweredByAnOpeningName(t *testing.T) {
	ctx := Assemble([]Candidate{
		{ID: 1, Label: "Sesión 2", File: "s.md", Session: 2, InSession: true, Text: "Vesper les da un mapa de las Criptas de Ulmenor dibujado en piel de cabra."},
		{ID: 2, Label: "Sesión 6", File: "s.md", Session: 6, InSession: true, Text: "Abandonada de bebé en la escalinata del Templo del Alba, según dice."},
	}, AssembleOptions{})
	cases := []struct{ q, want string }{
		{"¿Quién nos dio el mapa de las Criptas de Ulmenor?", GroundingDirect},
		{"¿Quién abandonó a Nix en la escalinata del Templo del Alba?", GroundingClosest},
	}
	for _, c := range cases {
		v := Judge(c.q, Extract(c.q, ctx, nil, "es", func(string) bool { return true }), ctx, nil, "es")
		if v.Grounding != c.want {
			t.Errorf("%q: grounding %q, want %q:\n%s", c.q, v.Grounding, c.want, v.Text)
		}
	}
}
