package oraculo

import (
	"context"
	"sort"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/enrich"
	"github.com/oraculo/oraculo/store"
)

// CompendiumFile is the name of the user's own compendium in a notes folder.
const CompendiumFile = enrich.CompendiumFile

// entityState is the loaded compendium: entities in matcher order.
type entityState struct {
	entities []store.Entity
	matcher  *compendium.Matcher
	units    int
}

// entityIndex loads (once per scope and generation) the compendium the
// caller may see and its matcher.
func (e *Engine) entityIndex(ctx context.Context) (*entityState, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return e.entitiesOf(ctx, v)
}

// loadEntities loads a compendium (the players' when public) and builds
// its matcher.
func (e *Engine) loadEntities(ctx context.Context, public bool) (*entityState, error) {
	scope := store.ScopeDM
	if public {
		scope = store.ScopePlayer
	}
	recs, err := e.idx.Entities(ctx, scope)
	if err != nil {
		return nil, err
	}
	ents := make([]compendium.Entity, len(recs))
	for i, r := range recs {
		ents[i] = compendium.Entity{Name: r.Name, Kind: compendium.Kind(r.Kind), Aliases: r.Aliases, Note: r.Note, Source: r.Source}
	}
	units, err := e.idx.Units(ctx, public)
	if err != nil {
		return nil, err
	}
	return &entityState{entities: recs, matcher: compendium.NewMatcher(ents), units: units}, nil
}

// CompendiumEntry is one entity as `oraculo compendium` shows it.
type CompendiumEntry struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Aliases  []string `json:"aliases"`
	Note     string   `json:"note"`
	Source   string   `json:"source"`
	Chunks   int      `json:"chunks"`
	Sessions []int    `json:"sessions"`
	Files    []string `json:"files"`
}

// Compendium lists the entities, with where each is mentioned: for a
// player, the players' compendium (built from the notes they may see),
// empty while a note it was built from has become DM-only and no complete
// ingest has rebuilt it (it would still name what that note names).
func (e *Engine) Compendium(ctx context.Context) ([]CompendiumEntry, error) {
	scope, public := store.ScopeDM, false
	if isPlayer(ctx) {
		scope, public = store.ScopePlayer, true
	}
	recs, err := e.idx.Entities(ctx, scope)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(recs))
	for i, r := range recs {
		ids[i] = r.ID
	}
	mentions, err := e.idx.MentionsOf(ctx, ids, public)
	if err != nil {
		return nil, err
	}
	out := make([]CompendiumEntry, len(recs))
	for i, r := range recs {
		en := CompendiumEntry{Name: r.Name, Kind: r.Kind, Aliases: r.Aliases, Note: r.Note, Source: r.Source, Sessions: []int{}, Files: []string{}}
		if en.Aliases == nil {
			en.Aliases = []string{}
		}
		sessions, files := map[int]bool{}, map[string]bool{}
		for _, m := range mentions[r.ID] {
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
		out[i] = en
	}
	return out, nil
}

// FindEntity returns the entry whose name or alias matches name (case- and
// accent-insensitively), or false.
func (e *Engine) FindEntity(ctx context.Context, name string) (CompendiumEntry, bool, error) {
	all, err := e.Compendium(ctx)
	if err != nil {
		return CompendiumEntry{}, false, err
	}
	want := compendium.Normalize(name)
	for _, en := range all {
		if compendium.Normalize(en.Name) == want {
			return en, true, nil
		}
		for _, a := range en.Aliases {
			if compendium.Normalize(a) == want {
				return en, true, nil
			}
		}
	}
	return CompendiumEntry{}, false, nil
}
