package answer

import (
	"fmt"
	"strings"
	"testing"
)

func TestExtractive(t *testing.T) {
	ctx := campaignContext(t)
	es := spanishTerms(t)
	tests := []struct {
		name     string
		question string
		terms    func(string) []string
		ok       bool
		first    string   // the first line
		has      []string // lines somewhere in the answer
		not      []string // text nowhere in the answer
		after    [2]string
	}{
		{
			name:     "a name",
			question: "¿Qué pasó con el archiduque?",
			terms:    es, ok: true,
			// Equal matches go in rank order.
			first: "- Sabe más de lo que cuenta sobre el archiduque. [NPCs: Anika del Molino]",
			has:   []string{"- El archiduque Valcárcel huyó hacia el norte con su guardia. [Sesión 12 (Diario)]"},
			not:   []string{"Cáliz"},
		},
		{
			name:     "several words, the rarest matter most",
			question: "¿Dónde perdió Nix la espada?",
			terms:    es, ok: true,
			first: "- Perdió la espada de su madre en el río Galerna durante la sesión 12. [Fichas: Nix]",
			not:   []string{"vino"},
		},
		{
			name:     "accents and case do not matter",
			question: "¿QUE PIDIO LA DAMA VELADA?",
			terms:    es, ok: true,
			first: "- Les pidió que recuperaran el Cáliz de Ezkarra. [Sesión 38 › La Dama Velada]",
		},
		{
			name:     "the label counts: what a session says",
			question: "¿Qué pasó en la sesión 12 del diario?",
			terms:    es, ok: true,
			first: "- Los PJ cruzaron el río Galerna. [Sesión 12 (Diario)]",
			has:   []string{"- El archiduque Valcárcel huyó hacia el norte con su guardia. [Sesión 12 (Diario)]"},
			// The other table's session 12 matches less, and comes after.
			after: [2]string{"Sesión 12 (Diario)", "Otra mesa"},
			not:   []string{"¿Quién le avisó?"},
		},
		{
			name:     "square brackets of the notes are not citations",
			question: "¿Qué guarda Nix en su bolsa?",
			terms:    es, ok: true,
			first: "- Guarda un (objeto maldito) en su bolsa. [Fichas: Nix]",
		},
		{
			name:     "without an analyser",
			question: "¿Quién es Anika del Molino?",
			terms:    nil, ok: true,
			first: "- Anika del Molino es la molinera de Robledal. [NPCs: Anika del Molino]",
		},
		{name: "something the notes lack", question: "¿Qué le pasó a Zorblax?", terms: es, ok: false},
		{name: "one known word is not enough", question: "¿Dónde escondió Zorblax la espada?", terms: es, ok: false},
		{name: "only question words", question: "¿Qué pasó?", terms: es, ok: false},
		{name: "empty", question: "", terms: es, ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Extractive(tt.question, ctx, tt.terms, "es")
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v; answer:\n%s", ok, tt.ok, got)
			}
			if !ok {
				if got != "" {
					t.Errorf("answer %q with ok false", got)
				}
				return
			}
			// A line quotes its sentence, then (cited again) the one that
			// follows it in its note.
			lines := strings.Split(got, "\n")
			if lines[0] != tt.first && !strings.HasPrefix(lines[0], tt.first+" ") {
				t.Errorf("first line = %q\nwant         %q\nanswer:\n%s", lines[0], tt.first, got)
			}
			for _, h := range tt.has {
				if !strings.Contains(got, strings.TrimPrefix(h, "- ")) {
					t.Errorf("answer lacks %q:\n%s", h, got)
				}
			}
			if a, b := tt.after[0], tt.after[1]; a != "" && (!strings.Contains(got, a) || !strings.Contains(got, b) || strings.Index(got, a) > strings.Index(got, b)) {
				t.Errorf("answer does not have %q before %q:\n%s", a, b, got)
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("answer has %q:\n%s", n, got)
				}
			}
			checkExtractive(t, got, ctx)
		})
	}
}

// checkExtractive asserts that an extractive answer verifies cleanly and
// keeps to its limits.
func checkExtractive(t *testing.T, got string, ctx Context) {
	t.Helper()
	v := Verify(got, ctx)
	if v.Text != got || len(v.Removed) != 0 || len(v.Uncited) != 0 {
		t.Errorf("extractive answer does not verify cleanly: %+v", v)
	}
	lines := strings.Split(got, "\n")
	// Each line cites its sentence, and the one that follows it when it
	// comes along.
	if len(lines) > ExtractiveSentences || len(v.Citations) < len(lines) || len(v.Citations) > 2*len(lines)+readOnWords {
		t.Errorf("%d lines, %d citations", len(lines), len(v.Citations))
	}
	items := map[int64]bool{}
	for _, c := range v.Citations {
		items[*c.Evidence] = true
		if c.Kind != KindFull {
			t.Errorf("extractive answer cites a summary: %+v", c)
		}
	}
	if len(items) > ExtractiveItems {
		t.Errorf("extractive answer quotes %d items", len(items))
	}
}

func TestExtractiveLimits(t *testing.T) {
	session := func(n int, text string) Candidate {
		return Candidate{ID: int64(n), Label: fmt.Sprintf("Sesión %d", n), File: "d.md", Session: n, InSession: true, Text: text}
	}
	tests := []struct {
		name  string
		cands []Candidate
		lines int
	}{
		{
			name: "at most ExtractiveSentences lines",
			cands: []Candidate{session(1, "El dragón rojo atacó la aldea. El dragón rojo quemó el molino. "+
				"El dragón rojo huyó al volcán. El dragón rojo volvió al alba. El dragón rojo durmió. "+
				"El dragón rojo cazó dos vacas. El dragón rojo rugió al mediodía. El dragón rojo bebió del río. Llovió toda la noche.")},
			lines: ExtractiveSentences,
		},
		{
			name: "from at most ExtractiveItems items, one sentence each",
			cands: []Candidate{
				session(1, "El dragón rojo atacó la aldea."), session(2, "El dragón rojo quemó el molino."),
				session(3, "El dragón rojo huyó al volcán."), session(4, "El dragón rojo volvió al alba."),
				session(5, "El dragón rojo durmió en la cueva."), session(6, "El dragón rojo cazó dos vacas."),
				session(7, "El dragón rojo rugió al mediodía."), session(8, "El dragón rojo bebió del río."),
			},
			lines: ExtractiveItems,
		},
		{
			name: "the same sentence is quoted once",
			cands: []Candidate{
				session(1, "El dragón rojo atacó la aldea. Llovió."), session(2, "El dragón rojo atacó la aldea."),
			},
			lines: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := Assemble(tt.cands, AssembleOptions{})
			got, ok := Extractive("¿Qué hizo el dragón rojo?", ctx, spanishTerms(t), "es")
			if !ok {
				t.Fatal("no answer")
			}
			if n := len(strings.Split(got, "\n")); n != tt.lines {
				t.Errorf("%d sentences, want %d:\n%s", n, tt.lines, got)
			}
			checkExtractive(t, got, ctx)
		})
	}
}

func TestExtractiveEnglish(t *testing.T) {
	ctx := Assemble([]Candidate{
		{ID: 1, Label: "Session 4", File: "log.md", Session: 4, InSession: true, Text: "The party reached Galerna. The duke fled north before dawn. Nobody followed him."},
		{ID: 2, Label: "Characters: Nix", File: "Characters/Nix.md", Text: "Nix is a tiefling rogue. She hates the duke."},
	}, AssembleOptions{})
	got, ok := Extractive("What happened to the duke?", ctx, nil, "en")
	if !ok || !strings.HasPrefix(got, "- The duke fled north before dawn. [Session 4] Nobody followed him. [Session 4]\n") {
		t.Errorf("Extractive = %q, %v", got, ok)
	}
	checkExtractive(t, got, ctx)
}

func TestExtractiveNoEvidence(t *testing.T) {
	if got, ok := Extractive("¿Quién es Nix?", Context{}, nil, "es"); ok || got != "" {
		t.Errorf("Extractive with no evidence = %q, %v", got, ok)
	}
	// Summaries are not quoted: they are headlines.
	ctx := Context{Summaries: []Item{{ID: 1, Label: "Fichas: Nix", Kind: KindSummary, Text: "Nix es una pícara tiefling."}}}
	if got, ok := Extractive("¿Quién es Nix?", ctx, nil, "es"); ok || got != "" {
		t.Errorf("Extractive from summaries = %q, %v", got, ok)
	}
}

// TestClosestForAbstention: when no sentence answers well enough, the
// abstention quotes the sentences that come closest, with their labels,
// and still verifies cleanly.
func TestClosestForAbstention(t *testing.T) {
	ctx := Assemble([]Candidate{
		{ID: 1, Label: "Sesión 3", File: "s.md", Session: 3, InSession: true, Text: "Nix fue abandonada de bebé en la escalinata del Templo del Alba. Los curas la echaron a los seis años."},
		{ID: 2, Label: "Sesión 4", File: "s.md", Session: 4, InSession: true, Text: "Llueve sobre el puerto toda la noche."},
	}, AssembleOptions{})
	q := "¿Quién abandonó a Nix en la escalinata del templo, y por qué lo hizo su madre?"
	closest := Closest(q, ctx, nil, "es")
	if len(closest) == 0 || !strings.Contains(closest[0], "escalinata") || !strings.HasSuffix(closest[0], "[Sesión 3]") {
		t.Fatalf("closest %q", closest)
	}
	a := AbstentionWith("es", ctx, closest)
	if !strings.HasPrefix(a, "Las notas no dicen eso") || !strings.Contains(a, "escalinata") || !SaysNotInNotes(a) {
		t.Errorf("abstention %q", a)
	}
	if v := Verify(a, ctx); len(v.Removed) != 0 || len(v.Uncited) != 0 {
		t.Errorf("abstention does not verify: removed %v uncited %v", v.Removed, v.Uncited)
	}
	if got := Closest("xylofón cuántico", ctx, nil, "es"); got != nil {
		t.Errorf("nothing close: %q", got)
	}
}
