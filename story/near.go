package story

import (
	"slices"
	"strings"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/text"
)

// nearNames are the names of the entities, at most three, best first,
// whose name or an alias is near name: a few letters apart (one in four),
// or holding it as a whole word ("Valcárcel" is near "Leoric
// Valcárcel"): what "did you mean" offers for a mistyped name.
func nearNames(ents []store.Entity, name string) []string {
	want := compendium.Normalize(name)
	if len(want) == 0 {
		return nil
	}
	type near struct {
		name string
		d    int
	}
	var found []near
	for _, e := range ents {
		best := -1
		for _, s := range append([]string{e.Name}, e.Aliases...) {
			k := compendium.Normalize(s)
			d := text.Distance(want, k)
			if d > len(want)/4 && slices.Contains(strings.Fields(k), want) {
				d = len(want)/4 + 1
			}
			if d <= len(want)/4+1 && (best < 0 || d < best) {
				best = d
			}
		}
		if best >= 0 {
			found = append(found, near{e.Name, best})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return a.d - b.d })
	var out []string
	for _, f := range found[:min(len(found), 3)] {
		out = append(out, f.name)
	}
	return out
}
