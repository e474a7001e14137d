package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	txt "github.com/oraculo/oraculo/text"
)

// ShortQuestionWords is the most content words (words that are not stop
// words in Spanish or English) a question may have and still count as
// short: "¿qué pasó después?", "who killed him?".
const ShortQuestionWords = 4

// followUpStarts are the first words of a question that goes on from the
// previous one, folded.
var followUpStarts = setOf("y", "e", "pero", "entonces", "luego", "despues",
	"and", "but", "then", "so")

// followUpOpenings are openings of two words with the same effect.
var followUpOpenings = []string{"what about", "how about"}

// FollowUp decides, without a model, whether question stands alone, and
// when it does not returns the query to search with: previous (the last
// user question) + " " + question. The question the model answers is still
// question; the expansion is for retrieval only.
//
// A question does not stand alone when it starts with "y", "e", "pero",
// "entonces", "luego", "después", "and", "but", "then", "so", "what about"
// or "how about" (ignoring case, accents, an opening ¿ or ¡, quotes and
// other punctuation), or when it is short (at most ShortQuestionWords
// content words) and names no one. A question that names someone always
// stands alone ("¿y qué hizo Baika?" brings its own subject), and so does
// any question when previous is empty. names reports whether a text names
// an entity (the compendium's matcher); when nil, a capitalised word that
// does not start a sentence counts as a name ("I" does not).
//
// previous is the last user question. For a chain of follow-ups ("¿y
// luego?" after "¿y después?") the caller may pass instead the query that
// question was searched with, so that the chain keeps its subject.
func FollowUp(question, previous string, names func(string) bool) (query string, expanded bool) {
	question, previous = strings.TrimSpace(question), strings.TrimSpace(previous)
	if question == "" || previous == "" {
		return question, false
	}
	if names == nil {
		names = capitalisedName
	}
	if names(question) {
		return question, false
	}
	if startsFollowUp(question) || contentWords(question) <= ShortQuestionWords {
		return previous + " " + question, true
	}
	return question, false
}

// startsFollowUp reports a question that opens with a follow-up word.
func startsFollowUp(q string) bool {
	w := words(q)
	if len(w) == 0 {
		return false
	}
	if followUpStarts[w[0]] {
		return true
	}
	if len(w) >= 2 {
		two := w[0] + " " + w[1]
		for _, o := range followUpOpenings {
			if two == o {
				return true
			}
		}
	}
	return false
}

// contentWords counts the words of q that neither language stops.
func contentWords(q string) int {
	n := 0
	for _, w := range words(q) {
		content := true
		for _, a := range analyzers() {
			if len(a.Terms(w)) == 0 {
				content = false
				break
			}
		}
		if content {
			n++
		}
	}
	return n
}

// capitalisedName reports a word that starts with a capital letter and
// does not start a sentence: the fallback for names in FollowUp.
func capitalisedName(q string) bool {
	start := true
	for i := 0; i < len(q); {
		r, size := utf8.DecodeRuneInString(q[i:])
		switch {
		case txt.IsWordRune(r):
			j := i
			for j < len(q) {
				r2, s2 := utf8.DecodeRuneInString(q[j:])
				if !txt.IsWordRune(r2) && r2 != '\'' && r2 != '’' && r2 != '-' {
					break
				}
				j += s2
			}
			word := q[i:j]
			if !start && unicode.IsUpper(r) && word != "I" && !strings.HasPrefix(word, "I'") && !strings.HasPrefix(word, "I’") {
				return true
			}
			start = false
			i = j
			continue
		case strings.ContainsRune(".!?¿¡\n:", r):
			start = true
		}
		i += size
	}
	return false
}
