package oraculo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval"
)

// TestExtractiveAnswersAreHonest: with no model, on every dev set's
// answerable questions, at most 5% get "the notes do not say" (abstained,
// grounding none), and every answer that does not abstain cites delivered
// evidence; a closest answer says so and claims nothing about absence.
func TestExtractiveAnswersAreHonest(t *testing.T) {
	if testing.Short() {
		t.Skip("long: every dev-set question")
	}
	ctx := context.Background()
	for _, set := range rankSets() {
		eng, qs := set.open(t, false)
		answerable, abstained, grounding := 0, 0, map[string]int{}
		for _, q := range raceSample(qs) {
			a, err := eng.Ask(ctx, q.Question, oraculo.AskOptions{Extractive: true})
			if err != nil {
				t.Fatalf("%s %q: %v", set.name, q.Question, err)
			}
			grounding[a.Grounding]++
			if a.Abstained != (a.Grounding == "none") {
				t.Errorf("%s %q: abstained %v with grounding %q", set.name, q.Question, a.Abstained, a.Grounding)
			}
			if q.Kind == eval.KindUnanswerable {
				continue
			}
			answerable++
			if a.Abstained {
				abstained++
				continue
			}
			if len(a.CitedEvidence()) == 0 {
				t.Errorf("%s %q: an answer that cites no delivered evidence: %q", set.name, q.Question, a.Answer)
			}
			// The notes' own sentences, each cited: none marked unsupported.
			if a.SupportedSentences != a.Sentences || len(a.Uncited) > 0 {
				t.Errorf("%s %q: %d of %d sentences supported in an extractive answer: %q", set.name, q.Question, a.SupportedSentences, a.Sentences, a.Answer)
			}
			if a.Grounding == "closest" && !strings.Contains(a.Answer, "lo más cercano") && !strings.Contains(a.Answer, "the closest") {
				t.Errorf("%s %q: a closest answer that does not say so: %q", set.name, q.Question, a.Answer)
			}
		}
		t.Logf("%s: %d of %d answerable questions abstained; grounding %v", set.name, abstained, answerable, grounding)
		if !raceDetector && 20*abstained > answerable { // a sample under the race detector is too small to measure
			t.Errorf("%s: %d of %d answerable questions got \"the notes do not say\" (more than 5%%)", set.name, abstained, answerable)
		}
	}
}
