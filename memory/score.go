package memory

import (
	"sort"
	"strings"

	"github.com/oraculo/oraculo/answer"
)

// Limits on the memory one answer is shown.
const (
	// MaxEvidence is how many verified (not stale) entries an answer is
	// given as evidence, MaxUnconfirmed how many others it is shown.
	MaxEvidence    = 4
	MaxUnconfirmed = 3
	keyMatchWeight = 2
)

// Scored is an entry as the scoring reads it: what an answer is given of
// it, and the terms it is matched by (computed when nil).
type Scored struct {
	answer.MemoryEntry
	// Terms are the entry's key and body terms ([EntryTerms]): a caller
	// that scores the same entries for many questions keeps them.
	Terms *Terms
}

// Terms are the terms an entry is matched by: its key's, and its value's
// with its session's.
type Terms struct {
	Key, Body map[string]bool
}

// EntryTerms returns the terms m is matched by.
func EntryTerms(m answer.MemoryEntry, terms func(string) []string) *Terms {
	return &Terms{Key: termSet(terms(m.Key)), Body: termSet(terms(m.Value + " " + sessionWords(m.Scope)))}
}

// Relevant returns the indexes of the entries that concern the question,
// best first: an entry's key, value and session are matched against the
// question's content words ([answer.ContentTerms]), a word of the key
// counting twice. An entry qualifies when it scores at least 2, or at
// least 1 for a question of one or two content words. At most MaxEvidence
// verified (not stale) entries are kept and MaxUnconfirmed others; equal
// scores keep the given order. terms nil means the analyser's for lang.
func Relevant(question string, entries []Scored, terms func(string) []string, lang string) []int {
	scores, n := score(question, entries, terms, lang)
	need := 2
	if n <= 2 {
		need = 1
	}
	var out []int
	nv, nu := 0, 0
	for _, g := range scores {
		if g.score < need {
			break
		}
		if entries[g.i].Evidence() {
			if nv < MaxEvidence {
				nv++
				out = append(out, g.i)
			}
		} else if nu < MaxUnconfirmed {
			nu++
			out = append(out, g.i)
		}
	}
	return out
}

// Match returns the indexes of every entry that shares a content word with
// text (scored as [Relevant] does), best first: what a user who says
// "forget …" may mean.
func Match(text string, entries []Scored, terms func(string) []string, lang string) []int {
	scores, _ := score(text, entries, terms, lang)
	var out []int
	for _, g := range scores {
		if g.score > 0 {
			out = append(out, g.i)
		}
	}
	return out
}

type entryScore struct{ i, score int }

// score scores every entry against the content words of text, best first,
// and counts those words.
func score(text string, entries []Scored, terms func(string) []string, lang string) ([]entryScore, int) {
	if terms == nil {
		terms = answer.AnalyzerTerms(lang)
	}
	q := answer.ContentTerms(text, terms, lang)
	if len(q) == 0 {
		return nil, 0
	}
	out := make([]entryScore, 0, len(entries))
	for i, m := range entries {
		mt := m.Terms
		if mt == nil {
			mt = EntryTerms(m.MemoryEntry, terms)
		}
		s := 0
		for w := range q {
			switch {
			case mt.Key[w]:
				s += keyMatchWeight
			case mt.Body[w]:
				s++
			}
		}
		out = append(out, entryScore{i, s})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	return out, len(q)
}

// sessionWords are the words a question about a session:N scope's session
// would use.
func sessionWords(scope string) string {
	if n, ok := strings.CutPrefix(scope, "session:"); ok {
		return "sesión " + n + " session " + n
	}
	return ""
}

func termSet(terms []string) map[string]bool {
	m := make(map[string]bool, len(terms))
	for _, t := range terms {
		m[t] = true
	}
	return m
}
