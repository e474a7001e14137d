package compendium

import (
	"context"
	"sort"

	"github.com/oraculo/oraculo/store"
)

// Entry is one entity as `oraculo compendium` lists it, with where the
// notes mention it.
type Entry struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Aliases  []string `json:"aliases"`
	Note     string   `json:"note"`
	Source   string   `json:"source"`
	Chunks   int      `json:"chunks"`
	Sessions []int    `json:"sessions"`
	Files    []string `json:"files"`
}

// ListSource is the store's roles a listing is read from.
type ListSource interface {
	// Entities returns the compendium of a scope; the players' is empty
	// while it is stale.
	Entities(ctx context.Context, scope string) ([]store.Entity, error)
	// MentionsOf lists the chunks naming each entity; public leaves out
	// those of notes players may not see now.
	MentionsOf(ctx context.Context, entityIDs []int64, public bool) (map[int64][]store.Mention, error)
}

// List lists the entities of a stored compendium, with where each is
// mentioned: when public, the players' compendium (built from the notes
// they may see), empty while it is stale, and only the mentions in notes
// they may see now.
func List(ctx context.Context, s ListSource, public bool) ([]Entry, error) {
	recs, err := s.Entities(ctx, scope(public))
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(recs))
	for i, r := range recs {
		ids[i] = r.ID
	}
	mentions, err := s.MentionsOf(ctx, ids, public)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(recs))
	for i, r := range recs {
		out[i] = entry(r, mentions[r.ID])
	}
	return out, nil
}

// entry is r listed with its mentions: how many chunks, which sessions
// and files, sorted.
func entry(r store.Entity, mentions []store.Mention) Entry {
	en := Entry{Name: r.Name, Kind: r.Kind, Aliases: r.Aliases, Note: r.Note, Source: r.Source, Sessions: []int{}, Files: []string{}}
	if en.Aliases == nil {
		en.Aliases = []string{}
	}
	sessions, files := map[int]bool{}, map[string]bool{}
	for _, m := range mentions {
		en.Chunks++
		if m.InSession && !sessions[m.Session] {
			sessions[m.Session] = true
			en.Sessions = append(en.Sessions, m.Session)
		}
		if !files[m.Path] {
			files[m.Path] = true
			en.Files = append(en.Files, m.Path)
		}
	}
	sort.Ints(en.Sessions)
	sort.Strings(en.Files)
	return en
}

// Lookup returns the entry whose name or alias is name, compared as
// [Normalize] compares names (case- and accent-insensitively), or false.
func Lookup(entries []Entry, name string) (Entry, bool) {
	want := Normalize(name)
	for _, en := range entries {
		if Normalize(en.Name) == want {
			return en, true
		}
		for _, a := range en.Aliases {
			if Normalize(a) == want {
				return en, true
			}
		}
	}
	return Entry{}, false
}
