package analysis

import "github.com/oraculo/oraculo/text"

// foldFilter removes diacritics so that accented and unaccented spellings
// give the same term ("sesión" → "sesion", "pingüino" → "pinguino",
// "garçon" → "garcon"), whether the input was precomposed (NFC) or
// decomposed (NFD), as [text.Fold] does. With keepEnye a tilde on n is
// kept, since ñ is a separate letter in Spanish ("año" is not "ano");
// without it ñ folds to n. Terms are already lowercase.
type foldFilter struct {
	keepEnye bool
}

// Filter implements TokenFilter.
func (f foldFilter) Filter(ts TokenStream) TokenStream {
	for i := range ts {
		ts[i].Term = fold(ts[i].Term, f.keepEnye)
	}
	return ts
}

// fold returns s folded as foldFilter folds a term.
func fold(s string, keepEnye bool) string {
	if keepEnye {
		return text.FoldKeepEnye(s)
	}
	return text.Fold(s)
}
