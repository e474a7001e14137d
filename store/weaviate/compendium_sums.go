package weaviate

import (
	"context"
	"sync"

	"github.com/oraculo/oraculo/store"
)

// compendiumSums are the compendium's corpus-wide sums, kept in this
// process's memory only: Weaviate stores none, so [Store.CompendiumChanges]
// always says they are stale and every update sums every note's stored
// facts again (what an update cost everywhere before issue 31).
type compendiumSums struct {
	mu    sync.Mutex
	names [2]map[nameKey]store.NameSum
	lower [2]map[string]int
}

// nameKey is a name sum's identity.
type nameKey struct {
	surface     string
	start, date bool
}

// CompendiumChanges says the sums are stale: they are summed anew from
// every note's facts at each update.
func (s *Store) CompendiumChanges(ctx context.Context) (store.CompendiumChanges, error) {
	return store.CompendiumChanges{Stale: true}, ctx.Err()
}

// UpdateCompendiumSums changes the sums held in memory. The notes' own
// state (their visibility, their mentions pending) is kept by
// [Store.SyncCompendiumNotes], as before.
func (s *Store) UpdateCompendiumSums(ctx context.Context, up store.CompendiumSumsUpdate) error {
	m := s.sums
	m.mu.Lock()
	defer m.mu.Unlock()
	for scope, sums := range []store.NoteSums{up.All, up.DMOnly} {
		if up.Fill || m.names[scope] == nil {
			m.names[scope], m.lower[scope] = map[nameKey]store.NameSum{}, map[string]int{}
		}
		for _, n := range sums.Names {
			k := nameKey{n.Surface, n.Start, n.Date}
			t := m.names[scope][k]
			t.Surface, t.Start, t.Date = n.Surface, n.Start, n.Date
			t.Mentions += n.Mentions
			t.Notes += n.Notes
			t.IDSum += n.IDSum
			if t.Notes <= 0 {
				delete(m.names[scope], k)
			} else {
				m.names[scope][k] = t
			}
		}
		for w, n := range sums.Lower {
			if c := m.lower[scope][w] + n; c > 0 {
				m.lower[scope][w] = c
			} else {
				delete(m.lower[scope], w)
			}
		}
	}
	return ctx.Err()
}

// EachCompendiumNote calls fn with every note whose facts are stored, in
// path order, its whole facts given as its structure (the builder reads
// only the links and headings of them).
func (s *Store) EachCompendiumNote(ctx context.Context, fn func(store.NoteFacts) error) error {
	return s.EachNoteFacts(ctx, func(nf store.NoteFacts) error {
		nf.Structure, nf.Data = nf.Data, nil
		return fn(nf)
	})
}

// CompendiumNames calls fn with the sums of the names held in memory.
func (s *Store) CompendiumNames(ctx context.Context, fn func(dmOnly bool, n store.NameSum) error) error {
	m := s.sums
	m.mu.Lock()
	var all [2][]store.NameSum
	for scope := range m.names {
		for _, n := range m.names[scope] {
			all[scope] = append(all[scope], n)
		}
	}
	m.mu.Unlock()
	for scope, ns := range all {
		for _, n := range ns {
			if err := fn(scope == 1, n); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}

// CompendiumLower returns the lowercase counts of words held in memory.
func (s *Store) CompendiumLower(ctx context.Context, words []string) (all, dmOnly map[string]int, err error) {
	m := s.sums
	m.mu.Lock()
	defer m.mu.Unlock()
	out := [2]map[string]int{{}, {}}
	for scope := range out {
		for _, w := range words {
			if n := m.lower[scope][w]; n > 0 {
				out[scope][w] = n
			}
		}
	}
	return out[0], out[1], ctx.Err()
}
