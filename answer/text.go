package answer

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/analysis"
	txt "github.com/oraculo/oraculo/text" // named txt: the tests declare a helper text
)

// sentence is one unit of Markdown text: a sentence of a paragraph or list
// item, a table row, or a heading.
type sentence struct {
	// text is the sentence with its whitespace collapsed and without list,
	// quote or heading markers.
	text string
	// heading reports a heading line (ATX "#" or a line that is all bold).
	heading bool
	// under is the text of the last heading before the sentence.
	under string
	// from and to bound the lines of md the sentence was read from: its
	// paragraph, list item, table row or heading (see [locate]).
	from, to int
}

// sentences splits Markdown text into sentences. Code blocks and rules are
// dropped; headings, table rows and list items are units of their own;
// paragraphs are split as [txt.Sentences] splits them, a citation being
// never cut and staying with the sentence it follows ("Murió. [Sesión
// 3]"). A line that ends without punctuation and is followed by one that
// starts with a capital letter ends its sentence, since notes are often
// written a fact per line.
func sentences(md string) []sentence {
	var out []sentence
	var para []string
	under := ""
	paraFrom, paraTo := 0, 0
	flush := func() {
		if len(para) > 0 {
			for _, s := range txt.Sentences(strings.Join(para, " "), citationAt) {
				out = append(out, sentence{text: s, under: under, from: paraFrom, to: paraTo})
			}
			para = para[:0]
		}
	}
	var fence txt.Fence
	inFence := false
	next := 0 // where the next line starts
	for line := range strings.SplitSeq(md, "\n") {
		from := next
		next += len(line) + 1
		t := strings.TrimSpace(line)
		if inFence {
			inFence = !fence.Closes(t)
			continue
		}
		if f, ok := txt.OpenFence(t); ok {
			flush()
			fence, inFence = f, true
			continue
		}
		h, isHeading := headingLine(t)
		switch {
		case t == "":
			flush()
		case isRule(t):
			flush()
		case isHeading:
			flush()
			if h = txt.Collapse(h); h != "" {
				under = h
				out = append(out, sentence{text: h, heading: true, under: under, from: from, to: from + len(line)})
			}
		case strings.HasPrefix(t, "|"):
			flush()
			if row := tableRow(t); row != "" {
				out = append(out, sentence{text: row, under: under, from: from, to: from + len(line)})
			}
		default:
			content, item := txt.CutLineMarkers(t)
			if item || (len(para) > 0 && endsBare(para[len(para)-1]) && startsSentence(content)) {
				flush()
			}
			if content != "" {
				if len(para) == 0 {
					paraFrom = from
				}
				para = append(para, content)
				paraTo = from + len(line)
			}
		}
	}
	flush()
	return out
}

// citationAt returns the end of the citation that opens at s[i], or -1:
// the atoms of [txt.Sentences].
func citationAt(s string, i int) int {
	if s[i] != '[' {
		return -1
	}
	if g, ok := groupAt(s, i); ok && g.kind == groupCitation {
		return g.end
	}
	return -1
}

// isRule reports a Markdown thematic break: three or more of one of -, *, _
// and nothing else but spaces.
func isRule(t string) bool {
	n := 0
	var mark rune
	for _, r := range t {
		switch {
		case r == ' ' || r == '\t':
		case (r == '-' || r == '*' || r == '_') && (mark == 0 || r == mark):
			mark = r
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// headingLine reports an ATX heading ("## Sesión 3") or a line that is all
// bold ("**Sesión 7**"), and returns its text without the markers.
func headingLine(t string) (string, bool) {
	if level, h := txt.ATXHeading(t); level > 0 {
		return h, true
	}
	for _, m := range []string{"**", "__"} {
		if len(t) > 4 && strings.HasPrefix(t, m) && strings.HasSuffix(t, m) &&
			!strings.Contains(t[2:len(t)-2], m) {
			return strings.TrimSpace(t[2 : len(t)-2]), true
		}
	}
	return "", false
}

// tableRow is a table row's cells joined by " | ", or "" for a delimiter
// row or a row without letters or digits.
func tableRow(t string) string {
	t = strings.Trim(t, "|")
	var cells []string
	for c := range strings.SplitSeq(t, "|") {
		if c = txt.Collapse(c); c != "" {
			cells = append(cells, c)
		}
	}
	row := strings.Join(cells, " | ")
	if !strings.ContainsFunc(row, txt.IsWordRune) {
		return ""
	}
	return row
}

// endsBare reports a line that ends without punctuation.
func endsBare(line string) bool {
	r, _ := utf8.DecodeLastRuneInString(line)
	return txt.IsWordRune(r)
}

// startsSentence reports text that starts like a sentence: a capital
// letter or an opening ¿ or ¡.
func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) || r == '¿' || r == '¡'
}

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// wordCount counts the whitespace-separated words of s.
func wordCount(s string) int {
	n := 0
	in := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

// clipWords returns s (collapsed) cut to at most n words, with "…" when
// something was cut.
func clipWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) <= n {
		return strings.Join(f, " ")
	}
	return strings.TrimRight(strings.Join(f[:n], " "), ",;:") + "…"
}

// words returns the folded words of s: runs of letters and digits, with
// "n't" spelled out as "not".
func words(s string) []string {
	s = strings.NewReplacer("n't", " not", "n’t", " not").Replace(txt.Fold(s))
	var out []string
	for start, end := range txt.Words(s) {
		out = append(out, s[start:end])
	}
	return out
}

// quotes returns the sentences of text that can be quoted as facts, made
// harmless by plain: not headings, questions, lines that introduce what
// follows (ending in ":") or fragments of fewer than three words. Each is
// split again after plain, so that it is one sentence however it is read.
func quotes(text string) []sentence {
	var out []sentence
	for _, u := range units(text) {
		if u.quotable {
			out = append(out, u.sentence)
		}
	}
	return out
}

// unit is a sentence of a note's text that is not a heading, and whether
// it may be quoted on its own (see [quotes]).
type unit struct {
	sentence
	quotable bool
}

// units splits text into its sentences that are not headings, in order,
// marking those [quotes] keeps; the others (a list item of one or two
// words, a line that introduces a list) may still be read after a quoted
// sentence.
func units(text string) []unit {
	var out []unit
	for _, s := range sentences(text) {
		if s.heading {
			continue
		}
		for _, q := range txt.Sentences(plain(s.text), citationAt) {
			end, _ := utf8.DecodeLastRuneInString(strings.TrimRightFunc(q, txt.IsCloser))
			n := letterWords(q)
			if n == 0 || end == '?' {
				continue
			}
			out = append(out, unit{sentence: sentence{text: q, under: s.under, from: s.from, to: s.to}, quotable: n >= 3 && end != ':'})
		}
	}
	return out
}

// letterWords counts the words of s that hold a letter or a digit.
func letterWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.ContainsFunc(f, txt.IsWordRune) {
			n++
		}
	}
	return n
}

// plain makes a sentence of the notes safe to quote in an answer: see
// unbracket; backticks also become quotes, so that no code span swallows
// the citation after it.
func plain(s string) string {
	return strings.ReplaceAll(unbracket(s), "`", "'")
}

// unbracket makes text of the notes unable to pass for a citation:
// Markdown links become their text and other square brackets become
// parentheses.
func unbracket(s string) string {
	if !strings.ContainsAny(s, "[]") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '[' {
			if g, ok := groupAt(s, i); ok && g.kind == groupLink {
				b.WriteString(s[i+1 : g.end-1])
				i = skipLinkTarget(s, g.end)
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return strings.NewReplacer("[", "(", "]", ")").Replace(b.String())
}

// quoteSafe turns the characters that could start or end a citation or a
// code span into harmless ones.
var quoteSafe = strings.NewReplacer("[", "(", "]", ")", "`", "'")

// skipLinkTarget returns the index after the "(...)" at s[i].
func skipLinkTarget(s string, i int) int {
	if i >= len(s) || s[i] != '(' {
		return i
	}
	if j := strings.IndexByte(s[i:], ')'); j >= 0 {
		return i + j + 1
	}
	return i
}

// analyzers are the Spanish and English analyzers, made once.
var analyzers = sync.OnceValue(func() map[string]*analysis.Analyzer {
	out := map[string]*analysis.Analyzer{}
	for _, lang := range []string{"es", "en"} {
		if a, err := analysis.New(lang); err == nil {
			out[lang] = a
		}
	}
	return out
})

// analyzerTerms returns the Terms of the analyser for lang (English for
// anything but "es"), or folded words if there is none.
func analyzerTerms(lang string) func(string) []string {
	l := "en"
	if strings.EqualFold(strings.TrimSpace(lang), "es") {
		l = "es"
	}
	if a := analyzers()[l]; a != nil {
		return a.Terms
	}
	return words
}
