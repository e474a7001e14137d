package answer

import (
	"slices"
	"strings"

	"github.com/oraculo/oraculo/query"
)

// continuationWords (folded) ask what came next in time: "¿y después?",
// "¿y luego qué pasó?", "and then?", "what happened next?".
var continuationWords = setOf("despues", "luego", "posteriormente", "siguiente", "continuacion",
	"then", "next", "afterwards", "afterward", "later", "after")

// continuationFiller (folded) are the words a continuation may hold
// besides its time word and the language's stop words: what asks it
// ("pasó", "happened"), what it goes on from ("eso", "that").
var continuationFiller = setOf("y", "e", "and", "so", "que", "what", "paso", "pasaron", "ocurrio",
	"sucedio", "hicieron", "hizo", "vino", "mas", "a", "de", "eso", "esto", "aquello", "ello",
	"happened", "happen", "came", "come", "did", "do", "they", "we", "that", "this", "it", "then")

// Continues reports whether question asks only what happened next, after
// the previous answer ("¿y después?", "¿y luego qué pasó?", "¿qué pasó
// después?", "and then?", "what happened next?"): it holds a word of time
// that follows and nothing else but stop words and the verbs a question is
// asked with. A question that asks who, where, when, how many or why, or
// that brings a subject of its own ("¿y después qué hizo Baika?",
// "¿después de la batalla?"), does not.
func Continues(question string) bool {
	if len(QuestionKinds(question)) > 0 {
		return false
	}
	ws := words(question)
	timed := false
	for i, w := range ws {
		switch {
		case continuationWords[w]:
			timed = true
			if w == "after" && i+1 < len(ws) && ws[i+1] != "that" && ws[i+1] != "this" {
				return false
			}
		case w == "tarde" && i > 0 && ws[i-1] == "mas":
			timed = true // "¿y más tarde?"
		case continuationFiller[w], isStopWord(w):
		default:
			return false
		}
	}
	return timed
}

// isStopWord reports a word that every language's analyser drops.
func isStopWord(w string) bool {
	for _, a := range analyzers() {
		if len(a.Terms(w)) > 0 {
			return false
		}
	}
	return true
}

// LabelSessions returns the sessions of known that the citations of an
// answer's text name in their labels ("[Sesión 12 › La Dama Velada]",
// "[Session 3]"), ascending, each once: what an earlier answer cited when
// nothing else kept it (an OpenAI-style conversation carries only text).
func LabelSessions(text string, known []int) []int {
	var out []int
	for _, g := range citationGroups(text) {
		for _, label := range strings.Split(g.inner, ";") {
			out = append(out, query.Analyze(label, "", known).Sessions...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// After returns, for a continuation (see [Conversation.Continues]), the
// last session the previous answer cited and the sessions of known
// (ascending) after it: what the question searches. The previous turn's
// Sessions say what it cited, or else the labels its answer cites (see
// [LabelSessions]); ok is false when neither names a session of known.
func (c Conversation) After(known []int) (last int, after []int, ok bool) {
	if !c.Continues {
		return 0, nil, false
	}
	cited := c.Previous.Sessions
	if len(cited) == 0 {
		cited = LabelSessions(c.Previous.Answer, known)
	}
	if len(cited) == 0 {
		return 0, nil, false
	}
	last = slices.Max(cited)
	for _, s := range known {
		if s > last {
			after = append(after, s)
		}
	}
	return last, after, true
}

// citedSessions returns the sessions of the chunks a's valid citations
// name, ascending, each once: what a continuation of the conversation
// goes on from (see [Turn.Sessions]).
func (a *Answer) citedSessions() []int {
	session := make(map[string]int, len(a.Candidates))
	for _, h := range a.Candidates {
		if h.Session != nil {
			session[h.ID] = *h.Session
		}
	}
	var out []int
	for _, ev := range a.CitedEvidence() {
		if s, ok := session[ev.ID]; ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Subject is what an extracted answer to a matches sentences against
// instead of its question (see [DraftOptions.Subject]): for a
// continuation, its query (the previous turn's subject); else "".
func (a *Answer) Subject() string {
	if a.After == nil {
		return ""
	}
	return a.Query
}
