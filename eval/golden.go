// Package eval measures retrieval against golden sets: which questions
// found their sources, at which rank, with which metrics. It measures any
// [Searcher]; engine.go adapts an oraculo.Engine through its public API.
package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo/text"
)

// Kinds of golden questions.
const (
	KindSingle       = "single"
	KindMulti        = "multi"
	KindParaphrase   = "paraphrase"
	KindUnanswerable = "unanswerable"
)

// Source is one place in the notes that answers a question.
type Source struct {
	File string `json:"file"`
	// Heading narrows the file to a section; nil means anywhere in it.
	Heading *string `json:"heading"`
}

// Question is one golden question, in either accepted shape.
type Question struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Kind     string   `json:"kind"`
	Sources  []Source `json:"sources"`
	Answer   string   `json:"answer,omitempty"`
	// Answers, File, Heading: the one-passage shape ({"answers", "file",
	// "heading"}); Load folds File/Heading into Sources.
	Answers []string `json:"answers,omitempty"`
	File    string   `json:"file,omitempty"`
	Heading string   `json:"heading,omitempty"`
}

// Load reads a golden set: one JSON object per line, blank lines ignored.
func Load(path string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading golden set: %w", err)
	}
	defer f.Close()
	var qs []Question
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var q Question
		if err := json.Unmarshal([]byte(text), &q); err != nil {
			return nil, fmt.Errorf("golden set %q line %d: %w", path, line, err)
		}
		if err := q.normalise(); err != nil {
			return nil, fmt.Errorf("golden set %q line %d: %w", path, line, err)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading golden set %q: %w", path, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("golden set %q has no questions", path)
	}
	return qs, nil
}

func (q *Question) normalise() error {
	if strings.TrimSpace(q.Question) == "" {
		return fmt.Errorf("question %q has no text", q.ID)
	}
	if q.File != "" {
		var h *string
		if q.Heading != "" {
			heading := q.Heading
			h = &heading
		}
		q.Sources = append(q.Sources, Source{File: q.File, Heading: h})
		if q.Kind == "" {
			q.Kind = KindSingle
		}
	}
	switch q.Kind {
	case KindSingle, KindMulti, KindParaphrase:
		if len(q.Sources) == 0 {
			return fmt.Errorf("question %q of kind %q has no sources", q.ID, q.Kind)
		}
	case KindUnanswerable:
	default:
		return fmt.Errorf("question %q has unknown kind %q (single, multi, paraphrase, unanswerable)", q.ID, q.Kind)
	}
	return nil
}

// Retrieved is what the judge needs to know of a retrieved chunk.
type Retrieved struct {
	File     string
	Headings []string
	Text     string
}

// Matches reports which of the question's sources the chunk covers
// (indexes into q.Sources). A chunk covers a source when it comes from the
// source's file and either the source has no heading, or the chunk's
// heading path or one of its lines starts with that heading, or (for the
// one-passage shape) the chunk contains one of the answer strings.
func (q *Question) Matches(r Retrieved) []int {
	var out []int
	for i, s := range q.Sources {
		if s.File != r.File {
			continue
		}
		if s.Heading == nil || coversHeading(r, *s.Heading) || containsAnswer(r.Text, q.Answers) {
			out = append(out, i)
		}
	}
	return out
}

func coversHeading(r Retrieved, heading string) bool {
	want := fold(heading)
	if want == "" {
		return true
	}
	for _, h := range r.Headings {
		if hasPrefixWord(fold(h), want) {
			return true
		}
	}
	for _, line := range strings.Split(r.Text, "\n") {
		line = strings.TrimLeft(line, "#*_ \t")
		if hasPrefixWord(fold(line), want) {
			return true
		}
	}
	return false
}

// hasPrefixWord: s starts with p and p ends at a word boundary of s.
func hasPrefixWord(s, p string) bool {
	if !strings.HasPrefix(s, p) {
		return false
	}
	if len(s) == len(p) {
		return true
	}
	next := []rune(s[len(p):])[0]
	return !unicode.IsLetter(next) && !unicode.IsDigit(next)
}

func containsAnswer(text string, answers []string) bool {
	for _, a := range answers {
		if a != "" && strings.Contains(text, a) {
			return true
		}
	}
	return false
}

// fold lowercases and strips accents, for forgiving comparisons.
func fold(s string) string { return text.Fold(strings.TrimSpace(s)) }
