package oraculo

import (
	"context"
	"slices"
	"strings"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/store"
)

// langChosenKey is the index setting that says the language setting was
// chosen (a language, not [LangAuto]) since each note's language is
// recognised: see readSettings.
const langChosenKey = "lang_chosen"

// isAuto reports whether a language setting asks for each note's language
// to be recognised: "auto", or nothing said.
func isAuto(lang string) bool {
	lang = strings.TrimSpace(lang)
	return lang == "" || strings.EqualFold(lang, LangAuto)
}

// readLangs gives the view the analysers of the notes' languages, the
// language of the most notes first (its analyzer then), from the store's
// counts. A store that does not keep each note's language searches with
// the setting's language, or every language under [LangAuto].
func (e *Engine) readLangs(ctx context.Context, v *view) error {
	counter, ok := e.idx.(store.LangCounter)
	if !ok {
		v.langs = []*analysis.Analyzer{v.analyzer}
		if v.settings.Lang == LangAuto {
			v.langs = allAnalyzers()
		}
		return nil
	}
	counts, err := counter.NoteLangs(ctx)
	if err != nil {
		return err
	}
	v.byLang = counter.SearchesByLang()
	var langs []string
	for lang, n := range counts {
		if n > 0 && lang != "" {
			langs = append(langs, lang)
		}
	}
	// Most notes first; on a tie, Spanish first.
	slices.SortFunc(langs, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return slices.Index(analysis.Languages, a) - slices.Index(analysis.Languages, b)
	})
	v.langs = nil
	for _, lang := range langs {
		a, err := analysis.New(lang)
		if err != nil {
			continue // a language this program does not analyse: its notes match nothing
		}
		v.langs = append(v.langs, a)
	}
	if len(v.langs) == 0 {
		v.langs = []*analysis.Analyzer{v.analyzer}
	}
	v.analyzer = v.langs[0]
	return nil
}

// allAnalyzers returns the analyser of every language, Spanish first.
func allAnalyzers() []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, lang := range analysis.Languages {
		if a, err := analysis.New(lang); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// questionAnalyzer is the analyser of a question's language when the
// notes hold that language, else that of the notes' main language: what
// the question's terms are compared with in the notes' text (extractive
// answers, memory).
func (v *view) questionAnalyzer(question string) *analysis.Analyzer {
	if len(v.langs) > 1 {
		lang := analysis.QuestionLang(question)
		for _, a := range v.langs {
			if a.Lang() == lang {
				return a
			}
		}
	}
	return v.analyzer
}

// questionLang is the language of a question for the uses that read the
// question alone (is it in the first person plural?): the notes' one
// language, or the question's own when they hold several.
func (v *view) questionLang(question string) string {
	return v.questionAnalyzer(question).Lang()
}

// NotesLang is the language of most of the notes the index holds ("es"
// or "en"): the setting's when one was forced, else the one recognised in
// the most notes (Spanish on a tie or in an empty index).
func (e *Engine) NotesLang(ctx context.Context) (string, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return "", err
	}
	return v.analyzer.Lang(), nil
}
