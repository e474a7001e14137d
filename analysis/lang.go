package analysis

import (
	"strings"
	"unicode"
)

// QuestionLang guesses whether a question is Spanish ("es") or English
// ("en"): Spanish marks (¿ ¡ ñ, accented vowels) or more Spanish than
// English function words make it Spanish. Ties go to Spanish.
func QuestionLang(q string) string {
	if strings.ContainsAny(q, "¿¡ñÑáéíóúÁÉÍÓÚ") {
		return "es"
	}
	es, en := 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if spanishMarkers[w] {
			es++
		}
		if englishMarkers[w] {
			en++
		}
	}
	if en > es {
		return "en"
	}
	return "es"
}

var spanishMarkers = setOf("que", "qué", "el", "la", "los", "las", "de", "del", "y", "en", "con", "por", "para", "quien", "quién", "como", "donde", "cuando", "cual", "es", "un", "una", "se", "nos", "le", "lo", "al", "pasó", "paso", "hizo", "dijo", "sabemos")

var englishMarkers = setOf("what", "who", "whom", "where", "when", "why", "how", "which", "the", "an", "of", "and", "in", "on", "with", "did", "does", "do", "is", "was", "were", "to", "happened", "about", "we", "us", "our")
