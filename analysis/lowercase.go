package analysis

import "strings"

// lowercaseFilter lowercases each term with Unicode simple case mapping
// (strings.ToLower), which is context-free and the same for every locale.
// Terms that are already lowercase are not copied.
type lowercaseFilter struct{}

// Filter implements TokenFilter.
func (lowercaseFilter) Filter(ts TokenStream) TokenStream {
	for i := range ts {
		ts[i].Term = strings.ToLower(ts[i].Term)
	}
	return ts
}
