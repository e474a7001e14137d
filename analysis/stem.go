package analysis

// stemFilter replaces each term by its stem. Stemmers never return an empty
// string for a non-empty input, but a token whose stem is empty would be
// dropped rather than emitted.
type stemFilter struct {
	stem func(string) string
}

// Filter implements TokenFilter.
func (f stemFilter) Filter(ts TokenStream) TokenStream {
	out := ts[:0]
	for _, t := range ts {
		t.Term = f.stem(t.Term)
		if t.Term != "" {
			out = append(out, t)
		}
	}
	return out
}
