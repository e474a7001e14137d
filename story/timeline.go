package story

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/store"
)

// GapSessions is the fewest sessions held in a row without the entity
// that a timeline lists as a gap: one or two sessions away is the usual
// coming and going of a campaign, three is a disappearance worth seeing.
const GapSessions = 3

// ErrUnknownEntity is the error (wrapped, see [UnknownEntityError]) of a
// timeline asked for a name that no entity of the asker's compendium has.
var ErrUnknownEntity = errors.New("no entity of the compendium has that name")

// UnknownEntityError is the error of a timeline of a name no entity has,
// with the names nearest to it, if any; errors.Is(err, ErrUnknownEntity).
type UnknownEntityError struct {
	Name string
	// Near are the entities' names nearest to Name, best first.
	Near []string
}

func (e *UnknownEntityError) Error() string {
	return fmt.Sprintf("%v: %q", ErrUnknownEntity, e.Name)
}

// Unwrap returns [ErrUnknownEntity].
func (e *UnknownEntityError) Unwrap() error { return ErrUnknownEntity }

// TimelineSource is the store's roles a timeline is read from.
type TimelineSource interface {
	// Entities returns the compendium of a scope; the players' is empty
	// while it is stale.
	Entities(ctx context.Context, scope string) ([]store.Entity, error)
	// ListChunks returns every chunk in document order (prefixes nil).
	ListChunks(ctx context.Context, prefixes []string) ([]store.Chunk, error)
	// Sessions returns the session numbers held, ascending; public counts
	// only those of notes players may see.
	Sessions(ctx context.Context, public bool) ([]int, error)
}

// Timeline is an entity's story in the notes: every session whose text
// names it (its name or an alias), in session order, with its most
// informative sentence there; its first and last appearance, the gaps
// between, and the notes outside any session that name it. Its JSON shape
// is public.
type Timeline struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Aliases []string `json:"aliases"`
	// Note is the path of the note about the entity, "" if none (or if the
	// asker may not see it).
	Note         string          `json:"note"`
	FirstSession *int            `json:"first_session"`
	LastSession  *int            `json:"last_session"`
	Sessions     []TimelineEntry `json:"sessions"`
	Gaps         []Gap           `json:"gaps"`
	// Notes are the notes outside any session that name the entity, its
	// own note first, then by how often they name it: each its best
	// sentence about it.
	Notes []Moment `json:"notes"`
}

// TimelineEntry is one session of a timeline: its most informative
// sentence about the entity, cited.
type TimelineEntry struct {
	Moment
	// Date is the session's in-game date, when its notes open with one
	// ("3 de Brumal del 1347").
	Date string `json:"date,omitempty"`
	// Mentions is how many chunks of the session name the entity.
	Mentions int `json:"mentions"`
	// AbsentBefore is how many sessions held (that the asker may see)
	// lie strictly between the previous entry's session and this one; 0
	// for the first entry.
	AbsentBefore int `json:"absent_before"`
	// ChunkID is the store's id of the chunk cited, Chunks the ids of
	// every chunk of the session that names the entity, in the notes'
	// order: what a model is shown to tell the story.
	ChunkID int64   `json:"-"`
	Chunks  []int64 `json:"-"`
}

// Gap is a stretch of at least [GapSessions] sessions held without the
// entity, between the sessions After and Before where it appears.
type Gap struct {
	After  int `json:"after"`
	Before int `json:"before"`
	Absent int `json:"absent"`
}

// BuildTimeline is the timeline of the entity of the asker's compendium
// (the players' when public) whose name or an alias is name, case and
// accents ignored; an [UnknownEntityError] when none is. redact (nil: none)
// is what a note's text becomes for the asker (a player's hides the links
// to notes they may not see).
func BuildTimeline(ctx context.Context, src TimelineSource, name string, public bool, redact func(string) string) (Timeline, error) {
	scope := store.ScopeDM
	if public {
		scope = store.ScopePlayer
	}
	ents, err := src.Entities(ctx, scope)
	if err != nil {
		return Timeline{}, err
	}
	e, ok := findEntity(ents, name)
	if !ok {
		return Timeline{}, &UnknownEntityError{Name: name, Near: nearNames(ents, name)}
	}
	return TimelineOf(ctx, src, e, public, redact)
}

// findEntity is the entity whose name is name, else the first whose alias
// is, compared as [compendium.Normalize] compares names.
func findEntity(ents []store.Entity, name string) (store.Entity, bool) {
	want := compendium.Normalize(name)
	if want == "" {
		return store.Entity{}, false
	}
	for _, e := range ents {
		if compendium.Normalize(e.Name) == want {
			return e, true
		}
	}
	for _, e := range ents {
		for _, a := range e.Aliases {
			if compendium.Normalize(a) == want {
				return e, true
			}
		}
	}
	return store.Entity{}, false
}

// TimelineOf is the timeline of e, an entity of the asker's compendium
// already found: the sessions whose chunks the asker may see (none of a
// DM-only note when public) name it, each entry with the ids of those
// chunks in order (see [TimelineEntry.Chunks]). redact is as for
// [BuildTimeline].
func TimelineOf(ctx context.Context, src TimelineSource, e store.Entity, public bool, redact func(string) string) (Timeline, error) {
	chunks, err := src.ListChunks(ctx, nil)
	if err != nil {
		return Timeline{}, fmt.Errorf("reading the notes for the timeline of %q: %w", e.Name, err)
	}
	held, err := src.Sessions(ctx, public)
	if err != nil {
		return Timeline{}, fmt.Errorf("reading the sessions for the timeline of %q: %w", e.Name, err)
	}
	r := read(chunks, newNaming(e), public, redact)
	t := Timeline{Name: e.Name, Kind: e.Kind, Aliases: e.Aliases, Sessions: []TimelineEntry{}, Gaps: []Gap{}}
	if t.Aliases == nil {
		t.Aliases = []string{}
	}
	if r.paths[e.Note] {
		t.Note = e.Note
	}
	t.Sessions = r.entries()
	t.Gaps = absences(t.Sessions, held)
	if n := len(t.Sessions); n > 0 {
		first, last := *t.Sessions[0].Session, *t.Sessions[n-1].Session
		t.FirstSession, t.LastSession = &first, &last
	}
	t.Notes = r.notes(t.Note)
	return t, nil
}

// reading is the chunks an asker may see, read for one entity.
type reading struct {
	naming *naming
	// sessions holds, by session number, the session's chunks; named
	// those of them that name the entity.
	sessions map[int][]store.Chunk
	named    map[int][]store.Chunk
	// outside holds, by note, the chunks outside any session that name
	// the entity, and counts how often.
	outside      map[string][]store.Chunk
	outsideCount map[string]int
	// paths are the notes the asker may see.
	paths map[string]bool
}

// read goes through chunks (in document order) as an asker may see them:
// when public, without any of a DM-only note; each text redacted.
func read(chunks []store.Chunk, n *naming, public bool, redact func(string) string) *reading {
	r := &reading{naming: n, sessions: map[int][]store.Chunk{}, named: map[int][]store.Chunk{},
		outside: map[string][]store.Chunk{}, outsideCount: map[string]int{}, paths: map[string]bool{}}
	for _, c := range chunks {
		if public && c.Restricted {
			continue
		}
		if redact != nil {
			c.Text = redact(c.Text)
			c.Headings = redactAll(c.Headings, redact)
		}
		r.paths[c.Path] = true
		k := n.count(c.Text)
		switch {
		case c.InSession:
			r.sessions[c.Session] = append(r.sessions[c.Session], c)
			if k > 0 {
				r.named[c.Session] = append(r.named[c.Session], c)
			}
		case k > 0:
			r.outside[c.Path] = append(r.outside[c.Path], c)
			r.outsideCount[c.Path] += k
		}
	}
	return r
}

// redactAll is ss each redacted, in a new slice.
func redactAll(ss []string, redact func(string) string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = redact(s)
	}
	return out
}

// entries are the sessions that name the entity, in order, each with its
// best sentence, date and chunks.
func (r *reading) entries() []TimelineEntry {
	nums := make([]int, 0, len(r.named))
	for s := range r.named {
		nums = append(nums, s)
	}
	slices.Sort(nums)
	out := make([]TimelineEntry, 0, len(nums))
	for _, s := range nums {
		cs := r.named[s]
		m, id := r.naming.best(cs)
		en := TimelineEntry{Moment: m, ChunkID: id, Mentions: len(cs), Date: sessionDate(r.sessions[s])}
		for _, c := range cs {
			en.Chunks = append(en.Chunks, c.ID)
		}
		out = append(out, en)
	}
	return out
}

// absences sets each entry's AbsentBefore from the sessions held, and
// returns the gaps of at least GapSessions.
func absences(entries []TimelineEntry, held []int) []Gap {
	gaps := []Gap{}
	for i := 1; i < len(entries); i++ {
		after, before := *entries[i-1].Session, *entries[i].Session
		n := 0
		for _, s := range held {
			if s > after && s < before {
				n++
			}
		}
		entries[i].AbsentBefore = n
		if n >= GapSessions {
			gaps = append(gaps, Gap{After: after, Before: before, Absent: n})
		}
	}
	return gaps
}

// notes are the notes outside any session naming the entity: its own note
// (own, "" if none) first, then by how often they name it, then by path.
func (r *reading) notes(own string) []Moment {
	paths := make([]string, 0, len(r.outside))
	for p := range r.outside {
		paths = append(paths, p)
	}
	slices.SortFunc(paths, func(a, b string) int {
		if (a == own) != (b == own) {
			if a == own {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(r.outsideCount[b], r.outsideCount[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	out := make([]Moment, 0, len(paths))
	for _, p := range paths {
		m, _ := r.naming.best(r.outside[p])
		out = append(out, m)
	}
	return out
}
