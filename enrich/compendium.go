package enrich

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
	"github.com/oraculo/oraculo/internal/interruptible"
	"github.com/oraculo/oraculo/store"
)

// CompendiumFile is the name of the user's own compendium in a notes folder.
const CompendiumFile = "compendium.yaml"

// compendiumSigKey is the setting that names what the stored compendium
// was built from.
const compendiumSigKey = "compendium_sig"

// CompendiumStore is what [BuildCompendium] reads and writes: parts of the
// roles [store.Catalog], [store.ChunkFilter] and [store.EntityStore], and
// [store.Settings].
type CompendiumStore interface {
	store.Settings
	// Roots lists the folders notes were ingested from.
	Roots(ctx context.Context) ([]string, error)
	// NoteSources returns every note reassembled from its chunks.
	NoteSources(ctx context.Context) ([]store.NoteSource, error)
	// RestrictedChunks returns the ids of the chunks of DM-only notes.
	RestrictedChunks(ctx context.Context) (map[int64]bool, error)
	// EntityCount returns how many entities a scope's compendium holds.
	EntityCount(ctx context.Context, scope string) (int, error)
	// ReplaceEntities swaps a scope's compendium for a new one.
	ReplaceEntities(ctx context.Context, scope string, ents []store.Entity) error
	// PlayersCompendiumStale reports whether the players' compendium
	// must be rebuilt.
	PlayersCompendiumStale(ctx context.Context) (bool, error)
}

// CompendiumOptions say what changed since the stored compendium was built.
type CompendiumOptions struct {
	// Roots are the folders of this ingest (the store's own are read too).
	Roots []string
	// Stamp names the settings the notes were cut and analysed with.
	Stamp string
	// NotesChanged says that a note was written or removed.
	NotesChanged bool
}

// CompendiumResult is what [BuildCompendium] did.
type CompendiumResult struct {
	// Entities is how many entities the DM's compendium holds.
	Entities int
	// Rebuilt says the stored compendiums were replaced.
	Rebuilt bool
	// Unread are the compendium files left out, with why.
	Unread []FileWarning
}

// FileWarning is a file that was left out, with why.
type FileWarning struct {
	Root, Path, Detail string
}

// BuildCompendium rebuilds both compendiums from every note in s and the
// compendium.yaml of each folder, and records where each entity is
// mentioned; when nothing they are built from changed, the stored ones
// stand. The DM's is built from every note, the players' from the notes
// players may see, so that neither an entity known only from a DM note nor
// an alias or mention found there reaches a player. A compendium file that
// cannot be read or parsed is left out and reported. The result is
// returned also with an error, with what was done so far.
func BuildCompendium(ctx context.Context, s CompendiumStore, opts CompendiumOptions) (*CompendiumResult, error) {
	res := &CompendiumResult{}
	sig, err := compendiumSignature(ctx, s, opts)
	if err != nil {
		return res, err
	}
	stale, err := s.PlayersCompendiumStale(ctx)
	if err != nil {
		return res, err
	}
	if old, err := s.Meta(ctx, compendiumSigKey); err != nil {
		return res, err
	} else if old == sig && !opts.NotesChanged && !stale {
		res.Entities, err = s.EntityCount(ctx, store.ScopeDM)
		return res, err
	}
	notes, err := s.NoteSources(ctx)
	if err != nil {
		return res, err
	}
	file := readCompendiumFiles(opts.Roots, notes, res)
	if err := replaceEntities(ctx, s, notes, file, res); err != nil {
		return res, err
	}
	if err := s.SetMeta(ctx, compendiumSigKey, sig); err != nil {
		return res, err
	}
	res.Rebuilt = true
	return res, nil
}

// readCompendiumFiles reads the compendium files of every folder in the
// index, not only this run's, into one; those that cannot be read or
// parsed go to res.Unread.
func readCompendiumFiles(roots []string, notes []store.NoteSource, res *CompendiumResult) *compendium.File {
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
		data, err := os.ReadFile(filepath.Join(root, CompendiumFile))
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
		res.Unread = append(res.Unread, FileWarning{Root: root, Path: CompendiumFile,
			Detail: fmt.Sprintf("%v; the compendium was built without it", err)})
	}
	return file
}

// replaceEntities builds and stores the DM's compendium, then the
// players'.
func replaceEntities(ctx context.Context, s CompendiumStore, notes []store.NoteSource, file *compendium.File, res *CompendiumResult) error {
	inputs := noteInputs(notes)
	restricted := false
	for _, n := range notes {
		restricted = restricted || n.Restricted
	}
	var dmRecs []store.Entity
	for _, scope := range []string{store.ScopeDM, store.ScopePlayer} {
		var in []compendium.NoteInput
		var from []store.NoteSource
		for i, n := range notes {
			if scope == store.ScopePlayer && n.Restricted {
				continue
			}
			in = append(in, inputs[i])
			from = append(from, n)
		}
		recs := dmRecs // no DM-only note: the players' compendium is the DM's
		if scope == store.ScopeDM || restricted {
			var err error
			recs, err = interruptible.Run(ctx, func() ([]store.Entity, error) { return buildEntities(in, from, file) })
			if err != nil {
				return err
			}
		}
		if err := s.ReplaceEntities(ctx, scope, recs); err != nil {
			return err
		}
		if scope == store.ScopeDM {
			dmRecs = recs
			res.Entities = len(recs)
		}
	}
	return nil
}

// noteInputs are the notes as the compendium builder reads them.
func noteInputs(notes []store.NoteSource) []compendium.NoteInput {
	inputs := make([]compendium.NoteInput, len(notes))
	for i, n := range notes {
		var meta struct {
			Aliases any `json:"aliases"`
			Tags    any `json:"tags"`
		}
		_ = json.Unmarshal(n.Metadata, &meta) // metadata was validated at ingest
		inputs[i] = compendium.NoteInput{Path: n.Path, Title: n.Title, Aliases: stringsOf(meta.Aliases), Tags: stringsOf(meta.Tags), Text: n.Text}
	}
	return inputs
}

// buildEntities builds a compendium from notes and the user's file, with
// every chunk of those notes that mentions each entity.
func buildEntities(inputs []compendium.NoteInput, notes []store.NoteSource, file *compendium.File) ([]store.Entity, error) {
	ents, err := compendium.Build(inputs, file, compendium.Config{})
	if err != nil {
		return nil, fmt.Errorf("building the compendium: %w", err)
	}
	m := compendium.NewMatcher(ents)
	recs := make([]store.Entity, len(ents))
	for i, en := range ents {
		recs[i] = store.Entity{Name: en.Name, Kind: string(en.Kind), Aliases: en.Aliases, Note: en.Note, Source: en.Source, Mentions: map[int64]int{}}
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
func compendiumSignature(ctx context.Context, s CompendiumStore, opts CompendiumOptions) (string, error) {
	all, err := s.Roots(ctx)
	if err != nil {
		return "", err
	}
	all = append(all, opts.Roots...)
	sort.Strings(all)
	restricted, err := s.RestrictedChunks(ctx)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "compendium-v1 %s\n", opts.Stamp)
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

// stringsOf reads a front-matter value that may be one string or a list.
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
