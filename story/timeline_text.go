package story

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/text"
)

// sentences are the sentences of a chunk's Markdown, headings and tasks
// left out (see [lines]).
func sentences(md string) []string {
	var out []string
	for _, l := range lines(md) {
		if !l.heading && l.task == notTask {
			out = append(out, l.text)
		}
	}
	return out
}

// best is the most informative sentence about the entity in chunks (see
// [naming.informative]), as the reader sees it ([text.Render]), cited,
// with its chunk's id; the earliest of equals. When no sentence of them
// names it (only a heading does), the first sentence of the first chunk.
func (n *naming) best(chunks []store.Chunk) (Moment, int64) {
	var (
		found bool
		top   float64
		m     Moment
		id    int64
	)
	for _, c := range chunks {
		for _, s := range sentences(c.Text) {
			if !n.names(s) || OutOfGame(s) {
				continue
			}
			if sc := n.informative(s); !found || sc > top {
				found, top = true, sc
				m, id = Moment{Text: text.Collapse(text.Render(s)), Cite: CiteOf(c)}, c.ID
			}
		}
	}
	if found || len(chunks) == 0 {
		return m, id
	}
	c := chunks[0]
	m = Moment{Cite: CiteOf(c)}
	for _, s := range sentences(c.Text) {
		if !OutOfGame(s) {
			m.Text = text.Collapse(text.Render(s))
			break
		}
	}
	return m, c.ID
}

// informative scores a sentence naming the entity: higher for one that
// tells something about it, with it as the subject (named in its first
// words), some substance (up to 25 words) and other names in it (others
// acting with or on it); lower for a fragment, a run-on, a bare list of
// names or an introduction to a list (ending in a colon).
func (n *naming) informative(s string) float64 {
	shown := text.Render(s)
	var words []string
	for start, end := range text.Words(shown) {
		words = append(words, shown[start:end])
	}
	sc := float64(min(len(words), 25)) / 25
	if len(words) < 5 {
		sc--
	}
	if len(words) > 60 {
		sc -= float64(len(words)-60) / 60
	}
	if n.names(strings.Join(words[:min(len(words), 4)], " ")) {
		sc++
	}
	sc += 0.3 * float64(min(n.otherNames(words), 3))
	if bareList(shown) {
		sc -= 1.5
	}
	if strings.HasSuffix(strings.TrimRight(shown, "*_ "), ":") {
		sc -= 0.5
	}
	return sc
}

// otherNames counts the runs of capitalised words, but the first word,
// that are not the entity's: other characters, places, things ("La
// Anguila Ciega" is one).
func (n *naming) otherNames(words []string) int {
	own := map[string]bool{}
	for _, fs := range n.forms {
		for _, f := range fs {
			for _, w := range f {
				own[w] = true
			}
		}
	}
	runs, in := 0, false
	for i, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		name := i > 0 && unicode.IsUpper(r) && !own[compendium.Normalize(w)]
		if name && !in {
			runs++
		}
		in = name || (in && particle(w))
	}
	return runs
}

// particle reports a word that may join the words of one name ("Torre de
// Sal", "Palacio de las Mareas").
func particle(w string) bool {
	switch w {
	case "de", "del", "la", "las", "los", "el", "of", "the":
		return true
	}
	return false
}

// bareList reports a sentence that is mostly a list: four or more
// comma-separated parts, most of three words or fewer.
func bareList(s string) bool {
	parts := strings.Split(s, ",")
	if len(parts) < 4 {
		return false
	}
	short := 0
	for _, p := range parts {
		if len(strings.Fields(p)) <= 3 {
			short++
		}
	}
	return short*5 >= len(parts)*3
}

// sessionDate is the in-game date a session's chunks (in the notes'
// order) open with, by the recap's rule (see [recapDate]), or "".
func sessionDate(chunks []store.Chunk) string {
	var all []candidate
	read := 0 // sentences, which recapDate reads the first few of
	for _, c := range chunks {
		for _, l := range lines(c.Text) {
			all = append(all, candidate{line: l, chunk: c})
			if !l.heading {
				read++
			}
		}
		if read >= 3 {
			break
		}
	}
	return recapDate(all)
}
