package oraculo_test

import (
	"context"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestSearchOrderDoesNotDependOnK: over every dev-set question, for every
// path alone and for their fusion, the first n hits of a search for n are
// the first n of a search for more: a chunk's rank never depends on how
// many hits were asked for (the CLI asks 10, MCP 8, ask 40, eval 50).
func TestSearchOrderDoesNotDependOnK(t *testing.T) {
	if testing.Short() {
		t.Skip("long: every dev-set question, several k")
	}
	ctx := context.Background()
	ks := []int{1, 3, 8, 12, 40}
	for _, set := range rankSets() {
		eng, qs := set.open(t, true)
		configs := [][]string{{"bm25"}, {"dense"}, {"entity"}, nil}
		broken := 0
		for _, q := range raceSample(qs) {
			for _, paths := range configs {
				var longest []oraculo.Hit
				for i := len(ks) - 1; i >= 0; i-- {
					hits, err := eng.Search(ctx, q.Question, oraculo.SearchOptions{K: ks[i], Paths: paths})
					if err != nil {
						t.Fatalf("%s %q %v: %v", set.name, q.Question, paths, err)
					}
					if longest == nil {
						longest = hits
						continue
					}
					for j := range hits {
						if j >= len(longest) || hits[j].ID != longest[j].ID {
							broken++
							if broken <= 5 {
								t.Errorf("%s, paths %v, %q: hit %d of k=%d is %s, of k=%d it is not", set.name, paths, q.Question, j+1, ks[i], hits[j].Label, ks[len(ks)-1])
							}
							break
						}
					}
				}
			}
		}
		if broken > 0 {
			t.Errorf("%s: %d searches were not a prefix of the longest one", set.name, broken)
		}
	}
}
