package answer

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo/retrieve"
	txt "github.com/oraculo/oraculo/text"
)

// A state question asks what is true of something now: whether it lives,
// where it is, who leads it. Its answer is the latest account, and when
// the notes tell an earlier, different one, the answer says so, with both
// citations: "En la sesión 12: … [cita]" / "Después, en la sesión 20: …
// [cita]".

// stateKind is what a state question asks: life, place or leader.
type stateKind int

const (
	noState stateKind = iota
	lifeState
	placeState
	leaderState
)

// Words, folded, that say which state a question asks about, and the
// markers of each state in a sentence.
var (
	lifeAsked         = setOfWords("vivo viva vivos vivas muerto muerta muertos muertas vive viven alive dead lives")
	placeAsked        = setOfWords("donde where")
	leaderAsked       = setOfWords("lidera lideraba lider lideres jefe jefa mando dirige dirigia gobierna gobernaba manda controla encabeza leads led leader rules ruled runs commands heads charge")
	deadWords         = setOfWords("muere murio muerto muerta muertos muertas fallece fallecio asesinado asesinada asesinados mataron matan ejecutado ejecutada died dies dead killed slain murdered executed")
	aliveWords        = setOfWords("vivo viva vivos vivas sobrevive sobrevivio sobrevivieron superviviente resucita resucito alive survived survives survivor revived")
	negations         = setOfWords("no ni nunca jamas not never")
	placePrepositions = setOfWords("en a al hacia in at to into")
	leaderWords       = setOfWords("lidera liderada liderado lideraba lider lideres jefe jefa mando dirige dirigida dirigido encabeza gobierna comandante capitan capitana leads led leader leaders commands commanded commander captain heads headed chief ruler rules")
)

func setOfWords(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// askedState returns the state question asks about, noState when it
// asks none of them.
func askedState(question string) stateKind {
	for _, t := range questionTokens(question) {
		w := txt.Fold(t.word)
		switch {
		case lifeAsked[w]:
			return lifeState
		case leaderAsked[w]:
			return leaderState
		case placeAsked[w]:
			return placeState
		}
	}
	return noState
}

// SessionsOf returns the session of each hit's chunk, by chunk id; ok is
// false for a chunk outside sessions or not among hits.
func SessionsOf(hits []retrieve.Hit) func(id int64) (int, bool) {
	m := make(map[int64]int, len(hits))
	for _, h := range hits {
		if h.Session != nil {
			m[h.Chunk] = *h.Session
		}
	}
	return func(id int64) (int, bool) { s, ok := m[id]; return s, ok }
}

// stateAccount is one sentence of the evidence that tells the subject's
// state in a session.
type stateAccount struct {
	session int
	value   string
	text    string
	label   string
}

// StateChange reads, for a state question ([IsState] in package query:
// "¿sigue vivo Harbin?", "where is Kael now?", "who leads the guild?"),
// the accounts of its subject's state in the sessions of ctx (session
// gives each item's) and, when the latest differs from an earlier one,
// returns the two cited lines that say so, in lang: the earlier account,
// then the later one. ok is false when the evidence holds no change.
func StateChange(question string, ctx Context, session func(id int64) (int, bool), terms func(string) []string, lang string) (lines []string, ok bool) {
	earlier, later, ok := stateChange(question, ctx, session, terms, lang)
	if !ok {
		return nil, false
	}
	return stateLines(earlier, later, lang), true
}

// stateChange returns the latest account of the state question asks
// about and the latest earlier one that differs from it.
func stateChange(question string, ctx Context, session func(id int64) (int, bool), terms func(string) []string, lang string) (earlier, later stateAccount, ok bool) {
	kind := askedState(question)
	if kind == noState || session == nil {
		return earlier, later, false
	}
	accounts := stateAccounts(question, ctx, session, terms, lang, kind)
	if len(accounts) < 2 {
		return earlier, later, false
	}
	later = accounts[len(accounts)-1]
	for i := len(accounts) - 2; i >= 0; i-- {
		if e := accounts[i]; e.session < later.session && e.value != later.value {
			return e, later, true
		}
	}
	return earlier, later, false
}

// stateAccounts returns the sentences of ctx that name the question's
// subject and tell a state of kind, in session order.
func stateAccounts(question string, ctx Context, session func(id int64) (int, bool), terms func(string) []string, lang string, kind stateKind) []stateAccount {
	sc := scoreEvidence(question, ctx, terms, lang)
	subject := sc.names
	if len(subject) == 0 {
		subject = sc.subject
	}
	if terms == nil {
		terms = analyzerTerms(lang)
	}
	var out []stateAccount
	for _, c := range sc.cands {
		it := sc.quotable[c.item]
		s, inSession := session(it.ID)
		if !inSession || !namesAny(c.own, subject) {
			continue
		}
		if v := stateValue(c.text, kind, subject, terms); v != "" {
			out = append(out, stateAccount{session: s, value: v, text: c.text, label: it.Label})
		}
	}
	slices.SortStableFunc(out, func(a, b stateAccount) int { return cmp.Compare(a.session, b.session) })
	return out
}

func namesAny(own, subject map[string]bool) bool {
	for t := range subject {
		if own[t] {
			return true
		}
	}
	return false
}

// stateValue is the state of kind that sentence tells: "dead" or "alive";
// a place's name after a preposition of place; the names beside a word of
// leadership. Empty when it tells none, or denies it ("no murió").
func stateValue(sentence string, kind stateKind, subject map[string]bool, terms func(string) []string) string {
	words := strings.FieldsFunc(sentence, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var names []string
	life, marked := "", false
	for i, w := range words {
		f := txt.Fold(w)
		negated := i > 0 && negations[txt.Fold(words[i-1])]
		switch {
		case kind == lifeState && (deadWords[f] || aliveWords[f]):
			v := map[bool]string{true: "dead", false: "alive"}[deadWords[f]]
			if negated || life != "" && life != v {
				return ""
			}
			life = v
		case kind == placeState && placePrepositions[f] && i+1 < len(words) && isName(words[i+1], subject, terms):
			names = append(names, txt.Fold(words[i+1]))
		case kind == leaderState && leaderWords[f]:
			marked = !negated
		case kind == leaderState && isName(w, subject, terms):
			names = append(names, f)
		}
	}
	switch {
	case kind == lifeState:
		return life
	case kind == leaderState && !marked:
		return ""
	}
	slices.Sort(names)
	return strings.Join(slices.Compact(names), " ")
}

// isName reports whether w is a capitalised word, not a stop word and not
// of the subject.
func isName(w string, subject map[string]bool, terms func(string) []string) bool {
	r := []rune(w)
	if len(r) == 0 || !unicode.IsUpper(r[0]) {
		return false
	}
	ts := terms(w)
	if len(ts) == 0 {
		return false
	}
	for _, t := range ts {
		if subject[t] {
			return false
		}
	}
	return true
}

// stateLines writes the earlier and the later account as cited lines.
func stateLines(earlier, later stateAccount, lang string) []string {
	first, then := "En la sesión %d: %s [%s]", "Después, en la sesión %d: %s [%s]"
	if lang != "es" {
		first, then = "In session %d: %s [%s]", "Later, in session %d: %s [%s]"
	}
	return []string{
		"- " + fmt.Sprintf(first, earlier.session, earlier.text, earlier.label),
		"- " + fmt.Sprintf(then, later.session, later.text, later.label),
	}
}

// withStateChange puts before d's text the lines of [StateChange] when
// the evidence holds a change of the state question asks about, leaving
// out d's lines that quote the same sentences; when none of d's quotes is
// left, the change is the whole answer, and a direct one.
func withStateChange(d Draft, question string, ctx Context, session func(id int64) (int, bool), terms func(string) []string, lang string) Draft {
	earlier, later, ok := stateChange(question, ctx, session, terms, lang)
	if !ok || d.Unmentioned != nil || d.NoNotes {
		return d
	}
	lines := stateLines(earlier, later, lang)
	quotes := 0
	var rest []string
	for _, l := range strings.Split(d.Text, "\n") {
		if strings.Contains(l, earlier.text) || strings.Contains(l, later.text) || strings.TrimSpace(l) == "" {
			continue
		}
		if strings.HasPrefix(l, "- ") {
			quotes++
		}
		rest = append(rest, l)
	}
	if quotes == 0 {
		rest, d.Closest = nil, false
	}
	d.Text = strings.Join(append(lines, rest...), "\n")
	d.Quoted = true
	return d
}

// stateRule is the rule a state question adds to the model's: the latest
// state, and when it changed.
var stateRule = map[string]string{
	"es": "- La pregunta pide un estado (si vive, dónde está, quién lidera): da el más reciente que digan las pruebas, con la sesión en que consta, y si antes era otro, di en qué sesión cambió, citando ambas pruebas.",
	"en": "- The question asks for a state (whether someone lives, where something is, who leads): give the latest one the evidence tells, with the session it is from, and if it was different before, say in which session it changed, citing both pieces of evidence.",
}

// withStateRule adds [stateRule] to the system message of msgs.
func withStateRule(msgs []Message, lang string) []Message {
	rule := stateRule["en"]
	if lang == "es" {
		rule = stateRule["es"]
	}
	out := slices.Clone(msgs)
	for i := range out {
		if out[i].Role == RoleSystem {
			out[i].Content += "\n" + rule
			break
		}
	}
	return out
}
