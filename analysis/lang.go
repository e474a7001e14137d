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

// Languages are the languages Oráculo analyses, in the order used when
// one must be chosen and nothing tells them apart: Spanish first.
var Languages = []string{"es", "en"}

// NoteLangRevision names the behaviour of [NoteLang]: bump it whenever a
// change can recognise another language for the same text, so that an
// index that stores it knows its notes must be recognised again.
const NoteLangRevision = 1

// noteLangWords is how many words of a note [NoteLang] reads: the first
// ones, enough to tell, and a long note costs no more than a short one.
const noteLangWords = 3000

// NoteLang recognises the language of a note's text, "es" or "en", from
// the function words of each language it holds (words frequent in one
// language and rare in the other: "de", "que", "los" against "the", "of",
// "was") and from Spanish letters (ñ, accented vowels, ¿ and ¡). sure is
// false when the text holds too few of them, or about as many of each,
// to tell (a list of names, a one-line note): the language returned is
// then the one the text leans to, Spanish on a tie, and the caller may
// prefer what it knows of the other notes. It reads at most the first
// few thousand words; it never fails.
func NoteLang(text string) (lang string, sure bool) {
	es, en := 0.0, 0.0
	words := 0
	var buf [noteWordMax]byte
	for w := range strings.FieldsFuncSeq(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' }) {
		if words++; words > noteLangWords {
			break
		}
		if lw, ascii := asciiLower(buf[:0], w); ascii {
			// Most words: no Spanish letter, and no allocation to look
			// them up ([]byte to string in a map index does not copy).
			switch {
			case lw == nil: // too long for a function word
			case noteSpanishWords[string(lw)]:
				es++
			case noteEnglishWords[string(lw)]:
				en++
			}
			continue
		}
		lw := strings.ToLower(strings.Trim(w, "'’"))
		switch {
		case noteSpanishWords[lw]:
			es++
		case noteEnglishWords[lw]:
			en++
		}
		// A Spanish letter counts for half a function word: names
		// (Jesús, Peña) carry them too.
		if strings.ContainsAny(lw, "ñáéíóú") {
			es += 0.5
		}
	}
	es += float64(strings.Count(text, "¿")+strings.Count(text, "¡")) / 2
	switch {
	case en > es:
		lang = "en"
	default:
		lang = "es"
	}
	hi, lo := max(es, en), min(es, en)
	// Sure: a handful of function words, and one language's at least
	// twice the other's.
	sure = hi >= 4 && hi >= 2*lo
	return lang, sure
}

// noteWordMax is longer than any word of noteSpanishWords and
// noteEnglishWords.
const noteWordMax = 16

// asciiLower returns w without its leading and trailing apostrophes,
// lowercased, appended to dst, when w is ASCII (ascii); nil when it is
// longer than noteWordMax, being no function word then.
func asciiLower(dst []byte, w string) (lw []byte, ascii bool) {
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return nil, false
		}
	}
	w = strings.Trim(w, "'")
	if len(w) > noteWordMax {
		return nil, true
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst, true
}

// noteSpanishWords are Spanish function words that are not English words
// (or are rare ones): "a", "no", "me", "he", "son", "sin" are left out.
var noteSpanishWords = setOf("de", "la", "que", "el", "en", "y", "los", "del", "las", "un", "por", "con", "una", "para", "es", "al", "lo", "como", "más", "mas", "pero", "sus", "le", "ya", "fue", "este", "ha", "sí", "si", "porque", "esta", "está", "entre", "cuando", "muy", "sobre", "también", "hasta", "hay", "donde", "dónde", "quien", "quién", "desde", "todo", "nos", "durante", "todos", "uno", "les", "ni", "contra", "otros", "ese", "eso", "ante", "ellos", "esto", "antes", "algunos", "qué", "unos", "yo", "otro", "otras", "otra", "él", "tanto", "esa", "estos", "mucho", "quienes", "nada", "muchos", "cual", "cuál", "poco", "ella", "estar", "estas", "algunas", "algo", "nosotros", "se", "su", "era", "eran", "han", "había", "fueron", "tiene", "sin", "pues", "aunque", "mientras", "luego", "después", "así", "aquí", "allí", "ahora", "entonces", "cómo", "según")

// noteEnglishWords are English function words that are not Spanish words.
var noteEnglishWords = setOf("the", "of", "and", "to", "in", "is", "was", "that", "it", "for", "on", "with", "as", "his", "he", "at", "by", "be", "this", "had", "from", "they", "were", "are", "but", "not", "have", "which", "or", "an", "their", "she", "her", "you", "we", "there", "been", "has", "would", "when", "who", "will", "him", "what", "into", "them", "its", "could", "our", "out", "up", "then", "than", "so", "if", "can", "about", "after", "where", "some", "also", "did", "does", "do", "i", "my", "us", "your", "these", "those", "should", "while", "over", "back", "just", "all", "any", "because", "through", "where's", "it's", "don't", "didn't")
