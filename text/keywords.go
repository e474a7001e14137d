package text

import "strings"

// Keywords are the words of s that tie an answer's claim to the sentence
// of a passage it rests on: folded ([Fold]), of four letters or more. The
// passage pages, the web page and the terminal chat mark the sentence
// sharing the most of them with the claim.
func Keywords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(Fold(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == 'ñ')
	}) {
		if len([]rune(w)) >= 4 {
			out[w] = true
		}
	}
	return out
}
