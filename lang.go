package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/store"
)

// langChosenKey is the index setting that says the language setting was
// chosen (a language, not [LangAuto]) since each note's language is
// recognised: see readSettings.
const langChosenKey = "lang_chosen"

// isAuto reports whether a language setting asks for each note's language
// to be recognised (see [analysis.IsAuto]).
func isAuto(lang string) bool { return analysis.IsAuto(lang) }

// readLangs gives the view the analysers of the notes' languages, the
// language of the most notes first (its analyzer then), from the store's
// counts (see [analysis.ForNotes]). A store that does not keep each note's
// language searches with the setting's language, or every language under
// [LangAuto].
func (e *Engine) readLangs(ctx context.Context, v *view) error {
	counter, ok := e.idx.(store.LangCounter)
	if !ok {
		v.langs = []*analysis.Analyzer{v.analyzer}
		if v.settings.Lang == LangAuto {
			v.langs = analysis.All()
		}
		return nil
	}
	counts, err := counter.NoteLangs(ctx)
	if err != nil {
		return err
	}
	v.byLang = counter.SearchesByLang()
	v.langs = analysis.ForNotes(counts, v.analyzer)
	v.analyzer = v.langs[0]
	return nil
}

// questionAnalyzer is the analyser of a question's language when the
// notes hold that language, else that of the notes' main language (see
// [analysis.ForQuestion]).
func (v *view) questionAnalyzer(question string) *analysis.Analyzer {
	return analysis.ForQuestion(question, v.langs, v.analyzer)
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
