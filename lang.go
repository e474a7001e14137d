package oraculo

import "context"

// NotesLang is the language of most of the notes the index holds ("es"
// or "en"): the setting's when one was forced, else the one recognised in
// the most notes (Spanish on a tie or in an empty index).
func (e *Engine) NotesLang(ctx context.Context) (string, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return "", err
	}
	return v.Analyzer.Lang(), nil
}
