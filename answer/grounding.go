package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Grounding says how an answer stands on the notes (Answer.Grounding).
const (
	// GroundingDirect: the answer says what the evidence says about the
	// question (an extractive answer's sentences match it, or the model
	// answered with citations).
	GroundingDirect = "direct"
	// GroundingClosest: nothing answers squarely; the answer quotes what
	// comes closest and says so, without claiming the notes are silent.
	GroundingClosest = "closest"
	// GroundingNone: the notes do not say, and that is known (a name or
	// most of the question's words occur in no note the asker may see),
	// or nothing at all was found.
	GroundingNone = "none"
)

// Unknown returns the question's words that no note uses, as the question
// writes them: names (capitalised words not opening the question) in names,
// every content word (less the verbs a question is asked with) in words,
// and how many content words the question has. used reports whether a term
// of the analyser occurs in a note the asker may see.
func Unknown(question, lang string, terms func(string) []string, used func(term string) bool) (names, words []string, total int) {
	if terms == nil {
		terms = analyzerTerms(lang)
	}
	skip := termSet(terms(questionWords[strings.ToLower(strings.TrimSpace(lang))]))
	seen := map[string]bool{}
	first := true
	for _, word := range strings.FieldsFunc(question, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\'' }) {
		opening := first
		first = false
		for _, t := range terms(word) {
			if skip[t] || seen[t] {
				continue
			}
			seen[t] = true
			total++
			if used(t) {
				continue
			}
			words = append(words, word)
			if r, _ := utf8.DecodeRuneInString(word); unicode.IsUpper(r) && !opening {
				names = append(names, word)
			}
		}
	}
	return names, words, total
}

// Unmentioned opens the answer when the notes are known not to say: it
// names the words no note uses. Spanish when lang is "es", English
// otherwise.
func Unmentioned(lang string, words []string) string {
	quoted := make([]string, len(words))
	es := strings.EqualFold(strings.TrimSpace(lang), "es")
	for i, w := range words {
		if es {
			quoted[i] = "«" + w + "»"
		} else {
			quoted[i] = "“" + w + "”"
		}
	}
	list := strings.Join(quoted, ", ")
	if es {
		return "Ninguna nota menciona " + list + "."
	}
	return "No note mentions " + list + "."
}

// ClosestAnswer is the extractive answer when no sentence matches the
// question well: it says so, without claiming the notes are silent, and
// quotes the sentences that come closest (any that match at all, at most
// three), each cited. ok is false when no sentence of the evidence matches
// any word of the question.
func ClosestAnswer(question string, ctx Context, terms func(string) []string, lang string) (text string, ok bool) {
	lines := extract(question, ctx, terms, lang, nearestCoverage, closestSentences)
	if len(lines) == 0 {
		return "", false
	}
	intro := "This is the closest I found in the notes:"
	if strings.EqualFold(strings.TrimSpace(lang), "es") {
		intro = "Esto es lo más cercano que encontré en las notas:"
	}
	return intro + "\n" + strings.Join(lines, "\n"), true
}

// nearestCoverage: any match at all.
const nearestCoverage = 1e-9
