package story

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/text"
)

// chunkSentences returns the sentences of a chunk's text: each paragraph
// and list item apart, without headings, list and quote markers, task
// boxes or fenced code; a wikilink is never cut.
func chunkSentences(body string) []string {
	var out, para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, text.Sentences(strings.Join(para, " "), wikilinkAtom)...)
			para = nil
		}
	}
	fenced := false
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			flush()
			fenced = !fenced
			continue
		}
		if level, _ := text.ATXHeading(line); fenced || level > 0 || t == "" {
			flush()
			continue
		}
		t, item := text.CutLineMarkers(t)
		if item {
			flush()
		}
		para = append(para, t)
	}
	flush()
	return out
}

// wikilinkAtom keeps a wikilink whole when sentences are split (see
// [text.Sentences]).
func wikilinkAtom(s string, i int) int {
	if !strings.HasPrefix(s[i:], "[[") {
		return -1
	}
	if j := strings.Index(s[i:], "]]"); j > 0 {
		return i + j + 2
	}
	return -1
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
		for _, s := range chunkSentences(c.Text) {
			if !n.names(s) || outOfGame(s) {
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
	for _, s := range chunkSentences(c.Text) {
		if !outOfGame(s) {
			m.Text = text.Collapse(text.Render(s))
			break
		}
	}
	return m, c.ID
}

// outOfGame reports a sentence about the table rather than the story
// (attendance, the note-taker's remarks), which never stands for a
// session.
func outOfGame(s string) bool {
	return false
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

// inGameDate finds a date opening a sentence: "3 de Brumal del 1347", "Del
// 3 al 5 de Nochelarga", "12 de marzo", "the 3rd of Mirtul, 1492", "3rd
// day of Frostmoon", "Mirtul 3, 1492 DR".
var inGameDate = regexp.MustCompile(`^(?:` +
	`(?:[Dd]el |[Ee]l )?\d{1,2}º?(?: (?:al|a|y) \d{1,2})? de (?:\p{Lu}\p{L}+|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)(?:,? (?:del?|año) (?:año )?\d{1,4})?` +
	`|(?:[Tt]he )?\d{1,2}(?:st|nd|rd|th)? (?:day )?of \p{Lu}\p{L}+(?:,? \d{1,4}(?: [A-Z]{2})?)?` +
	`|\p{Lu}\p{L}+ \d{1,2}(?:st|nd|rd|th)?, \d{3,4}(?: [A-Z]{2})?` +
	`)`)

// sessionMarker is a line that only says which session follows
// ("**Sesión 21**", "Session 4:").
var sessionMarker = regexp.MustCompile(`^(?:sesion|session|partida) \d+$`)

// sessionDate is the in-game date the session's chunks (in document
// order) open with: the date at the start of the first sentence of a
// session's first chunk in a note (out-of-game remarks and a line naming
// the session skipped), or one in its heading; "" when none.
func sessionDate(chunks []store.Chunk) string {
	seen := map[string]bool{}
	for _, c := range chunks {
		if seen[c.Path] {
			continue
		}
		seen[c.Path] = true
		if len(c.Headings) > 0 {
			h := c.Headings[len(c.Headings)-1]
			if _, after, ok := strings.Cut(h, " — "); ok {
				h = after
			} else if _, after, ok := strings.Cut(h, ": "); ok {
				h = after
			}
			if d := inGameDate.FindString(h); d != "" {
				return d
			}
		}
		for _, s := range chunkSentences(c.Text) {
			plain := strings.Trim(text.Render(s), "*_ ")
			if sessionMarker.MatchString(compendium.Normalize(plain)) || outOfGame(s) {
				continue
			}
			if d := inGameDate.FindString(plain); d != "" {
				return d
			}
			break
		}
	}
	return ""
}
