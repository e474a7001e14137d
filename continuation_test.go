package oraculo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestAskContinuesInTime: in a chat over the sample, "¿y después?" after
// an answer citing sessions up to N cites sessions after N only, about the
// same subject, whether the turn kept the sessions its answer cited or
// only its text (the labels it cites, all an OpenAI-style chat keeps).
func TestAskContinuesInTime(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	const first = "¿Qué sabemos de Anika en la sesión 3?"
	prev, err := eng.Ask(ctx, first, oraculo.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(prev.Sessions) == 0 || prev.Abstained {
		t.Fatalf("the first answer cites no session: %q", prev.Answer)
	}
	n := slices.Max(prev.Sessions)
	kept := oraculo.Turn{Question: first, Answer: prev.Answer, Query: prev.Query, Sessions: prev.Sessions}
	textOnly := oraculo.Turn{Question: first, Answer: prev.Answer}
	for _, turn := range []oraculo.Turn{kept, textOnly} {
		for _, q := range []string{"¿y después?", "¿Y luego qué pasó?", "and then?"} {
			a, err := eng.Ask(ctx, q, oraculo.AskOptions{History: []oraculo.Turn{turn}})
			if err != nil {
				t.Fatal(err)
			}
			if a.After == nil || *a.After != n || a.Abstained || len(a.Sessions) == 0 {
				t.Fatalf("%q after sessions %v: after %v, cited %v, answer %q", q, prev.Sessions, a.After, a.Sessions, a.Answer)
			}
			if a.Sessions[0] <= n {
				t.Errorf("%q after sessions %v cites sessions %v, want only later ones", q, prev.Sessions, a.Sessions)
			}
			if a.Query != first {
				t.Errorf("%q searched %q, want the previous question alone", q, a.Query)
			}
		}
	}
}
