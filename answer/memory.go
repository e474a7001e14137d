package answer

import (
	"sort"
	"strconv"
	"strings"

	txt "github.com/oraculo/oraculo/text"
)

// KindMemory is a verified entry of long-term memory delivered with the
// evidence: cited like a chunk, under its own label.
const KindMemory = "memory"

// MemoryLabelPrefix starts the label of every memory item: "Memoria: " and
// the entry's key.
const MemoryLabelPrefix = "Memoria: "

// MemoryEntry is an entry of long-term memory offered to an answer.
type MemoryEntry struct {
	// ID identifies it among the evidence; it must not be a chunk's.
	ID int64
	// Key and Value are the entry's; Scope its scope (a session:N scope
	// matches a question about that session).
	Key, Value, Scope string
	// Verified entries are evidence; the others (hypotheses, and entries
	// whose note changed since) are shown as unconfirmed, never cited.
	Verified bool
	// Stale marks an entry whose note changed since it was verified.
	Stale bool
	// File is the note it came from, or "".
	File string
	// Terms are the entry's key and body terms ([MemoryEntryTerms]),
	// computed here when nil: a caller that scores the same entries for
	// many questions keeps them.
	Terms *MemoryTerms
}

// evidence reports whether m is delivered as evidence: verified, and not
// stale.
func (m MemoryEntry) evidence() bool { return m.Verified && !m.Stale }

// MemoryTerms are the terms an entry is matched by: its key's, and its
// value's with its session's.
type MemoryTerms struct {
	Key, Body map[string]bool
}

// MemoryEntryTerms returns the terms m is matched by.
func MemoryEntryTerms(m MemoryEntry, terms func(string) []string) *MemoryTerms {
	return &MemoryTerms{Key: termSet(terms(m.Key)), Body: termSet(terms(m.Value + " " + sessionWords(m.Scope)))}
}

// Unconfirmed is an entry shown to the model as not settled: it has no
// label, so nothing can cite it.
type Unconfirmed struct {
	Key, Value string
	Stale      bool
}

// Limits on the memory one answer is shown.
const (
	MaxMemoryItems       = 4
	MaxUnconfirmed       = 3
	maxMemoryValueWords  = 120
	memoryKeyMatchWeight = 2
)

// RelevantMemory returns the indexes of the entries that concern the
// question, best first: an entry's key, value and session are matched
// against the question's content words (the verbs a question is asked with
// left out), a word of the key counting twice. An entry qualifies when it
// scores at least 2, or at least 1 for a question of one or two content
// words. At most MaxMemoryItems verified (not stale) entries are kept and
// MaxUnconfirmed others; equal scores keep the given order.
func RelevantMemory(question string, entries []MemoryEntry, terms func(string) []string, lang string) []int {
	scores, n := memoryScores(question, entries, terms, lang)
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
		m := entries[g.i]
		if m.evidence() {
			if nv < MaxMemoryItems {
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

// MatchMemory returns the indexes of every entry that shares a content
// word with text (scored as [RelevantMemory] does), best first: what a
// user who says "forget …" may mean.
func MatchMemory(text string, entries []MemoryEntry, terms func(string) []string, lang string) []int {
	scores, _ := memoryScores(text, entries, terms, lang)
	var out []int
	for _, g := range scores {
		if g.score > 0 {
			out = append(out, g.i)
		}
	}
	return out
}

type memoryScore struct{ i, score int }

// memoryScores scores every entry against the content words of text, best
// first, and counts those words.
func memoryScores(text string, entries []MemoryEntry, terms func(string) []string, lang string) ([]memoryScore, int) {
	if terms == nil {
		terms = analyzerTerms(lang)
	}
	skip := termSet(terms(questionWords[strings.ToLower(strings.TrimSpace(lang))]))
	q := map[string]bool{}
	for w := range termSet(terms(text)) {
		if !skip[w] {
			q[w] = true
		}
	}
	if len(q) == 0 {
		return nil, 0
	}
	out := make([]memoryScore, 0, len(entries))
	for i, m := range entries {
		mt := m.Terms
		if mt == nil {
			mt = MemoryEntryTerms(m, terms)
		}
		score := 0
		for w := range q {
			switch {
			case mt.Key[w]:
				score += memoryKeyMatchWeight
			case mt.Body[w]:
				score++
			}
		}
		out = append(out, memoryScore{i, score})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	return out, len(q)
}

// Memory intents a chat line may carry.
const (
	IntentRemember = "remember"
	IntentForget   = "forget"
)

// memoryIntents are the openings of a chat line that asks to remember or
// to forget, longest first within each.
var memoryIntents = []struct{ prefix, kind string }{
	{"recuerda que ", IntentRemember}, {"recuerda: ", IntentRemember}, {"recordad que ", IntentRemember},
	{"apunta que ", IntentRemember}, {"remember that ", IntentRemember}, {"remember: ", IntentRemember},
	{"olvida que ", IntentForget}, {"olvida lo de ", IntentForget}, {"olvida ", IntentForget},
	{"forget that ", IntentForget}, {"forget about ", IntentForget}, {"forget ", IntentForget},
}

// MemoryIntent reads a chat line that asks to remember something
// ("recuerda que …", "remember that …") or to forget it ("olvida …",
// "forget …"): the intent and what follows, trimmed of final punctuation;
// "" when the line is a question like any other.
func MemoryIntent(line string) (intent, rest string) {
	l := strings.TrimLeft(strings.TrimSpace(line), "¡¿")
	low := strings.ToLower(l)
	for _, m := range memoryIntents {
		if strings.HasPrefix(low, m.prefix) {
			rest = strings.TrimSpace(strings.TrimRight(l[len(m.prefix):], " .!?¡¿"))
			if rest == "" {
				return "", ""
			}
			return m.kind, rest
		}
	}
	return "", ""
}

// MemoryKey proposes a key for a value to remember: the text before a
// colon when it has one early ("críticos: …"), else its first words, at
// most four, lower-cased.
func MemoryKey(text string) (key, value string) {
	if k, v, ok := strings.Cut(text, ":"); ok && len(strings.Fields(k)) <= 5 && strings.TrimSpace(v) != "" {
		return strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
	}
	words := strings.Fields(text)
	if len(words) > 4 {
		words = words[:4]
	}
	return strings.ToLower(strings.Trim(strings.Join(words, " "), " ,.;")), strings.TrimSpace(text)
}

// sessionWords are the words a question about a session:N scope's session
// would use.
func sessionWords(scope string) string {
	if n, ok := strings.CutPrefix(scope, "session:"); ok {
		return "sesión " + n + " session " + n
	}
	return ""
}

// WithMemory returns ctx with the entries added: verified ones (not stale)
// as items of kind KindMemory labelled MemoryLabelPrefix + key, unique
// among every label of ctx (the scope is appended to a key that repeats,
// then a number); the others as Unconfirmed. A value is one line, clipped
// to maxMemoryValueWords words.
func WithMemory(ctx Context, entries []MemoryEntry) Context {
	out := ctx
	out.Memory = nil
	out.Unconfirmed = nil
	taken := map[string]bool{}
	for _, it := range ctx.Items() {
		taken[labelKey(it.Label)] = true
	}
	for _, m := range entries {
		value := clipWords(txt.Collapse(m.Value), maxMemoryValueWords)
		if !m.evidence() {
			out.Unconfirmed = append(out.Unconfirmed, Unconfirmed{Key: txt.Collapse(m.Key), Value: value, Stale: m.Stale})
			continue
		}
		base := MemoryLabelPrefix + txt.Collapse(quoteSafe.Replace(m.Key))
		if len(base) > maxLabelBytes {
			base = clipBytes(base, maxLabelBytes)
		}
		l := base
		for n := 1; taken[labelKey(l)] || !citableLabel(l); n++ {
			switch n {
			case 1:
				l = base + " (" + m.Scope + ")"
			default:
				l = base + " (" + m.Scope + ", " + strconv.Itoa(n) + ")"
			}
			if n > 50 {
				break
			}
		}
		taken[labelKey(l)] = true
		out.Memory = append(out.Memory, Item{ID: m.ID, Label: l, File: m.File, Kind: KindMemory, Text: value, Gist: value})
		out.Words += wordCount(value)
	}
	return out
}
