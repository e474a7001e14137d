package answer

import (
	"testing"

	"github.com/oraculo/oraculo/analysis"
)

// campaign is a small set of candidates in rank order, as fusion and
// reranking would hand them over.
func campaign() []Candidate {
	return []Candidate{
		{
			ID: 1, Label: "Sesión 38 › La Dama Velada", File: "Campaña/Diario.md", Session: 38, InSession: true,
			Headings: []string{"Diario", "Sesión 38", "La Dama Velada"},
			Text: "### La Dama Velada\nLa Dama Velada recibió a los PJ en la Torre de Sal. " +
				"Les pidió que recuperaran el Cáliz de Ezkarra.\nNix desconfió de ella y se negó a beber el vino.",
			Annotation: "La Dama Velada encarga a los PJ recuperar el Cáliz de Ezkarra; Nix desconfía de ella.",
		},
		{
			ID: 2, Label: "Sesión 38 › El puente", File: "Campaña/Diario.md", Session: 38, InSession: true,
			Text:       "### El puente\nEn el puente de Robledal los esperaba una emboscada de bandidos.",
			Annotation: "Emboscada de bandidos en el puente de Robledal.",
		},
		{
			ID: 3, Label: "Fichas: Nix", File: "Fichas/Nix.md",
			Text: "# Nix\nNix es una pícara tiefling de nivel 7. Perdió la espada de su madre en el río Galerna durante la sesión 12.\n" +
				"- Odia a los clérigos del Farolero.\n- Guarda un [objeto maldito] en su bolsa.",
		},
		{
			ID: 4, Label: "NPCs: Anika del Molino", File: "NPCs/Anika del Molino.md",
			Text: "Anika del Molino es la molinera de Robledal. El Sr. Pérez le debe dinero desde el invierno. " +
				"Sabe más de lo que cuenta sobre el archiduque.",
		},
		{
			ID: 5, Label: "Sesión 12", File: "Campaña/Diario.md", Session: 12, InSession: true,
			Text: "## Sesión 12 — El río\nLos PJ cruzaron el río Galerna. El archiduque Valcárcel huyó hacia el norte con su guardia. " +
				"¿Quién le avisó? Nadie lo sabe.",
		},
		{
			ID: 6, Label: "Sesión 12", File: "Campaña/Otra mesa.md", Session: 12, InSession: true,
			Text: "En la otra mesa, la sesión 12 fue una partida de prueba sin relación con la campaña.",
		},
	}
}

// campaignContext is Assemble(campaign()) with the defaults: five full items
// (the second half of session 38 is a summary) and "Sesión 12" made unique.
func campaignContext(t testing.TB) Context {
	t.Helper()
	ctx := Assemble(campaign(), AssembleOptions{})
	if len(ctx.Full) != 5 || len(ctx.Summaries) != 1 {
		t.Fatalf("campaign context: %d full, %d summaries", len(ctx.Full), len(ctx.Summaries))
	}
	return ctx
}

func spanishTerms(t testing.TB) func(string) []string {
	t.Helper()
	a, err := analysis.New("es")
	if err != nil {
		t.Fatal(err)
	}
	return a.Terms
}

func TestContextFind(t *testing.T) {
	ctx := campaignContext(t)
	tests := []struct {
		label string
		id    int64
		ok    bool
	}{
		{"Sesión 38 › La Dama Velada", 1, true},
		{"sesion 38 > la dama velada", 1, true},
		{"  SESIÓN   38 »  La  Dama Velada ", 1, true},
		{"Sesión 38->La Dama Velada", 1, true},
		{"«Sesión 38 › La Dama Velada».", 1, true},
		{"**Fichas: Nix**", 3, true},
		{"Fichas : Nix", 3, true},
		{"Fichas:Nix", 3, true},
		{"Sesión 38 › El puente", 2, true},
		{"Sesión 38", 1, true}, // the start of a label, up to " › "
		{"Sesión 12", 5, true}, // the start of "Sesión 12 (Diario)"
		{"Sesión 12 (Otra mesa)", 6, true},
		{"Sesión 119", 0, false},
		{"Sesión 3", 0, false}, // "Sesión 38" does not start with "Sesión 3 ›"
		{"Fichas", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		it, ok := ctx.Find(tt.label)
		if ok != tt.ok || it.ID != tt.id {
			t.Errorf("Find(%q) = %d, %v; want %d, %v", tt.label, it.ID, ok, tt.id, tt.ok)
		}
	}
}

func TestContextItems(t *testing.T) {
	ctx := campaignContext(t)
	items := ctx.Items()
	if len(items) != 6 || items[0].Kind != KindFull || items[5].Kind != KindSummary || items[5].ID != 2 {
		t.Fatalf("Items() = %+v", items)
	}
}
