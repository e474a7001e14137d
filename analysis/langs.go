package analysis

import (
	"slices"
	"strings"
)

// Auto is the language setting under which each note's language is
// recognised from its text ([NoteLang]) and the note analysed in it.
const Auto = "auto"

// IsAuto reports whether a language setting asks for each note's language
// to be recognised: [Auto], or nothing said.
func IsAuto(lang string) bool {
	lang = strings.TrimSpace(lang)
	return lang == "" || strings.EqualFold(lang, Auto)
}

// All returns the analyser of every language of [Languages], Spanish
// first.
func All() []*Analyzer {
	var out []*Analyzer
	for _, lang := range Languages {
		if a, err := New(lang); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// ForNotes returns the analysers of the notes' languages from how many
// notes each language holds: the language of the most notes first, on a
// tie in the order of [Languages]. A language with no note, or one this
// package does not analyse, is left out (its notes match nothing); when
// none is left, the result is fallback alone.
func ForNotes(counts map[string]int, fallback *Analyzer) []*Analyzer {
	var langs []string
	for lang, n := range counts {
		if n > 0 && lang != "" {
			langs = append(langs, lang)
		}
	}
	slices.SortFunc(langs, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return slices.Index(Languages, a) - slices.Index(Languages, b)
	})
	var out []*Analyzer
	for _, lang := range langs {
		if a, err := New(lang); err == nil {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return []*Analyzer{fallback}
	}
	return out
}

// ForQuestion returns the analyser of a question's language ([QuestionLang])
// when the notes' analysers langs hold it and more than one language,
// else main, that of the notes' main language: what the question's terms
// are compared with in the notes' text.
func ForQuestion(question string, langs []*Analyzer, main *Analyzer) *Analyzer {
	if len(langs) > 1 {
		lang := QuestionLang(question)
		for _, a := range langs {
			if a.Lang() == lang {
				return a
			}
		}
	}
	return main
}
