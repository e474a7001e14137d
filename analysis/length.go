package analysis

// MaxTermBytes is the longest term, in bytes, that an Analyzer keeps.
// Longer tokens (hashes, base64, URLs glued together...) are dropped, not
// truncated: a truncated prefix would match unrelated words and is never
// what someone types in a question. The limit is applied after lowercasing
// and folding, so it does not depend on the input's normalisation form.
const MaxTermBytes = 64

// lengthFilter drops tokens whose term is empty or longer than max bytes.
type lengthFilter struct {
	max int
}

// Filter implements TokenFilter.
func (f lengthFilter) Filter(ts TokenStream) TokenStream {
	out := ts[:0]
	for _, t := range ts {
		if len(t.Term) > 0 && len(t.Term) <= f.max {
			out = append(out, t)
		}
	}
	return out
}
