package oraculo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/interruptible"
)

// CompendiumFile is the name of the user's own compendium in a notes folder.
const CompendiumFile = "compendium.yaml"

// entityState is the loaded compendium: entities in matcher order.
type entityState struct {
	entities []index.EntityRecord
	matcher  *compendium.Matcher
	units    int
}

// buildCompendium rebuilds the compendium from every note in the index and
// the compendium.yaml of each ingested folder, and records where each
// entity is mentioned.
func (e *Engine) buildCompendium(ctx context.Context, roots []string, rep *IngestReport) error {
	// Nothing changed (no note written or removed, the same compendium
	// files): the stored compendium stands.
	sig, err := e.compendiumSignature(ctx, roots)
	if err != nil {
		return err
	}
	stale, err := e.idx.PlayersCompendiumStale(ctx)
	if err != nil {
		return err
	}
	if old, err := e.idx.Meta(ctx, "compendium_sig"); err != nil {
		return err
	} else if old == sig && rep.Indexed == 0 && rep.Deleted == 0 && !stale {
		rep.Entities, err = e.idx.EntityCount(ctx, index.ScopeDM)
		return err
	}
	notes, err := e.idx.NoteSources(ctx)
	if err != nil {
		return err
	}
	inputs := make([]compendium.NoteInput, len(notes))
	for i, n := range notes {
		var meta struct {
			Aliases any `json:"aliases"`
			Tags    any `json:"tags"`
		}
		_ = json.Unmarshal(n.Metadata, &meta) // metadata was validated at ingest
		inputs[i] = compendium.NoteInput{Path: n.Path, Title: n.Title, Aliases: stringsOf(meta.Aliases), Tags: stringsOf(meta.Tags), Text: n.Text}
	}
	// Every folder in the index, not only this run's, may hold a compendium file.
	seen := map[string]bool{}
	var all []string
	for _, r := range roots {
		if !seen[r] {
			seen[r] = true
			all = append(all, r)
		}
	}
	for _, n := range notes {
		if !seen[n.Root] {
			seen[n.Root] = true
			all = append(all, n.Root)
		}
	}
	file := &compendium.File{}
	for _, root := range all {
		p := filepath.Join(root, CompendiumFile)
		data, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err == nil {
			var f *compendium.File
			if f, err = compendium.ParseFile(data); err == nil {
				file.Entities = append(file.Entities, f.Entities...)
				file.Merge = append(file.Merge, f.Merge...)
				file.Rename = append(file.Rename, f.Rename...)
				file.Ban = append(file.Ban, f.Ban...)
				continue
			}
		}
		rep.Warnings = append(rep.Warnings, Problem{Root: root, Path: CompendiumFile, Reason: "warning",
			Detail: fmt.Sprintf("%v; the compendium was built without it", err)})
	}
	// Two compendiums: the DM's, from every note, and the players', from
	// the notes players may see, so that neither an entity known only from
	// a DM note nor an alias or mention found there reaches a player.
	restricted := false
	for _, n := range notes {
		restricted = restricted || n.Restricted
	}
	var dmRecs []index.EntityRecord
	for _, scope := range []string{index.ScopeDM, index.ScopePlayer} {
		var in []compendium.NoteInput
		var from []index.NoteSource
		for i, n := range notes {
			if scope == index.ScopePlayer && n.Restricted {
				continue
			}
			in = append(in, inputs[i])
			from = append(from, n)
		}
		recs := dmRecs // no DM-only note: the players' compendium is the DM's
		if scope == index.ScopeDM || restricted {
			recs, err = interruptible.Run(ctx, func() ([]index.EntityRecord, error) { return buildEntities(in, from, file) })
			if err != nil {
				return err
			}
		}
		if scope == index.ScopeDM {
			dmRecs = recs
		}
		if err := e.idx.ReplaceEntities(ctx, scope, recs); err != nil {
			return err
		}
		if scope == index.ScopeDM {
			rep.Entities = len(recs)
		}
	}
	if err := e.idx.SetMeta(ctx, "compendium_sig", sig); err != nil {
		return err
	}
	e.invalidate()
	return nil
}

// buildEntities builds a compendium from notes and the user's file, with
// every chunk of those notes that mentions each entity.
func buildEntities(inputs []compendium.NoteInput, notes []index.NoteSource, file *compendium.File) ([]index.EntityRecord, error) {
	ents, err := compendium.Build(inputs, file, compendium.Config{})
	if err != nil {
		return nil, fmt.Errorf("building the compendium: %w", err)
	}
	m := compendium.NewMatcher(ents)
	recs := make([]index.EntityRecord, len(ents))
	for i, en := range ents {
		recs[i] = index.EntityRecord{Name: en.Name, Kind: string(en.Kind), Aliases: en.Aliases, Note: en.Note, Source: en.Source, Mentions: map[int64]int{}}
	}
	for _, n := range notes {
		for i, text := range n.ChunkTexts {
			for _, mt := range m.Find(text) {
				recs[mt.Entity].Mentions[n.ChunkIDs[i]]++
			}
		}
	}
	return recs, nil
}

// compendiumSignature names what the compendium is built from besides the
// notes: the compendium files of every ingested folder, the settings, and
// which chunks are DM-only (the players' compendium leaves them out).
func (e *Engine) compendiumSignature(ctx context.Context, roots []string) (string, error) {
	all, err := e.idx.Roots(ctx)
	if err != nil {
		return "", err
	}
	all = append(all, roots...)
	sort.Strings(all)
	restricted, err := e.idx.RestrictedChunks(ctx)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "compendium-v1 %s\n", e.stamp())
	for _, id := range slices.Sorted(maps.Keys(restricted)) {
		fmt.Fprintf(h, "dm %d\n", id)
	}
	prev := ""
	for _, r := range all {
		if r == prev {
			continue
		}
		prev = r
		data, err := os.ReadFile(filepath.Join(r, CompendiumFile))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			data = []byte(err.Error())
		}
		fmt.Fprintf(h, "%s\x00%d\x00", r, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func stringsOf(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
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
	scope := index.ScopeDM
	if public {
		scope = index.ScopePlayer
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
	scope, public := index.ScopeDM, false
	if isPlayer(ctx) {
		scope, public = index.ScopePlayer, true
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
