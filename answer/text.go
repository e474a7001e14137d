package answer

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/oraculo/oraculo/analysis"
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
}

// sentences splits Markdown text into sentences. Code blocks and rules are
// dropped; headings, table rows and list items are units of their own;
// paragraphs are split at ., !, ?, … followed by a space, except after
// common abbreviations ("Sr.", "p. ej.", "etc.") and initials; a citation
// right after a sentence's end ("Murió. [Sesión 3]") stays with it. A line
// that ends without punctuation and is followed by one that starts with a
// capital letter ends its sentence, since notes are often written a fact per
// line.
func sentences(text string) []sentence {
	var out []sentence
	var para []string
	under := ""
	flush := func() {
		if len(para) > 0 {
			for _, s := range splitParagraph(strings.Join(para, " ")) {
				out = append(out, sentence{text: s, under: under})
			}
			para = para[:0]
		}
	}
	fence := ""
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			flush()
			fence = t[:3]
		case t == "":
			flush()
		case isRule(t):
			flush()
		case isHeadingLine(t):
			flush()
			if h := collapse(headingText(t)); h != "" {
				under = h
				out = append(out, sentence{text: h, heading: true, under: under})
			}
		case strings.HasPrefix(t, "|"):
			flush()
			if row := tableRow(t); row != "" {
				out = append(out, sentence{text: row, under: under})
			}
		default:
			content, item := stripMarkers(t)
			if item || (len(para) > 0 && endsBare(para[len(para)-1]) && startsSentence(content)) {
				flush()
			}
			if content != "" {
				para = append(para, content)
			}
		}
	}
	flush()
	return out
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

// isHeadingLine reports an ATX heading ("## Sesión 3") or a line that is
// all bold ("**Sesión 7**").
func isHeadingLine(t string) bool {
	if strings.HasPrefix(t, "#") {
		n := len(t) - len(strings.TrimLeft(t, "#"))
		return n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
	}
	for _, m := range []string{"**", "__"} {
		if len(t) > 4 && strings.HasPrefix(t, m) && strings.HasSuffix(t, m) &&
			!strings.Contains(t[2:len(t)-2], m) {
			return true
		}
	}
	return false
}

// headingText is a heading line without its markers.
func headingText(t string) string {
	if strings.HasPrefix(t, "#") {
		t = strings.TrimLeft(t, "#")
		t = strings.TrimRight(strings.TrimSpace(t), "#")
		return strings.TrimSpace(t)
	}
	return strings.TrimSpace(t[2 : len(t)-2])
}

// tableRow is a table row's cells joined by " | ", or "" for a delimiter
// row or a row without letters or digits.
func tableRow(t string) string {
	t = strings.Trim(t, "|")
	var cells []string
	for c := range strings.SplitSeq(t, "|") {
		if c = collapse(c); c != "" {
			cells = append(cells, c)
		}
	}
	row := strings.Join(cells, " | ")
	if !strings.ContainsFunc(row, isWordRune) {
		return ""
	}
	return row
}

// stripMarkers removes blockquote markers, a list marker and a task box
// from the start of a line; item reports a list marker.
func stripMarkers(t string) (content string, item bool) {
	for strings.HasPrefix(t, ">") {
		t = strings.TrimSpace(t[1:])
	}
	if len(t) >= 2 && strings.ContainsRune("-*+•", rune(t[0])) && (t[1] == ' ' || t[1] == '\t') {
		t, item = strings.TrimSpace(t[2:]), true
	} else if strings.HasPrefix(t, "• ") {
		t, item = strings.TrimSpace(t[len("• "):]), true
	} else if n := leadingDigits(t); n > 0 && n <= 3 && len(t) > n+1 &&
		(t[n] == '.' || t[n] == ')') && (t[n+1] == ' ' || t[n+1] == '\t') {
		t, item = strings.TrimSpace(t[n+2:]), true
	}
	if item {
		for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
			if strings.HasPrefix(t, box) {
				t = strings.TrimSpace(t[len(box):])
				break
			}
		}
	}
	return t, item
}

func leadingDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// endsBare reports a line that ends without punctuation.
func endsBare(line string) bool {
	r, _ := utf8.DecodeLastRuneInString(line)
	return isWordRune(r)
}

// startsSentence reports text that starts like a sentence: a capital
// letter or an opening ¿ or ¡.
func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) || r == '¿' || r == '¡'
}

// splitParagraph splits one paragraph (lines already joined) into
// sentences, whitespace collapsed.
func splitParagraph(p string) []string {
	p = collapse(p)
	var out []string
	start := 0
	for i := 0; i < len(p); {
		if p[i] == '[' {
			// A citation is never cut, whatever its label holds.
			if g, ok := groupAt(p, i); ok && g.kind == groupCitation {
				i = g.end
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		if !isTerminator(r) {
			i += size
			continue
		}
		end := i + size
		for end < len(p) {
			r2, s2 := utf8.DecodeRuneInString(p[end:])
			if !isTerminator(r2) && !isCloser(r2) {
				break
			}
			if isTerminator(r2) && r == '.' {
				r = '…' // "..." or ".!" ends like "…"
			}
			end += s2
		}
		// A citation right after the end belongs to this sentence.
		for end+1 < len(p) && p[end] == ' ' && p[end+1] == '[' {
			g, ok := groupAt(p, end+1)
			if !ok || g.kind != groupCitation {
				break
			}
			end = g.end
		}
		if end >= len(p) {
			break
		}
		if p[end] != ' ' || !sentenceEnds(p, start, i, r, p[end+1:]) {
			i = end
			continue
		}
		if s := strings.TrimSpace(p[start:end]); s != "" {
			out = append(out, s)
		}
		start = end + 1
		i = start
	}
	if s := strings.TrimSpace(p[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

func isTerminator(r rune) bool {
	return r == '.' || r == '!' || r == '?' || r == '…'
}

func isCloser(r rune) bool {
	return strings.ContainsRune("\"'»”’)*_", r)
}

// sentenceEnds decides whether the terminator r at p[i] ends the sentence
// that started at p[start], given the text after the following space.
func sentenceEnds(p string, start, i int, r rune, next string) bool {
	n, _ := utf8.DecodeRuneInString(next)
	lower := unicode.IsLower(n)
	if r != '.' {
		// "¡Cuidado! gritó Nix": Spanish dialogue goes on in lowercase.
		return !lower && n != ',' && n != ';'
	}
	w := wordBefore(p[start:i])
	if w == "" {
		return true
	}
	fw := strings.ToLower(fold(w))
	if abbreviations[fw] {
		return fw == "etc" && !lower
	}
	// An initial: "J. R. Pérez".
	if utf8.RuneCountInString(w) == 1 && unicode.IsUpper([]rune(w)[0]) {
		return false
	}
	return true
}

// wordBefore returns the letters right before the end of s.
func wordBefore(s string) string {
	j := len(s)
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		if !unicode.IsLetter(r) {
			break
		}
		j -= size
	}
	return s[j:]
}

// abbreviations are folded lowercase words that a period does not end a
// sentence after (Spanish and English).
var abbreviations = setOf(
	"sr", "sra", "srta", "sres", "sras", "d", "dna", "dr", "dra",
	"lic", "ing", "arq", "prof", "profa", "gral", "cap", "tte", "cnel",
	"sgto", "cmdt", "sto", "sta", "fr", "mons", "etc", "aprox", "approx",
	"p", "pp", "pag", "pags", "num", "nro", "art", "vol", "ed", "ej",
	"vs", "cf", "av", "avda", "mr", "mrs", "ms", "st", "jr", "ca", "e",
	"g", "ee", "uu", "fig", "cia", "dpto", "esq", "ud", "uds", "vd", "vds",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// collapse trims s and turns each run of whitespace into one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
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

// fold lowercases s and removes its diacritics (ñ becomes n).
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// isWordRune reports a letter or a digit.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// words returns the folded words of s: runs of letters and digits, with
// "n't" spelled out as "not".
func words(s string) []string {
	s = strings.NewReplacer("n't", " not", "n’t", " not").Replace(fold(s))
	return strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) })
}

// quotes returns the sentences of text that can be quoted as facts, made
// harmless by plain: not headings, questions, lines that introduce what
// follows (ending in ":") or fragments of fewer than three words. Each is
// split again after plain, so that it is one sentence however it is read.
func quotes(text string) []sentence {
	var out []sentence
	for _, s := range sentences(text) {
		if s.heading {
			continue
		}
		for _, q := range splitParagraph(plain(s.text)) {
			end, _ := utf8.DecodeLastRuneInString(strings.TrimRightFunc(q, isCloser))
			if letterWords(q) >= 3 && end != '?' && end != ':' {
				out = append(out, sentence{text: q, under: s.under})
			}
		}
	}
	return out
}

// letterWords counts the words of s that hold a letter or a digit.
func letterWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.ContainsFunc(f, isWordRune) {
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
