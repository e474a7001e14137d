package ingest

import (
	"context"
	"fmt"
	"strconv"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/store"
)

// DefaultLang is the language notes are analysed in when nothing tells
// another: a note too short to tell, a store that does not keep each
// note's language. A new index's setting is [LangAuto].
const DefaultLang = "es"

// LangAuto is the language setting under which each note's language is
// recognised from its text ([analysis.NoteLang]) and the note analysed in
// it; "es" or "en" analyses every note in that language.
const LangAuto = analysis.Auto

// langChosenKey is the index setting that says the language setting was
// chosen (a language, not [LangAuto]) since each note's language is
// recognised: see [ReadSettings].
const langChosenKey = "lang_chosen"

// Settings are the corpus-wide choices stored in the index: every note is
// analysed and cut with them, and questions are analysed the same way.
type Settings struct {
	// Lang is "auto" (each note in its own language, recognised), "es"
	// or "en" (every note in that language).
	Lang         string `json:"lang"`
	MaxWords     int    `json:"max_words"`
	OverlapWords int    `json:"overlap_words"`
}

// ReadSettings reads the settings stored in the index (the defaults for
// those never stored), checked, with the analyser they call for.
func ReadSettings(ctx context.Context, m store.Settings) (Settings, *analysis.Analyzer, error) {
	s := Settings{Lang: LangAuto, MaxWords: chunk.DefaultMaxWords, OverlapWords: chunk.DefaultOverlapWords}
	if v, err := m.Meta(ctx, "lang"); err != nil {
		return s, nil, err
	} else if v != "" {
		s.Lang = v
	}
	// "es" stored before each note's language was recognised was the
	// default, never told apart from a choice: it means each note's now
	// (SQLite's schema 14 rewrites it; a store without migrations, such
	// as Weaviate, is read so). A language chosen since says so.
	if s.Lang == "es" {
		if chosen, err := m.Meta(ctx, langChosenKey); err != nil {
			return s, nil, err
		} else if chosen == "" {
			s.Lang = LangAuto
		}
	}
	for key, dst := range map[string]*int{"max_words": &s.MaxWords, "overlap_words": &s.OverlapWords} {
		v, err := m.Meta(ctx, key)
		if err != nil {
			return s, nil, err
		}
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return s, nil, fmt.Errorf("index setting %q is %q, not a number", key, v)
		}
		*dst = n
	}
	return s.Check()
}

// Check validates s and makes its analyser: under [LangAuto], that of
// the notes' main language until a snapshot counts them (Spanish).
func (s Settings) Check() (Settings, *analysis.Analyzer, error) {
	if err := checkWords(s.MaxWords, s.OverlapWords); err != nil {
		return s, nil, err
	}
	if analysis.IsAuto(s.Lang) {
		a, err := analysis.New(DefaultLang)
		s.Lang = LangAuto
		return s, a, err
	}
	a, err := analysis.New(s.Lang)
	if err != nil {
		return s, nil, err
	}
	s.Lang = a.Lang()
	return s, a, nil
}

// Save stores s in the index, saying whether its language was chosen.
func (s Settings) Save(ctx context.Context, m store.Settings) error {
	chosen := ""
	if s.Lang != LangAuto {
		chosen = "1"
	}
	for k, v := range map[string]string{
		langChosenKey:   chosen,
		"lang":          s.Lang,
		"max_words":     strconv.Itoa(s.MaxWords),
		"overlap_words": strconv.Itoa(s.OverlapWords),
	} {
		if err := m.SetMeta(ctx, k, v); err != nil {
			return err
		}
	}
	return nil
}

// changed returns s with what an ingest's options change: a language, a
// cap, an overlap (set when OverlapSet, even to zero). A new cap without
// an overlap keeps the seed's ratio (120 of 1200).
func (s Settings) changed(o Options) Settings {
	if o.Lang != "" {
		s.Lang = o.Lang
	}
	if o.MaxWords != 0 {
		s.MaxWords = o.MaxWords
	}
	switch {
	case o.OverlapWords != 0 || o.OverlapSet:
		s.OverlapWords = o.OverlapWords
	case o.MaxWords != 0:
		s.OverlapWords = o.MaxWords / 10
	}
	return s
}

// checkWords is the rule of the chunking cap and window overlap: a cap of
// at least one word, an overlap shorter than it.
func checkWords(maxWords, overlapWords int) error {
	if maxWords < 1 {
		return fmt.Errorf("max words must be at least 1, got %d", maxWords)
	}
	if overlapWords < 0 || overlapWords >= maxWords {
		return fmt.Errorf("overlap words must be between 0 and max words - 1 (%d), got %d", maxWords-1, overlapWords)
	}
	return nil
}
