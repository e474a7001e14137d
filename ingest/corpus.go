package ingest

import (
	"fmt"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chunk"
)

// Corpus are the corpus-wide settings every note of an ingest is cut and
// analysed with.
type Corpus struct {
	// MaxWords and OverlapWords are the chunking cap and window overlap.
	MaxWords, OverlapWords int
	// Analyzer analyses every note; under Auto, the notes whose language
	// is not recognised.
	Analyzer *analysis.Analyzer
	// Auto recognises each note's language (see [analysis.NoteLang]) and
	// analyses the note in it.
	Auto bool
}

// Corpus is what every note of an ingest with s is cut and analysed
// with, a being the analyser s calls for (see [Settings.Check]).
func (s Settings) Corpus(a *analysis.Analyzer) Corpus {
	return Corpus{MaxWords: s.MaxWords, OverlapWords: s.OverlapWords, Analyzer: a, Auto: s.Lang == LangAuto}
}

// Stamp names everything that decides a document's stored chunks and
// terms, for the notes of Analyzer's language (see [Config.Stamp]).
func (c Corpus) Stamp() string { return c.stampFor(c.Analyzer) }

// stampFor is the stamp of the notes analysed by a. Under Auto it also
// names the revision of the recognition of a note's language, which its
// content alone decides.
func (c Corpus) stampFor(a *analysis.Analyzer) string {
	// chunk=v3: a Markdown note's title is its file name unless its first H1
	// says the same words (an index of v2 is re-chunked by its next ingest).
	// "names": the note's name leads its heading terms (issue 27); an
	// index written before is analysed again on its next ingest.
	s := fmt.Sprintf("chunk=v3 max=%d overlap=%d analysis=%s names", c.MaxWords, c.OverlapWords, a.Version())
	if c.Auto {
		s += fmt.Sprintf(" lang=auto-%d", analysis.NoteLangRevision)
	}
	return s
}

// config is the part of [Update]'s Config the corpus decides: how notes
// are cut, analysed and stamped, and, under Auto, how each note's
// language is recognised (a note too short or too mixed to tell goes to
// the language its words lean to, Spanish on a tie).
func (c Corpus) config() Config {
	cfg := Config{
		Stamp:       c.Stamp(),
		Chunking:    chunk.Options{MaxWords: c.MaxWords, OverlapWords: c.OverlapWords, Lang: c.Analyzer.Lang()},
		Terms:       c.Analyzer.Terms,
		AppendTerms: c.Analyzer.AppendTerms,
	}
	if !c.Auto {
		return cfg
	}
	cfg.Detect = func(text string) string {
		lang, _ := analysis.NoteLang(text)
		return lang
	}
	cfg.Langs = map[string]LangAnalysis{}
	for _, lang := range analysis.Languages {
		a, err := analysis.New(lang)
		if err != nil {
			continue // every language of analysis.Languages has an analyser
		}
		cfg.Langs[lang] = LangAnalysis{Stamp: c.stampFor(a), Terms: a.Terms, AppendTerms: a.AppendTerms}
	}
	return cfg
}
