package analysis

import "strings"

// stopFilter drops tokens whose (lowercase, folded) term is in words.
type stopFilter struct {
	words map[string]struct{}
}

// Filter implements TokenFilter.
func (f stopFilter) Filter(ts TokenStream) TokenStream {
	out := ts[:0]
	for _, t := range ts {
		if _, stop := f.words[t.Term]; !stop {
			out = append(out, t)
		}
	}
	return out
}

// stopSet builds a stop set from a whitespace-separated word list. Each
// word is folded like the terms it will be compared with, so the list can
// be written with its accents.
func stopSet(list string, keepEnye bool) map[string]struct{} {
	set := make(map[string]struct{})
	for _, w := range strings.Fields(list) {
		set[fold(strings.ToLower(w), keepEnye)] = struct{}{}
	}
	return set
}
