package answer

import (
	"fmt"
	"strings"
	"testing"
)

// The best line reads on through what its quote introduces (a list whose
// items are too short to be quoted alone), under the same heading only,
// and passes Verify.
func TestExtractReadsOnThroughAList(t *testing.T) {
	text := "## Perito\n" +
		"Los requisitos para ser perito son varios.\n" +
		"- Tener el título\n" +
		"- Matricularse\n" +
		"- Cinco años de ejercicio\n" +
		"- Inscribirse\n\n" +
		"## Testigo\n" +
		"Un testigo declara lo que vio en el juicio.\n"
	ctx := Assemble([]Candidate{
		{ID: 1, Label: "Derecho procesal", File: "procesal.md", Text: text},
		{ID: 2, Label: "Contratos", File: "contratos.md", Text: "Un contrato obliga a las partes que lo firman."},
	}, AssembleOptions{})
	d := ExtractWith("¿Qué requisitos hay para ser perito?", ctx, spanishTerms(t), "es", nil, ExtractOptions{})
	first, _, _ := strings.Cut(d.Text, "\n")
	for _, want := range []string{"Los requisitos para ser perito", "Tener el título", "Matricularse", "Cinco años de ejercicio", "Inscribirse"} {
		if !strings.Contains(first, want) {
			t.Errorf("first line lacks %q:\n%s", want, d.Text)
		}
	}
	if strings.Contains(d.Text, "testigo") {
		t.Errorf("the answer read on past its heading:\n%s", d.Text)
	}
	if v := Verify(d.Text, ctx); len(v.Removed) > 0 || len(v.Uncited) > 0 {
		t.Errorf("verify: %+v", v)
	}
}

// Only the best line reads on, and never more than readOnWords.
func TestExtractReadOnIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("El perito Anselmo revisó el puente caído.")
	for i := range 30 {
		fmt.Fprintf(&b, " Frase %d del informe sobre piedras.", i)
	}
	ctx := Assemble([]Candidate{{ID: 1, Label: "Informe", File: "informe.md", Text: b.String()}}, AssembleOptions{})
	d := ExtractWith("¿Qué revisó el perito Anselmo?", ctx, spanishTerms(t), "es", nil, ExtractOptions{})
	if n := len(strings.Fields(d.Text)); n > 3*readOnWords {
		t.Errorf("answer of %d words:\n%s", n, d.Text)
	}
	if !strings.Contains(d.Text, "Frase 1 ") {
		t.Errorf("the best line did not read on:\n%s", d.Text)
	}
}

// A timeline with more sessions naming its subject, equally, than it has
// lines is the same on every run: the best-ranked sessions.
func TestExtractTimelineIsDeterministic(t *testing.T) {
	var cands []Candidate
	n := TimelineSentences + 8
	for i := range n {
		cands = append(cands, Candidate{ID: int64(i + 1), Label: fmt.Sprintf("Sesión %d", n-i), File: "s.md", Session: n - i, InSession: true,
			Text: "Vesper Quillon vuelve a la posada del puerto."})
	}
	ctx := Assemble(cands, AssembleOptions{Chronological: true, More: TimelineFull - DefaultFull})
	first := ""
	for run := range 30 {
		d := ExtractWith("¿Qué papel ha jugado Vesper Quillon?", ctx, spanishTerms(t), "es", nil, ExtractOptions{Timeline: true})
		if run == 0 {
			first = d.Text
			// the best ranked (TimelineSentences of them): sessions n
			// down to 9, in session order
			if !strings.HasPrefix(strings.TrimPrefix(first, "- "), "Vesper Quillon vuelve a la posada del puerto. [Sesión 9]") || strings.Contains(first, "[Sesión 8]") {
				t.Errorf("timeline:\n%s", first)
			}
		} else if d.Text != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", run, d.Text, first)
		}
	}
}
