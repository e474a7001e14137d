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
	if terms == nil {
		terms = analyzerTerms(lang)
	}
	skip := termSet(terms(questionWords[strings.ToLower(strings.TrimSpace(lang))]))
	q := map[string]bool{}
	for w := range termSet(terms(question)) {
		if !skip[w] {
			q[w] = true
		}
	}
	if len(q) == 0 {
		return nil
	}
	need := 2
	if len(q) <= 2 {
		need = 1
	}
	type scored struct{ i, score int }
	var good []scored
	for i, m := range entries {
		key := termSet(terms(m.Key))
		body := termSet(terms(m.Value + " " + sessionWords(m.Scope)))
		score := 0
		for w := range q {
			switch {
			case key[w]:
				score += memoryKeyMatchWeight
			case body[w]:
				score++
			}
		}
		if score >= need {
			good = append(good, scored{i, score})
		}
	}
	sort.SliceStable(good, func(a, b int) bool { return good[a].score > good[b].score })
	var out []int
	nv, nu := 0, 0
	for _, g := range good {
		m := entries[g.i]
		if m.Verified && !m.Stale {
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
		if !m.Verified || m.Stale {
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
