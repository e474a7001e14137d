package benchrun

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval"
)

// Load reads the questions of a file: a golden set (one JSON object per
// line, as `oraculo eval` reads; see eval.Load) when its first non-blank
// line starts with "{", else one question per line, blank lines ignored.
func Load(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading questions: %w", err)
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if len(qs) == 0 && strings.HasPrefix(line, "{") {
			return loadGolden(path)
		}
		qs = append(qs, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading questions %q: %w", path, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("questions file %q has no questions", path)
	}
	return qs, nil
}

func loadGolden(path string) ([]string, error) {
	golden, err := eval.Load(path)
	if err != nil {
		return nil, err
	}
	qs := make([]string, len(golden))
	for i, g := range golden {
		qs[i] = g.Question
	}
	return qs, nil
}

// FromIndex makes n questions from the chunks and compendium the
// engine's reader may see (see [Generate]): those `oraculo bench` times
// when it is given no file, and the Bleve side-by-side benchmark
// (bench/bleve) asks both engines.
func FromIndex(ctx context.Context, eng *oraculo.Engine, n int, seed uint64) ([]string, error) {
	chunks, err := eng.Chunks(ctx, nil)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	entries, err := eng.Compendium(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name
	}
	lang, err := eng.NotesLang(ctx)
	if err != nil {
		return nil, err
	}
	qs := Generate(texts, names, n, lang, seed)
	if len(qs) == 0 {
		return nil, fmt.Errorf("index %q has no text to make questions from: %w", eng.DBPath(), oraculo.ErrNotIndexed)
	}
	return qs, nil
}

// Generate makes n questions from an index's own text, the same ones for
// the same inputs and seed: every third one asks who an entity is ("¿quién
// es X?", or "who is X?" when lang is "en"), when there are entities; the
// others are short spans (3 to 8 words) of a chunk drawn at random, as a
// user types a remembered phrase. It returns none when there is no text.
func Generate(chunks, entities []string, n int, lang string, seed uint64) []string {
	var texts [][]string
	for _, c := range chunks {
		if w := words(c); len(w) > 0 {
			texts = append(texts, w)
		}
	}
	if len(texts) == 0 && len(entities) == 0 {
		return nil
	}
	who := "¿quién es %s?"
	if lang == "en" {
		who = "who is %s?"
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	qs := make([]string, 0, n)
	for i := range n {
		if len(entities) > 0 && (i%3 == 0 || len(texts) == 0) {
			qs = append(qs, fmt.Sprintf(who, entities[r.IntN(len(entities))]))
			continue
		}
		w := texts[r.IntN(len(texts))]
		size := min(len(w), 3+r.IntN(6))
		from := r.IntN(len(w) - size + 1)
		qs = append(qs, strings.Join(w[from:from+size], " "))
	}
	return qs
}

// words are the words of a chunk's text without Markdown's marks: the
// fields that hold a letter or a digit, trimmed of punctuation.
func words(text string) []string {
	var out []string
	for _, f := range strings.Fields(text) {
		f = strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}
