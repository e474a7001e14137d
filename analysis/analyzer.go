package analysis

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ErrUnsupportedLanguage is returned (wrapped) by New for a language it does
// not know.
var ErrUnsupportedLanguage = errors.New("analysis: unsupported language")

// Revisions of each language's pipeline. Bump the number whenever a change
// to this package can change the output of Terms for that language (stop
// list, stemmer, folding, tokenizer...). TestGolden fails until the revision
// and the golden digest are updated together.
const (
	esRevision = 1
	enRevision = 1
)

// Analyzer turns text into index terms. It is immutable after New and safe
// for concurrent use.
type Analyzer struct {
	lang      string
	version   string
	tokenizer Tokenizer
	filters   []TokenFilter
	// chain is the same filters in one pass, for [Analyzer.AppendTerms].
	chain *termChain
}

// New returns the analyzer for lang: "es" (or "spanish") or "en" (or
// "english"), case-insensitive and ignoring surrounding spaces. Any other
// value yields an error that wraps ErrUnsupportedLanguage.
func New(lang string) (*Analyzer, error) {
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "es", "spanish":
		return newAnalyzer("es", esRevision, &termChain{keepEnye: true, max: MaxTermBytes, stop: spanishStopWords, spanish: true}), nil
	case "en", "english":
		return newAnalyzer("en", enRevision, &termChain{keepEnye: false, max: MaxTermBytes, stop: englishStopWords}), nil
	}
	return nil, fmt.Errorf("%w %q (want \"es\" or \"en\")", ErrUnsupportedLanguage, lang)
}

// newAnalyzer is the analyser of lang: the unicode tokenizer, then
// lowercase, fold, length, stop words and stemming as c says.
func newAnalyzer(lang string, revision int, c *termChain) *Analyzer {
	// Terms also depend on the Unicode tables (letter/digit classes, case
	// mapping, decompositions), which change with the Go toolchain and
	// golang.org/x/text, so their versions are part of the analyzer version.
	v := fmt.Sprintf("%s-%d+u%s", lang, revision, unicode.Version)
	if norm.Version != unicode.Version {
		v += "+n" + norm.Version
	}
	return &Analyzer{
		lang:      lang,
		version:   v,
		tokenizer: unicodeTokenizer{},
		filters: []TokenFilter{
			lowercaseFilter{},
			foldFilter{keepEnye: c.keepEnye},
			lengthFilter{max: c.max},
			stopFilter{words: c.stop},
			stemFilter{stem: c.stem},
		},
		chain: c,
	}
}

// Lang returns the analyzer's language code: "es" or "en".
func (a *Analyzer) Lang() string { return a.lang }

// Version identifies the analyzer's behaviour, for example "es-1+u15.0.0":
// language, pipeline revision and Unicode version. It changes whenever the
// output of Terms could change, so an index that stores it knows when it
// must be rebuilt.
func (a *Analyzer) Version() string { return a.version }

// Terms returns the analysed terms of text in text order, duplicates kept.
// Every term is non-empty, at most MaxTermBytes long and contains only
// letters, digits and combining marks (never a space). Terms never panics;
// invalid UTF-8 bytes separate tokens.
func (a *Analyzer) Terms(text string) []string {
	ts := a.Analyze(text)
	if len(ts) == 0 {
		return nil
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Term
	}
	return out
}

// Analyze is like Terms but returns the tokens with their byte offsets in
// text and their ordinal position among the tokenizer's output (positions
// of removed stop words are skipped, not renumbered).
func (a *Analyzer) Analyze(text string) TokenStream {
	ts := a.tokenizer.Tokenize(text)
	for _, f := range a.filters {
		ts = f.Filter(ts)
	}
	return ts
}
