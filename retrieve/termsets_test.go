package retrieve

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/store"
)

// A remembered set is the set analysing gives, for each analyser apart,
// and the sets start again when full.
func TestTermSetsAreTheAnalysis(t *testing.T) {
	es, err := analysis.New("es")
	if err != nil {
		t.Fatal(err)
	}
	en, err := analysis.New("en")
	if err != nil {
		t.Fatal(err)
	}
	setOf := func(ts []string) []string { return slices.Compact(slices.Sorted(slices.Values(ts))) }
	var c termSets
	texts := []string{"Los caballeros cabalgaron hacia la ciudad.", "The knights rode to the city.", ""}
	for round := range 2 {
		for _, an := range []*analysis.Analyzer{es, en} {
			for _, text := range texts {
				if got, want := c.passage(an, text), setOf(an.Terms(text)); !slices.Equal(got, want) {
					t.Errorf("round %d, %s, %q: %v, want %v", round, an.Lang(), text, got, want)
				}
			}
			heads := []string{"Sesión 3", "Lo que pasó"}
			want := setOf(strings.Fields(store.HeadingTerms(an.Terms, "Notas/Caballeros del alba.md", heads)))
			if got := c.heading(an, "Notas/Caballeros del alba.md", heads); !slices.Equal(got, want) {
				t.Errorf("round %d, %s: heading %v, want %v", round, an.Lang(), got, want)
			}
		}
	}
	// The same text as a heading path and a passage are two sets.
	if got := c.heading(es, "x.md", nil); !holds(got, "x") || len(c.sets) != 2*(len(texts)+1)+1 {
		t.Errorf("heading of x.md %v, %d sets kept", got, len(c.sets))
	}
	// Past a generation, the sets in use stay; the others go.
	for i := range 2*maxTermSets + 1 {
		c.passage(es, strings.Repeat("a", i%100+1)+string(rune('a'+i/100%26))+string(rune('a'+i/2600)))
		c.passage(es, texts[0])
	}
	if n := len(c.sets) + len(c.prev); n > 2*maxTermSets {
		t.Errorf("%d sets kept, bound %d", n, 2*maxTermSets)
	}
	if _, ok := c.sets[termSetKey{an: es, text: texts[0]}]; !ok {
		t.Errorf("the set in use was dropped")
	}
}

// Searches share the sets: many at once get the analysis, each its own
// text's (run with -race).
func TestTermSetsConcurrent(t *testing.T) {
	es, err := analysis.New("es")
	if err != nil {
		t.Fatal(err)
	}
	var c termSets
	texts := []string{"los caballeros", "la ciudad amurallada", "el dragón dormía"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				text := texts[(g+i)%len(texts)]
				if got, want := c.passage(es, text), slices.Compact(slices.Sorted(slices.Values(es.Terms(text)))); !slices.Equal(got, want) {
					t.Errorf("%q: %v, want %v", text, got, want)
					return
				}
				c.heading(es, "n.md", []string{text})
			}
		})
	}
	wg.Wait()
}
