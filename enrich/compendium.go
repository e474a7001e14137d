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
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

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
// roles [store.Catalog] and [store.EntityStore], and [store.Settings].
type CompendiumStore interface {
	store.Settings
	// Roots lists the folders notes were ingested from.
	Roots(ctx context.Context) ([]string, error)
	// EntityCount returns how many entities a scope's compendium holds.
	EntityCount(ctx context.Context, scope string) (int, error)
	// PlayersCompendiumStale reports whether the players' compendium
	// must be rebuilt.
	PlayersCompendiumStale(ctx context.Context) (bool, error)
	// SyncCompendiumNotes lists the notes whose facts are not stored and
	// says whether any note's mentions are pending.
	SyncCompendiumNotes(ctx context.Context) (missing []int64, pending bool, err error)
	// NoteSourcesOf returns notes reassembled from their chunks.
	NoteSourcesOf(ctx context.Context, docIDs []int64) ([]store.NoteSource, error)
	// PutNoteFacts stores the facts of notes, pending.
	PutNoteFacts(ctx context.Context, facts []store.NoteFacts) error
	// EachNoteFacts calls fn with the stored facts of every note.
	EachNoteFacts(ctx context.Context, fn func(store.NoteFacts) error) error
	// EachNoteLower calls fn with the stored lowercase words of every
	// note.
	EachNoteLower(ctx context.Context, fn func(restricted bool, lower []byte) error) error
	// UpdateCompendium runs fn in one transaction.
	UpdateCompendium(ctx context.Context, fn func(store.CompendiumWriter) error) error
	// CompendiumChanges lists the notes whose part of the sums changed.
	CompendiumChanges(ctx context.Context) (store.CompendiumChanges, error)
	// UpdateCompendiumSums changes the stored sums.
	UpdateCompendiumSums(ctx context.Context, up store.CompendiumSumsUpdate) error
	// EachCompendiumNote calls fn with every note, its structure but not
	// its facts.
	EachCompendiumNote(ctx context.Context, fn func(store.NoteFacts) error) error
	// CompendiumNames calls fn with the stored sums of the names.
	CompendiumNames(ctx context.Context, fn func(dmOnly bool, s store.NameSum) error) error
	// CompendiumLower returns the stored lowercase counts of words.
	CompendiumLower(ctx context.Context, words []string) (all, dmOnly map[string]int, err error)
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
	// Rebuilt says the stored compendiums were updated.
	Rebuilt bool
	// Unread are the compendium files left out, with why.
	Unread []FileWarning
}

// FileWarning is a file that was left out, with why.
type FileWarning struct {
	Root, Path, Detail string
}

// noteBatch is how many notes are read at once to extract their facts,
// and chunkBatch how many chunks to find mentions in: what the stage holds
// in memory besides the facts.
const (
	noteBatch  = 256
	chunkBatch = 512
)

// BuildCompendium brings both compendiums up to date with every note in s
// and the compendium.yaml of each folder, and records where each entity
// is mentioned; when nothing they are built from changed, the stored ones
// stand. The DM's is built from every note, the players' from the notes
// players may see, so that neither an entity known only from a DM note nor
// an alias or mention found there reaches a player. A compendium file that
// cannot be read or parsed is left out and reported. The result is
// returned also with an error, with what was done so far.
//
// The update gives what a build from scratch gives, without reading every
// note again: what the builder reads from a note's text (its
// [compendium.Facts]) is stored, so only new and changed notes are read,
// in batches; the entities are combined anew from the stored facts (that
// is cheap); mentions are found in the chunks of new and changed notes,
// and in the other chunks only when a name or alias changed, and then only
// in the chunks where a changed name may occur.
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
	if err := syncSums(ctx, s); err != nil {
		return res, err
	}
	missing, pending, err := s.SyncCompendiumNotes(ctx)
	if err != nil {
		return res, err
	}
	if old, err := s.Meta(ctx, compendiumSigKey); err != nil {
		return res, err
	} else if old == sig && !opts.NotesChanged && !stale && !pending {
		res.Entities, err = s.EntityCount(ctx, store.ScopeDM)
		return res, err
	}
	if err := extractFacts(ctx, s, missing); err != nil {
		return res, err
	}
	dm, players, restricted, err := corpora(ctx, s)
	if err != nil {
		return res, err
	}
	roots, err := s.Roots(ctx)
	if err != nil {
		return res, err
	}
	file := readCompendiumFiles(append(slices.Clone(opts.Roots), roots...), res)
	ents, err := interruptible.Run(ctx, func() ([2][]compendium.Entity, error) {
		var out [2][]compendium.Entity
		var err error
		if out[0], err = dm.Build(file); err != nil || !restricted {
			out[1] = out[0] // no DM-only note: the players' compendium is the DM's
			return out, err
		}
		out[1], err = players.Build(file)
		return out, err
	})
	if err != nil {
		return res, fmt.Errorf("building the compendium: %w", err)
	}
	res.Entities = len(ents[0])
	if err := s.UpdateCompendium(ctx, func(w store.CompendiumWriter) error {
		return storeCompendium(ctx, w, ents, !restricted, sig)
	}); err != nil {
		return res, err
	}
	res.Rebuilt = true
	return res, nil
}

// sumsFlush is how many sums the facts of new notes may change before
// they are stored: what a first ingest holds in memory.
const sumsFlush = 1 << 18

// extractFacts reads the notes ids names, a batch at a time, and stores
// their facts and what they add to the sums.
func extractFacts(ctx context.Context, s CompendiumStore, ids []int64) error {
	probe, err := compendium.NewCorpus(compendium.Config{})
	if err != nil {
		return err
	}
	d := newSumsDelta()
	for len(ids) > 0 {
		n := min(len(ids), noteBatch)
		notes, err := s.NoteSourcesOf(ctx, ids[:n])
		if err != nil {
			return err
		}
		ids = ids[n:]
		facts := make([]store.NoteFacts, len(notes))
		extracted := make([]*compendium.Facts, len(notes))
		if err := parallel(ctx, len(notes), func(i int) {
			nt := &notes[i]
			f := compendium.Extract(nt.Text)
			data, _ := f.MarshalBinary() // never fails
			in := noteInput(nt.Path, nt.Title, nt.Metadata)
			facts[i] = store.NoteFacts{DocID: nt.DocID, Data: data, Lower: f.MarshalLower(), Structure: structureOf(probe, in, f)}
			extracted[i] = f
		}); err != nil {
			return err
		}
		if err := s.PutNoteFacts(ctx, facts); err != nil {
			return err
		}
		for i, f := range extracted {
			d.add(sumsAll, notes[i].DocID, f, f.Lower, 1)
			if notes[i].Restricted {
				d.add(sumsDMOnly, notes[i].DocID, f, f.Lower, 1)
			}
		}
		if d.len() >= sumsFlush || len(ids) == 0 {
			if err := s.UpdateCompendiumSums(ctx, d.update()); err != nil {
				return err
			}
			d = newSumsDelta()
		}
	}
	return nil
}

// scopeUpdate is what storeCompendium does for one scope.
type scopeUpdate struct {
	scope   string
	matcher *compendium.Matcher
	ids     []int64
	// changed finds the names and aliases added or dropped since the
	// stored compendium (nil: none): a chunk where none occurs keeps its
	// mentions.
	changed    *lazyMatcher
	changedKey string // the names changed.Find looks for
	// fresh: the scope held no entity, so no chunk holds mentions.
	fresh bool
}

// playersSharer is a compendium writer that can store the players'
// compendium, when it is the DM's, as the DM's rows only (share), or
// apart again (see index's compendiumWriter.SharePlayers). A writer
// that cannot stores both scopes each time.
type playersSharer interface {
	SharePlayers(ctx context.Context, share bool) error
}

// scopesToStore returns the scopes whose rows w must store: both, or
// only the DM's when the players' is the same and w can share it.
func scopesToStore(ctx context.Context, w store.CompendiumWriter, same bool) ([]string, error) {
	scopes := []string{store.ScopeDM, store.ScopePlayer}
	sh, ok := w.(playersSharer)
	if !ok {
		return scopes, nil
	}
	if err := sh.SharePlayers(ctx, same); err != nil {
		return nil, err
	}
	if same {
		scopes = scopes[:1]
	}
	return scopes, nil
}

// setScopes stores the entities of each scope and returns what is left
// to do for it: the chunks whose mentions to find, and how.
func setScopes(ctx context.Context, w store.CompendiumWriter, scopes []string, ents [2][]compendium.Entity, same bool) ([]*scopeUpdate, error) {
	ups := make([]*scopeUpdate, len(scopes))
	for i, scope := range scopes {
		old, err := w.Entities(ctx, scope)
		if err != nil {
			return nil, err
		}
		recs := make([]store.Entity, len(ents[i]))
		for j, en := range ents[i] {
			recs[j] = store.Entity{Name: en.Name, Kind: string(en.Kind), Aliases: en.Aliases, Note: en.Note, Source: en.Source}
		}
		u := &scopeUpdate{scope: scope, fresh: len(old) == 0}
		u.changed, u.changedKey = changedNames(old, recs)
		if i == 1 && ups[0].changed != nil && u.changedKey == ups[0].changedKey {
			u.changed = ups[0].changed // the same names changed: look once
		}
		if i == 1 && same {
			u.matcher = ups[0].matcher
		} else {
			u.matcher = compendium.NewMatcher(ents[i])
		}
		if u.ids, err = w.SetEntities(ctx, scope, recs); err != nil {
			return nil, err
		}
		ups[i] = u
	}
	return ups, nil
}

// storeCompendium stores both scopes' entities (same: the players' are
// the DM's, and a writer that can stores them once) and finds their
// mentions where they may have changed.
func storeCompendium(ctx context.Context, w store.CompendiumWriter, ents [2][]compendium.Entity, same bool, sig string) error {
	scopes, err := scopesToStore(ctx, w, same)
	if err != nil {
		return err
	}
	ups, err := setScopes(ctx, w, scopes, ents, same)
	if err != nil {
		return err
	}
	// Only the pending chunks, unless a name changed.
	pendingOnly := true
	for _, u := range ups {
		pendingOnly = pendingOnly && u.changed == nil
	}
	for after := int64(0); ; {
		chunks, err := w.Chunks(ctx, after, chunkBatch, pendingOnly)
		if err != nil {
			return err
		}
		if len(chunks) == 0 {
			break
		}
		after = chunks[len(chunks)-1].ID
		var dmFound map[int64]map[int]int // chunk → entity → count, for the players'
		var need []bool
		for i, u := range ups {
			if err := ctx.Err(); err != nil {
				return err
			}
			if i == 0 || u.changed != ups[0].changed {
				need = make([]bool, len(chunks))
				if err := parallel(ctx, len(chunks), func(j int) {
					c := &chunks[j]
					need[j] = c.Pending || u.changed != nil && len(u.changed.get().Find(c.Text)) > 0
				}); err != nil {
					return err
				}
			}
			var redo []store.ChunkText
			for j, c := range chunks {
				if need[j] && !(i == 1 && c.Restricted && u.fresh) {
					redo = append(redo, c)
				}
			}
			if !u.fresh && len(redo) > 0 {
				ids := make([]int64, len(redo))
				for j, c := range redo {
					ids[j] = c.ID
				}
				if err := w.ClearMentions(ctx, u.scope, ids); err != nil {
					return err
				}
			}
			counts := make([]map[int]int, len(redo))
			if err := parallel(ctx, len(redo), func(j int) {
				c := &redo[j]
				switch {
				case i == 1 && c.Restricted:
					// Players see nothing of a DM-only note.
				case i == 1 && same && dmFound[c.ID] != nil:
					counts[j] = dmFound[c.ID]
				default:
					counts[j] = map[int]int{}
					for _, mt := range u.matcher.Find(c.Text) {
						counts[j][mt.Entity]++
					}
				}
			}); err != nil {
				return err
			}
			found := make(map[int64]map[int]int, len(redo))
			for j, c := range redo {
				if counts[j] == nil {
					continue
				}
				found[c.ID] = counts[j]
				if err := ctx.Err(); err != nil {
					return err
				}
				for _, e := range slices.Sorted(maps.Keys(counts[j])) {
					if err := w.AddMention(ctx, u.ids[e], c.ID, counts[j][e]); err != nil {
						return err
					}
				}
			}
			dmFound = found
		}
	}
	return w.Finish(ctx, compendiumSigKey, sig)
}

// parallel calls fn(0) ... fn(n-1) on as many goroutines as there are
// processors and returns when all have returned. Once ctx ends no further
// call starts, and parallel returns ctx's error: a cancelled ingest waits
// for the calls under way only (a note or a chunk each), not for the
// batch.
func parallel(ctx context.Context, n int, fn func(i int)) error {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			fn(i)
		}
		return ctx.Err()
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n && ctx.Err() == nil; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}

// lazyMatcher is a matcher of names built when first used: a first
// ingest, where every chunk is new, never uses the one of every name.
type lazyMatcher struct {
	names []string
	once  sync.Once
	m     *compendium.Matcher
}

// get returns the matcher, building it on the first call. It is safe for
// concurrent use.
func (l *lazyMatcher) get() *compendium.Matcher {
	l.once.Do(func() {
		ents := make([]compendium.Entity, len(l.names))
		for i, n := range l.names {
			ents[i] = compendium.Entity{Name: n, Kind: compendium.KindOther}
		}
		l.m = compendium.NewMatcher(ents)
	})
	return l.m
}

// changedNames returns a matcher of the names and aliases that name an
// entity in one of old and recs and not in the other (or name another
// entity, or as a name rather than an alias), or nil when there is none:
// the mentions of a chunk in which none of them occurs are the same under
// either compendium. key lists those names.
func changedNames(old, recs []store.Entity) (m *lazyMatcher, key string) {
	set := func(ents []store.Entity) map[[3]string]bool {
		m := map[[3]string]bool{}
		for _, e := range ents {
			m[[3]string{e.Name, "name", e.Name}] = true
			for _, a := range e.Aliases {
				m[[3]string{a, "alias", e.Name}] = true
			}
		}
		return m
	}
	a, b := set(old), set(recs)
	names := map[string]bool{}
	for k := range a {
		if !b[k] {
			names[k[0]] = true
		}
	}
	for k := range b {
		if !a[k] {
			names[k[0]] = true
		}
	}
	if len(names) == 0 {
		return nil, ""
	}
	sorted := slices.Sorted(maps.Keys(names))
	return &lazyMatcher{names: sorted}, strings.Join(sorted, "\x00")
}

// readCompendiumFiles reads the compendium files of every folder in the
// index, not only this run's, into one; those that cannot be read or
// parsed go to res.Unread.
func readCompendiumFiles(roots []string, res *CompendiumResult) *compendium.File {
	seen := map[string]bool{}
	var all []string
	for _, r := range roots {
		if !seen[r] {
			seen[r] = true
			all = append(all, r)
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

// noteInput is a note as the compendium builder reads it, without its
// text.
func noteInput(path, title string, metadata []byte) compendium.NoteInput {
	var meta struct {
		Aliases any `json:"aliases"`
		Tags    any `json:"tags"`
	}
	_ = json.Unmarshal(metadata, &meta) // metadata was validated at ingest
	return compendium.NoteInput{Path: path, Title: title, Aliases: stringsOf(meta.Aliases), Tags: stringsOf(meta.Tags)}
}

// compendiumSignature names what the compendium is built from besides the
// notes: the compendium files of every ingested folder and the settings.
// (Which notes are DM-only is kept with each note's facts.)
func compendiumSignature(ctx context.Context, s CompendiumStore, opts CompendiumOptions) (string, error) {
	all, err := s.Roots(ctx)
	if err != nil {
		return "", err
	}
	all = append(all, opts.Roots...)
	sort.Strings(all)
	h := sha256.New()
	fmt.Fprintf(h, "compendium-v2 %s\n", opts.Stamp)
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
