package compendium

import (
	"strings"

	"github.com/oraculo/oraculo/text"
)

// Normalize returns the form of s used to compare names: its words
// ([text.Words]: runs of letters and digits, so hyphens and apostrophes
// separate them, "Kael-Dur" is two words) folded ([text.Fold]: lowercase,
// no accents) and joined by single spaces.
//
// "Ciénaga de Murgo" → "cienaga de murgo", "Kael-Dur" → "kael dur",
// "  ¡Ribafría!  " → "ribafria".
//
// Accents are folded with ñ → n as well (unlike the Spanish full-text
// analyser, which keeps ñ): names are often typed without it ("Penaurora"
// for "Peñaurora"), and two entity names that differ only by ñ are rarer
// than that. Matching (Matcher) uses exactly this folding, word by word.
func Normalize(s string) string {
	// Most words are plain ASCII letters and digits: one word, folded by
	// lowering its case.
	plain, upper := s != "", false
	for i := 0; i < len(s) && plain; i++ {
		switch c := s[i]; {
		case 'A' <= c && c <= 'Z':
			upper = true
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
		default:
			plain = false
		}
	}
	if plain {
		if upper {
			return strings.ToLower(s)
		}
		return s
	}
	var buf []byte
	for start, end := range text.Words(s) {
		if len(buf) > 0 {
			buf = append(buf, ' ')
		}
		buf = text.AppendFold(buf, s[start:end])
	}
	return string(buf)
}
