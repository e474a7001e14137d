package answer

import (
	"strings"
	"testing"
)

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

// TestExtractiveNoEvidence: summaries are not quoted, they are headlines
// (testdata/extractive asks with no evidence at all).
func TestExtractiveNoEvidence(t *testing.T) {
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
