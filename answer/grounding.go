package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	txt "github.com/oraculo/oraculo/text"
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
// writes them: names (capitalised words that do not open a clause and are
// not question words, see [UnknownNames]) in names, every content word
// (less question words and the verbs a question is asked with) in words,
// and how many content words the question has. used reports whether a term
// of the analyser occurs in a note the asker may see. Only names are ever
// said to be missing from the notes: a common word or an inflection the
// notes happen not to use ("joven", "echaran") says nothing about whether
// they answer.
func Unknown(question, lang string, terms func(string) []string, used func(term string) bool) (names, words []string, total int) {
	if terms == nil {
		terms = analyzerTerms(lang)
	}
	skip := questionVerbs(terms, lang)
	seen := map[string]bool{}
	for _, tok := range questionTokens(question) {
		word := tok.word
		if interrogatives[txt.Fold(word)] {
			continue
		}
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
			// A word with a digit is a code or a formula ("CO2"), which
			// notes write in many ways: never said to be missing.
			if r, _ := utf8.DecodeRuneInString(word); unicode.IsUpper(r) && !tok.opens && !strings.ContainsFunc(word, unicode.IsDigit) {
				names = append(names, word)
			}
		}
	}
	return names, words, total
}

// UnknownNames returns the question's names (see [Unknown]) none of whose
// terms any note the asker may see uses: what an answer may say the notes
// do not mention. used should also find a term's inflections (the engine
// looks up the start of its stem); it is asked about names only.
func UnknownNames(question, lang string, terms func(string) []string, used func(term string) bool) []string {
	if used == nil {
		return nil
	}
	if terms == nil {
		terms = analyzerTerms(lang)
	}
	skip := questionVerbs(terms, lang)
	var out []string
	seen := map[string]bool{}
	for _, name := range questionNames(question) {
		if seen[name] || strings.ContainsFunc(name, unicode.IsDigit) {
			continue
		}
		seen[name] = true
		known, any := false, false
		for _, t := range terms(name) {
			if skip[t] {
				continue
			}
			any = true
			if used(t) {
				known = true
				break
			}
		}
		if any && !known {
			out = append(out, name)
		}
	}
	return out
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
// quotes the sentences that come closest (any that match at all, as many
// as an extractive answer quotes, from the best-ranked notes first), each
// cited. ok is false when no sentence of the evidence matches
// any word of the question.
func ClosestAnswer(question string, ctx Context, terms func(string) []string, lang string) (text string, ok bool) {
	sc := scoreEvidence(question, ctx, terms, lang)
	lines := sc.render(sc.lookup(nearestCoverage, extractiveLines), true, true)
	if len(lines) == 0 {
		return "", false
	}
	return closestIntro(lang) + "\n" + strings.Join(lines, "\n"), true
}

// closestIntro says, in lang, that the lines that follow are what comes
// closest to the question, not its answer.
func closestIntro(lang string) string {
	if strings.EqualFold(strings.TrimSpace(lang), "es") {
		return "Esto es lo más cercano que encontré en las notas, aunque no responde del todo a la pregunta:"
	}
	return "This is the closest I found in the notes, though it does not quite answer the question:"
}

// nearestCoverage: any match at all.
const nearestCoverage = 1e-9

// EmptyIndex is the answer when the index holds no note the asker may
// see, in lang ("es" or English): that there are no notes to look in and,
// for the one who owns the index (owner), how to add them. A player is
// told only that there are none, nothing about notes kept from them.
func EmptyIndex(lang string, owner bool) string {
	es := strings.EqualFold(strings.TrimSpace(lang), "es")
	switch {
	case es && owner:
		return "El índice está vacío: todavía no hay notas que consultar. Añádelas con `oraculo ingest CARPETA` y vuelve a preguntar."
	case es:
		return "Todavía no hay notas que consultar."
	case owner:
		return "The index is empty: there are no notes to look in yet. Add them with `oraculo ingest FOLDER` and ask again."
	}
	return "There are no notes to look in yet."
}
