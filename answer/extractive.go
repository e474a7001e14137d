package answer

import (
	"math"
	"sort"
	"strings"

	txt "github.com/oraculo/oraculo/text"
)

// Limits of an extractive answer.
const (
	// ExtractiveSentences is the most sentences an extractive answer quotes.
	ExtractiveSentences = 4
	// ExtractiveItems is the most items an extractive answer quotes from.
	ExtractiveItems = 3
)

// Scoring of extractive answers.
const (
	// minCoverage is the share of the question's weight a sentence must
	// match to be quoted. On the sample golden set, all three paths with the
	// hashing embedder (oraculo eval --answers
	// --extractive) 0.3 / 0.4 / 0.5 / 0.6 abstain on 0 / 1 / 2 / 3 of the
	// 6 unanswerable questions and on 11 / 17 / 19 / 32 of the 56
	// answerable ones: without a model, abstention is a weak signal.
	minCoverage = 0.5
	// contextMatch is the credit for a question term found only in the
	// label or the heading a sentence sits under ("¿qué pasó en la sesión
	// 12?" is answered by what Sesión 12 says).
	contextMatch = 0.6
	// ubiquitousShare: a term in more than this share of the sentences
	// (when there are at least ubiquitousMin) says nothing about which one
	// answers, and weighs almost nothing.
	ubiquitousShare  = 0.8
	ubiquitousMin    = 5
	ubiquitousWeight = 0.1
)

// questionWords are the verbs a question is asked with ("¿qué pasó…?",
// "what happened…?"): they say what kind of answer is wanted, not what it
// is about, so they are not matched.
var questionWords = map[string]string{
	"es": "pasa pasó pasaron pasar ocurre ocurrió ocurrieron ocurrir sucede sucedió sucedieron suceder " +
		"hace hizo hicieron hacer dice dijo dijeron decir sabe sabemos saben saber sé " +
		"cuenta cuéntame cuentan contar dime explica explícame explicar",
	"en": "happen happens happened happening do does did done say says said " +
		"tell told know knows known explain",
}

// Extractive answers question without a model: it quotes the sentences of
// the full evidence in ctx that best match the question, best first, each
// on its own line as "- " + sentence + " [" + label + "]", at most
// ExtractiveSentences sentences from at most ExtractiveItems items.
// Summaries are never quoted, nor are headings, questions, lines ending in
// ":" or fragments of fewer than three words.
//
// Words are matched through terms (nil means the Terms of the analyser for
// lang), less the verbs a question is asked with ("pasó", "happened"). A
// term weighs more the fewer sentences hold it, almost nothing when nearly
// every sentence does, and as much as the rarest when no sentence does. A
// sentence is quoted only when it matches at least half of the question's
// weight; a term found only in its item's label or in the heading it sits
// under counts for 0.6 of its weight ("¿qué pasó en la sesión 12?" is
// answered by what Sesión 12 says). Equal matches keep the evidence's
// order. ok is false when no sentence qualifies: the caller should abstain.
//
// The answer passes [Verify] with ctx with nothing removed and nothing
// uncited: square brackets in the quoted sentences become parentheses.
func Extractive(question string, ctx Context, terms func(string) []string, lang string) (text string, ok bool) {
	lines := extract(question, ctx, terms, lang, minCoverage, ExtractiveSentences)
	return strings.Join(lines, "\n"), len(lines) > 0
}

// Closest returns, for an abstention, the evidence's sentences that come
// closest to the question (at least closestCoverage of its weight, at most
// three), each a line "- sentence [label]"; nil when none does.
func Closest(question string, ctx Context, terms func(string) []string, lang string) []string {
	return extract(question, ctx, terms, lang, closestCoverage, closestSentences)
}

const (
	closestCoverage  = 0.2
	closestSentences = 3
)

// extract returns up to max quoted lines of the sentences that match at
// least min of the question's weight, best first.
func extract(question string, ctx Context, terms func(string) []string, lang string, min float64, max int) []string {
	if terms == nil {
		terms = analyzerTerms(lang)
	}
	skip := termSet(terms(questionWords[strings.ToLower(strings.TrimSpace(lang))]))
	var q []string // distinct, sorted: sums in a fixed order give equal scores for equal matches
	for w := range termSet(terms(question)) {
		if !skip[w] {
			q = append(q, w)
		}
	}
	if len(q) == 0 {
		return nil
	}
	sort.Strings(q)

	type candidate struct {
		item, pos int
		text      string
		own       map[string]bool // terms of the sentence
		near      map[string]bool // terms of its label and heading
		score     float64
	}
	idx := newLabelIndex(ctx)
	var cands []candidate
	quotable := ctx.quotable()
	for i, it := range quotable {
		if !idx.citable(it) {
			continue
		}
		label := termSet(terms(it.Label))
		for pos, s := range quotes(it.Text) {
			t := s.text
			near := termSet(terms(s.under))
			for w := range label {
				near[w] = true
			}
			own := termSet(terms(t))
			if it.Kind == KindMemory {
				// An entry's value is a statement about its key: the
				// key's words are the sentence's own.
				for w := range label {
					own[w] = true
				}
			}
			cands = append(cands, candidate{item: i, pos: pos, text: t, own: own, near: near})
		}
	}
	if len(cands) == 0 {
		return nil
	}

	n := float64(len(cands))
	weight := make([]float64, len(q))
	total := 0.0
	for i, w := range q {
		df := 0
		for _, c := range cands {
			if c.own[w] || c.near[w] {
				df++
			}
		}
		switch {
		case df == 0:
			// Absent from the evidence: it weighs as the rarest term, so a
			// question about something the evidence lacks is not answered
			// by its other words.
			weight[i] = math.Log(1 + n)
		case len(cands) >= ubiquitousMin && float64(df) > ubiquitousShare*n:
			weight[i] = ubiquitousWeight
		default:
			weight[i] = math.Log(1 + n/float64(df))
		}
		total += weight[i]
	}

	var good []candidate
	for _, c := range cands {
		for i, w := range q {
			wt := weight[i]
			switch {
			case c.own[w]:
				c.score += wt
			case c.near[w]:
				c.score += contextMatch * wt
			}
		}
		if c.score >= min*total && c.score > 0 {
			good = append(good, c)
		}
	}
	if len(good) == 0 {
		return nil
	}
	sort.SliceStable(good, func(i, j int) bool {
		a, b := good[i], good[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if a.item != b.item {
			return a.item < b.item
		}
		return a.pos < b.pos
	})

	var lines []string
	items := map[int]bool{}
	quoted := map[string]bool{}
	for _, c := range good {
		if len(lines) == max {
			break
		}
		if !items[c.item] && len(items) == ExtractiveItems {
			continue
		}
		if k := txt.Fold(c.text); !quoted[k] {
			quoted[k] = true
			items[c.item] = true
			lines = append(lines, "- "+c.text+" ["+quotable[c.item].Label+"]")
		}
	}
	return lines
}

func termSet(terms []string) map[string]bool {
	m := make(map[string]bool, len(terms))
	for _, t := range terms {
		m[t] = true
	}
	return m
}

// Extract answers question from the full evidence without a model. Where
// the notes say it, Text quotes the sentences that answer ([Extractive]).
// Otherwise "the notes do not say" is claimed only when it is known: a
// name, or most of the question's content words, occur in no note the
// asker may see (used reports whether one does, see [Unknown]); the draft
// is then empty, with those words in Unmentioned. Failing that, Text
// quotes what comes closest ([ClosestAnswer]), opened by the words no note
// uses, and Closest is set when something came close.
func Extract(question string, ctx Context, terms func(string) []string, lang string, used func(term string) bool) Draft {
	if len(ctx.Full)+len(ctx.Memory) > 0 {
		if text, ok := Extractive(question, ctx, terms, lang); ok {
			return Draft{Text: text}
		}
	}
	names, words, total := Unknown(question, lang, terms, used)
	switch {
	case len(names) > 0:
		return Draft{Unmentioned: names}
	case 2*len(words) > total:
		return Draft{Unmentioned: words}
	case len(ctx.Full) > 0:
		text, closest := ClosestAnswer(question, ctx, terms, lang)
		if closest && len(words) > 0 {
			text = Unmentioned(lang, words) + " " + text
		}
		return Draft{Text: text, Closest: closest}
	}
	return Draft{}
}
