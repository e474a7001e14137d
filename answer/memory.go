package answer

import (
	"strconv"

	txt "github.com/oraculo/oraculo/text"
)

// KindMemory is a verified entry of long-term memory delivered with the
// evidence: cited like a chunk, under its own label.
const KindMemory = "memory"

// MemoryLabelPrefix starts the label of every memory item: "Memoria: " and
// the entry's key.
const MemoryLabelPrefix = "Memoria: "

// MemoryEntry is an entry of long-term memory given to an answer.
type MemoryEntry struct {
	// ID identifies it among the evidence; it must not be a chunk's.
	ID int64
	// Key and Value are the entry's; Scope its scope.
	Key, Value, Scope string
	// Verified entries are evidence; the others (hypotheses, and entries
	// whose note changed since) are shown as unconfirmed, never cited.
	Verified bool
	// Stale marks an entry whose note changed since it was verified.
	Stale bool
	// File is the note it came from, or "".
	File string
}

// Evidence reports whether m is delivered as evidence: verified, and not
// stale.
func (m MemoryEntry) Evidence() bool { return m.Verified && !m.Stale }

// Unconfirmed is an entry shown to the model as not settled: it has no
// label, so nothing can cite it.
type Unconfirmed struct {
	Key, Value string
	Stale      bool
}

// maxMemoryValueWords is where a memory value given to an answer is
// clipped.
const maxMemoryValueWords = 120

// ContentTerms returns the terms of text that say what it is about: its
// terms, less those of the verbs a question is asked with ("pasó",
// "happened"), which say what kind of answer is wanted.
func ContentTerms(text string, terms func(string) []string, lang string) map[string]bool {
	skip := questionVerbs(terms, lang)
	q := map[string]bool{}
	for w := range termSet(terms(text)) {
		if !skip[w] {
			q[w] = true
		}
	}
	return q
}

// AnalyzerTerms returns the Terms of the analyser for lang (English for
// anything but "es"), or folded words if there is none: the terms a
// question is matched by when the caller has none of its own.
func AnalyzerTerms(lang string) func(string) []string { return analyzerTerms(lang) }

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
		if !m.Evidence() {
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
