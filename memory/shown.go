package memory

import (
	"context"
	"sync"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/store"
)

// Use is an entry of long-term memory an answer was shown (see
// [answer.MemoryUse]).
type Use = answer.MemoryUse

// Uses of a memory entry in an answer.
const (
	UseEvidence    = answer.MemoryEvidence
	UseUnconfirmed = answer.MemoryUnconfirmed
)

// Shown is an entry an answer is shown: the stored entry, and what the
// answer is given of it.
type Shown struct {
	Stored store.Memory
	Entry  answer.MemoryEntry
}

// ForAnswer returns the entries of long-term memory the asker may see that
// concern the query (see [Relevant]), best first, stale or not; none for
// an index without memory. cache, when not nil, keeps the entries' terms
// from one answer to the next.
func (b *Book) ForAnswer(ctx context.Context, query, lang string, terms func(string) []string, cache *TermCache) ([]Shown, error) {
	stored, err := b.Index.Memories(ctx, "", false)
	if err != nil || len(stored) == 0 {
		return nil, err
	}
	vis, err := b.seen(ctx, stored)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]store.Memory, len(vis))
	var entries []Scored
	for _, m := range vis {
		id, ok := seq(m.ID)
		if !ok {
			continue
		}
		byID[id] = m
		src, _ := store.ParseMemorySource(m.Source)
		entries = append(entries, Scored{MemoryEntry: answer.MemoryEntry{ID: id, Key: m.Key, Value: m.Value, Scope: m.Scope, Verified: m.Status == store.MemoryVerified, File: src.Note}})
	}
	cache.fill(entries, terms)
	// Staleness costs a read per entry: it is looked up for the relevant
	// ones only, and the choice made again with it.
	var chosen []Scored
	for _, i := range Relevant(query, entries, terms, lang) {
		st, err := b.stale(ctx, byID[entries[i].ID])
		if err != nil {
			return nil, err
		}
		entries[i].Stale = st
		chosen = append(chosen, entries[i])
	}
	var out []Shown
	for _, i := range Relevant(query, chosen, terms, lang) {
		out = append(out, Shown{Stored: byID[chosen[i].ID], Entry: chosen[i].MemoryEntry})
	}
	return out, nil
}

// Deliver adds the entries shown to the evidence ev ([answer.WithMemory])
// and says how each was used, in the order given: as evidence under its
// label, or unconfirmed.
func Deliver(ev answer.Context, shown []Shown) (answer.Context, []Use) {
	entries := make([]answer.MemoryEntry, len(shown))
	for i, s := range shown {
		entries[i] = s.Entry
	}
	ev = answer.WithMemory(ev, entries)
	labels := map[int64]string{}
	for _, it := range ev.Memory {
		labels[it.ID] = it.Label
	}
	uses := make([]Use, len(shown))
	for i, s := range shown {
		m := s.Stored
		uses[i] = Use{ID: m.ID, Scope: m.Scope, Key: m.Key, Value: m.Value, Status: m.Status, Stale: s.Entry.Stale, Use: UseUnconfirmed}
		if l, ok := labels[s.Entry.ID]; ok {
			uses[i].Use, uses[i].Label = UseEvidence, l
		}
	}
	return ev, uses
}

// TermCache keeps the terms of the entries the last answer listed, by
// evidence id, with the text they were taken from; each answer keeps only
// the entries it lists, so a forgotten entry's terms go at the next
// answer. It is safe for concurrent use; the zero value is empty, and a
// nil cache keeps nothing.
type TermCache struct {
	mu    sync.Mutex
	terms map[int64]cachedTerms
}

// cachedTerms are an entry's terms and the text they came from.
type cachedTerms struct {
	text  string
	terms *Terms
}

// fill fills in the entries' terms, from the cache when an entry's text is
// unchanged, and leaves in the cache only these entries.
func (c *TermCache) fill(entries []Scored, terms func(string) []string) {
	if c == nil || terms == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	next := make(map[int64]cachedTerms, len(entries))
	for i := range entries {
		m := &entries[i]
		text := m.Key + "\x00" + m.Value + "\x00" + m.Scope
		ct, ok := c.terms[m.ID]
		if !ok || ct.text != text {
			ct = cachedTerms{text: text, terms: EntryTerms(m.MemoryEntry, terms)}
		}
		next[m.ID] = ct
		m.Terms = ct.terms
	}
	c.terms = next
}
