package query

import (
	"math"
	"slices"
	"strings"

	"github.com/oraculo/oraculo/analysis"
)

// Kinds of question, the values of Analysis.Kind.
const (
	// KindLookup is a question about one fact, scene or moment.
	KindLookup = "lookup"
	// KindArc is a question about an entity's role or history over the
	// campaign ("¿qué fue de Harbin?", "how has Kael changed?"), whose
	// answer is spread over many sessions.
	KindArc = "arc"
)

// Analysis is what a question asks for besides its words.
type Analysis struct {
	// Sessions, when not nil, restricts the search to these session
	// numbers (ascending, distinct, never empty), resolved against the
	// sessions the index holds.
	Sessions []int `json:"sessions,omitempty"`
	// Said is the part of the question that asked for the filter ("en la
	// sesión 12", "las últimas tres sesiones"), verbatim; when the question
	// names sessions in several places, the parts joined by "; ".
	Said string `json:"said,omitempty"`
	// Kind is KindArc for a question about an entity's role or history
	// over the campaign, else KindLookup.
	Kind string `json:"kind"`
	// Until, when positive, is the last session of the campaign as the
	// question asks about it ("hasta la sesión 20", "antes de la sesión
	// 21", "as of session 20", "en la sesión 20, ¿seguía vivo?"): Sessions
	// then holds the known sessions up to it. Zero otherwise, and when
	// the question names sessions in several places.
	Until int `json:"until,omitempty"`
	// State reports whether the question asks for the current state of
	// something ("¿sigue vivo?", "¿dónde está ahora?", "who leads...?"),
	// whose latest account is the answer (see [IsState]).
	State bool `json:"state,omitempty"`
}

// DefaultRelativeCount is how many sessions a plural relative reference
// without a number means: "las últimas sesiones", "the first sessions".
const DefaultRelativeCount = 3

// Analyze reads question against known, the session numbers the index
// holds (expected ascending; any order and repeats are tolerated). lang is
// "es" or "en"; anything else is guessed with [analysis.QuestionLang]. The
// language only decides how number words are read first ("once" is eleven
// in Spanish); the session words, connectives and arc phrases of both
// languages are understood in either.
//
// See the package documentation for what is read as a session filter.
// A number not in known gives no filter; a range keeps the sessions of
// known inside it; a list keeps those of its numbers in known. Relative
// references ("la última sesión", "the first three sessions", "la sesión
// anterior", which means the last one) count positions in known.
func Analyze(question, lang string, known []int) Analysis {
	a, _ := AnalyzeLazily(question, lang, func() ([]int, error) { return known, nil })
	return a
}

// AnalyzeLazily is [Analyze] calling known for the session numbers only
// when the question names sessions: most questions do not, and the list
// of every session is the costliest thing a first search would read. An
// error of known is returned as is.
func AnalyzeLazily(question, lang string, known func() ([]int, error)) (Analysis, error) {
	if lang != "es" && lang != "en" {
		lang = analysis.QuestionLang(question)
	}
	toks := tokenize(question)
	a := Analysis{Kind: KindLookup, State: isState(toks)}
	if isArc(toks) {
		a.Kind = KindArc
	}
	ms := readMentions(toks, lang)
	if len(ms) == 0 {
		return a, nil
	}
	held, err := known()
	if err != nil {
		return a, err
	}
	// Sorted and compacted only when needed: the engine passes them
	// ascending, and a copy sorted for each question cost 1-2 ms at
	// 100,000 sessions.
	if !strictlyAscending(held) {
		held = slices.Compact(slices.Sorted(slices.Values(held)))
	}
	if len(ms) == 1 && lasting(toks) {
		// "en la sesión 20, ¿seguía vivo?" asks for the state as it stood
		// then: everything up to session 20, not only session 20.
		ms[0] = ms[0].asOf()
	}
	var said []string
	var sessions []int
	for _, m := range ms {
		got := m.resolve(held)
		if len(got) == 0 {
			continue
		}
		sessions = append(sessions, got...)
		said = append(said, question[toks[m.first].start:toks[m.last].end])
		if len(ms) == 1 {
			a.Until = m.until
		}
	}
	if len(sessions) > 0 {
		a.Sessions = slices.Compact(slices.Sorted(slices.Values(sessions)))
		a.Said = strings.Join(said, "; ")
	}
	return a, nil
}

// readMentions reads every place where toks name sessions as a
// constraint, in order.
func readMentions(toks []token, lang string) []mention {
	var ms []mention
	for i := 0; i < len(toks); i++ {
		if !sessionWord[toks[i].w] {
			continue
		}
		if m, ok := readMention(toks, i, lang); ok {
			ms = append(ms, m)
			i = m.last
		}
	}
	return ms
}

// strictlyAscending reports whether every number of s is above the one
// before it.
func strictlyAscending(s []int) bool {
	for i := 1; i < len(s); i++ {
		if s[i] <= s[i-1] {
			return false
		}
	}
	return true
}

// relation is how a relative reference counts sessions.
type relation int

const (
	noRelation relation = iota
	lastOnes
	firstOnes
	penultimate
)

// mention is one place where the question names sessions.
type mention struct {
	first, last int      // token span, for Said
	nums        []int    // "sesiones 3 y 5"
	ranges      [][2]int // "sesiones 3-5"; open ends are math.MinInt and math.MaxInt
	rel         relation // "las últimas tres sesiones"
	count       int
	until       int // the last session of an open range from the first ("hasta la sesión 20"), else 0
}

// resolve returns the sessions of known that m names, ascending.
func (m mention) resolve(known []int) []int {
	var out []int
	switch m.rel {
	case lastOnes:
		return slices.Clone(known[max(0, len(known)-m.count):])
	case firstOnes:
		return slices.Clone(known[:min(len(known), m.count)])
	case penultimate:
		if len(known) >= 2 {
			return []int{known[len(known)-2]}
		}
		return nil
	}
	for _, k := range known {
		in := slices.Contains(m.nums, k)
		for _, r := range m.ranges {
			in = in || r[0] <= k && k <= r[1]
		}
		if in {
			out = append(out, k)
		}
	}
	return out
}

// readMention reads the session reference around the session word at
// toks[k]; ok is false when the word is a passing mention, not a
// constraint ("la sesión en la que...", "¿cuántas sesiones...?").
func readMention(toks []token, k int, lang string) (mention, bool) {
	if m, ok := readRelative(toks, k); ok {
		return m, true
	}
	return readNumbered(toks, k, lang)
}

// readRelative reads "la última sesión", "las 3 últimas sesiones", "the
// last three sessions", "la sesión anterior", "la penúltima sesión".
func readRelative(toks []token, k int) (mention, bool) {
	plural := pluralSessionWord[toks[k].w]
	m := mention{first: k, last: k}
	count := 0
	if r := relWord(toks, k-1); r != noRelation {
		m.rel, m.first = r, k-1
		if n, ok := countAt(toks, k-2); ok {
			count, m.first = n, k-2
		}
	} else if n, ok := countAt(toks, k-1); ok {
		if r := relWord(toks, k-2); r != noRelation {
			m.rel, count, m.first = r, n, k-2
		} else if lastAfter[word(toks, k+1)] {
			m.rel, count, m.last = lastOnes, n, k+1
		}
	} else if lastAfter[word(toks, k+1)] {
		m.rel, m.last = lastOnes, k+1
	}
	if m.rel == noRelation {
		return mention{}, false
	}
	if m.last > k && aboutEvent[word(toks, m.last+1)] {
		// "la sesión anterior a la boda" is the one before an event.
		return mention{}, false
	}
	if relativeClause(toks, m.last+1) {
		// "la última sesión en la que apareció Harbin" names a session by
		// what happened in it.
		return mention{}, false
	}
	switch {
	case m.rel == penultimate || !plural:
		m.count = 1
	case count > 0:
		m.count = count
	default:
		m.count = DefaultRelativeCount
	}
	m.first = extendBack(toks, m.first)
	return m, true
}

// relWord reports the relation that the word at toks[i] gives a session
// word after it.
func relWord(toks []token, i int) relation {
	switch w := word(toks, i); w {
	case "ultima", "ultimas", "ultimo", "ultimos", "last", "latest", "final", "previous", "past":
		return lastOnes
	case "recent":
		if word(toks, i-1) == "most" {
			return lastOnes
		}
	case "primera", "primeras", "primer", "primeros", "first":
		return firstOnes
	case "penultima", "penultimo":
		return penultimate
	}
	return noRelation
}

// countAt reads a one-word count at toks[i]: "3", "tres", "three", or
// "few" / "couple" ("the last few sessions").
func countAt(toks []token, i int) (int, bool) {
	switch word(toks, i) {
	case "few":
		return DefaultRelativeCount, true
	case "couple":
		return 2, true
	}
	if i < 0 || i >= len(toks) {
		return 0, false
	}
	for _, lang := range []string{"es", "en"} {
		if n, next, ok := parseNumber(toks, i, lang); ok && next == i+1 && n > 0 {
			return n, true
		}
	}
	return 0, false
}

// relativeClause reports whether a relative clause starts at toks[i]:
// "que", "en la que", "donde", "in which", "where", "when", "that".
func relativeClause(toks []token, i int) bool {
	switch word(toks, i) {
	case "que", "donde", "cuando", "where", "which", "when", "that":
		return true
	case "en", "in":
		j := i + 1
		if articles[word(toks, j)] {
			j++
		}
		w := word(toks, j)
		return w == "que" || w == "which" || w == "cual" || w == "cuales"
	}
	return false
}

// readNumbered reads a session word with numbers: "la sesión 12", "sesión
// nº 12", "las sesiones 3, 4 y 7", "entre la sesión 3 y la 5", "sessions
// 3-5", "from session 3 to 5", "desde la sesión 100".
func readNumbered(toks []token, k int, lang string) (mention, bool) {
	if toks[k].short && shortNotSession[word(toks, k-1)] {
		// "la sala S12" is a room on a map, not session 12.
		return mention{}, false
	}
	m := mention{first: k}
	// What comes before the session word, over articles.
	b := k - 1
	for articles[word(toks, b)] {
		b--
	}
	opener := ""
	switch w := word(toks, b); {
	case w == "entre" || w == "between":
		opener, m.first = "between", b
	case w == "desde" || w == "since":
		opener, m.first = "since", b
	case w == "from":
		opener, m.first = "from", b
	case w == "hasta" || w == "until" || w == "till" || w == "through":
		opener, m.first = "until", b
	case w == "to" && word(toks, b-1) == "up":
		opener, m.first = "until", b-1
	case w == "before":
		opener, m.first = "before", b
	case w == "by" || w == "of" && word(toks, b-1) == "as":
		opener, m.first = "until", b-boolInt(w == "of")
	case w == "de" && word(toks, b-1) == "altura" && word(toks, b-2) == "la" && word(toks, b-3) == "a":
		opener, m.first = "until", b-3
	case w == "after":
		opener, m.first = "after", b
	case w == "de" && word(toks, b-1) == "antes":
		opener, m.first = "before", b-1
	case w == "de" && (word(toks, b-1) == "despues" || word(toks, b-1) == "tras"):
		opener, m.first = "after", b-1
	case w == "de" && word(toks, b-1) == "partir" && word(toks, b-2) == "a":
		opener, m.first = "since", b-2
	case w == "tras":
		opener, m.first = "after", b
	}
	// What comes after it.
	i := k + 1
	for markers[word(toks, i)] || word(toks, i) == "o" && word(toks, i-1) == "n" {
		i++
	}
	inner := false
	switch word(toks, i) {
	case "entre", "between":
		opener, inner = "between", true
	case "de", "desde", "from":
		opener, inner = "from", true
	}
	if inner {
		i++
		for articles[word(toks, i)] {
			i++
		}
	}
	n, next, ok := readNumber(toks, i, lang)
	if !ok {
		return mention{}, false
	}
	m.last = next - 1
	i = next
	pendingRange := opener == "between"
	for first := true; ; first = false {
		j, isRange, ok := connective(toks, i, m.last, pendingRange && first)
		if !ok {
			break
		}
		to, after, ok := readNumber(toks, j, lang)
		if !ok {
			break
		}
		if isRange {
			m.ranges = append(m.ranges, [2]int{min(n, to), max(n, to)})
			if first {
				opener = "" // the range is what was asked, not an open end
			}
			n = -1
		} else {
			if n >= 0 {
				m.nums = append(m.nums, n)
			}
			n = to
		}
		m.last, i = after-1, after
	}
	if n >= 0 {
		open := len(m.nums) == 0 && len(m.ranges) == 0
		switch {
		case opener == "between" || inner && opener == "from":
			// "entre la sesión 3" or "sesiones de la 3" with no end is not
			// a filter we understand.
			return mention{}, false
		case open && (opener == "since" || opener == "from"):
			m.ranges = append(m.ranges, [2]int{n, math.MaxInt})
		case open && opener == "until":
			m.ranges = append(m.ranges, [2]int{math.MinInt, n})
			m.until = n
		case open && opener == "before":
			m.ranges = append(m.ranges, [2]int{math.MinInt, n - 1})
			m.until = max(n-1, 0)
		case open && opener == "after":
			m.ranges = append(m.ranges, [2]int{n + 1, math.MaxInt})
		default:
			m.nums = append(m.nums, n)
		}
	}
	m.first = extendBack(toks, m.first)
	return m, true
}

// readNumber reads a session number at toks[i], in lang first and then in
// the other language ("¿qué pasó en la session twelve?"), except for
// Spanish "once", which in an English question is not eleven.
func readNumber(toks []token, i int, lang string) (n, next int, ok bool) {
	if n, next, ok := parseNumber(toks, i, lang); ok {
		return n, next, true
	}
	other := "en"
	if lang == "en" {
		other = "es"
		if word(toks, i) == "once" {
			return 0, i, false
		}
	}
	return parseNumber(toks, i, other)
}

// connective reads what joins two session numbers, starting at toks[i]
// right after the number that ends at toks[prev]: a list ("y", "and",
// "o", "or", a comma) or a range ("a", "hasta", "to", "through", a dash;
// "y"/"and" too when rangeAnd, after "entre"/"between"). It skips the
// articles and the session word that may follow ("y la sesión 5") and
// returns the index of the next number.
func connective(toks []token, i, prev int, rangeAnd bool) (next int, isRange, ok bool) {
	w := word(toks, i)
	switch {
	case rangeWords[w]:
		isRange = true
		i++
	case w == "y" || w == "e" || w == "and" || w == "o" || w == "or":
		isRange = rangeAnd
		i++
	case i < len(toks) && toks[i].dashBefore:
		isRange = true
	case prev >= 0 && prev < len(toks) && toks[prev].commaAfter:
	default:
		return i, false, false
	}
	for articles[word(toks, i)] {
		i++
	}
	if sessionWord[word(toks, i)] {
		i++
		for markers[word(toks, i)] {
			i++
		}
	}
	return i, isRange, true
}

// extendBack moves the start of a mention back over the articles and the
// preposition before it, so that Said reads "en la sesión 12".
func extendBack(toks []token, first int) int {
	for articles[word(toks, first-1)] {
		first--
	}
	if prepositions[word(toks, first-1)] {
		first--
	}
	return first
}

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

var (
	sessionWord       = setOf("sesion", "sesiones", "session", "sessions")
	pluralSessionWord = setOf("sesiones", "sessions")
	articles          = setOf("la", "las", "el", "los", "the")
	prepositions      = setOf("en", "de", "durante", "in", "during", "at", "on", "for", "of", "para", "por")
	markers           = setOf("no", "n", "num", "numero", "nro", "nr", "number", "nbr")
	rangeWords        = setOf("a", "al", "hasta", "to", "through", "thru", "till", "until")
	// lastAfter are the words that, after a session word, make it the last
	// one(s): "la sesión anterior", "las tres sesiones pasadas".
	lastAfter = setOf("anterior", "anteriores", "pasada", "pasadas", "previa", "previas")
	// shortNotSession are the words before "S12" that make it the name of
	// a place or a thing rather than a session.
	shortNotSession = setOf("sala", "habitacion", "cuarto", "celda", "zona", "area", "hex", "hexagono", "casilla",
		"mapa", "nivel", "planta", "puerta", "room", "cell", "zone", "map", "level", "floor", "door", "sector", "tipo", "type", "modelo", "model")
	// aboutEvent follows "anterior" when it is relative to an event.
	aboutEvent = setOf("a", "al", "de", "del", "to")
)
