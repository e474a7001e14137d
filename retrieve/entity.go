package retrieve

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/store"
)

// UbiquityShare is the share of units (sessions, and notes outside
// sessions) above which an entity counts as everywhere (a player
// character, say): the path then keeps only the chunks of its own note,
// so that it cannot flood the candidates. (Keeping its 40 or 8 chunks that mention it most was
// measured too, on the three dev sets: fused with BM25, Quijote Recall@8
// 0.82 and 0.92 against 0.95 without them, Recall@1 0.42 and 0.45 against
// 0.55; the sample moved by one question either way.)
const UbiquityShare = 0.5

// EntitySource is what the entity path reads: where entities are
// mentioned, and the chunks.
type EntitySource interface {
	store.MentionReader
	store.ChunkReader
}

// Entity is the path that follows the names a question mentions: when it
// names entities of the compendium (by name or alias), it returns the
// chunks that mention them, across all sessions.
//
// Order: a chunk's score is the sum, over the named entities it mentions,
// of the entity's weight times (1 + ln(mentions in the chunk)), plus the
// weight again when the chunk belongs to the entity's own note; the weight
// is ln(1 + units / units mentioning the entity), a unit being a session,
// or a note outside sessions, so that an entity seen everywhere counts for
// less. Ties go to the later session (recency), then to the smaller chunk
// id.
type Entity struct {
	Index    EntitySource
	Matcher  *compendium.Matcher
	Entities []store.Entity
	// Units is how many sessions the index holds, plus the notes outside
	// any session.
	Units int
	// Public follows mentions only into notes players may see now.
	Public bool
	// Allow, when not nil, holds the only chunks the path may follow
	// mentions into (a filter).
	Allow map[int64]bool
	// NamesOnly follows names, not common words: in a question that
	// writes capitals, an entity's own name matched only from a
	// lower-case word ("trabajador" for the note "Trabajador") is a
	// common word and is skipped, while an alias the notes give counts in
	// any case ("la bruja", "el enano" for "el Enano"). Set when the path reorders other paths'
	// candidates, where a common word's lift only displaces what they
	// found (juanbiancuzzo fa11); alone, the path keeps every match.
	NamesOnly bool
}

// Name implements [Path].
func (Entity) Name() string { return PathEntity }

// Retrieve implements [Path].
func (p Entity) Retrieve(ctx context.Context, question string, n int) ([]Result, error) {
	named := map[int]bool{}
	var ids []int64
	// The notes of the named entities, by id (not a map of every entity
	// of the compendium, built anew for each question: at 100k chunks,
	// 40% of the path's time).
	notes := map[int64]string{}
	cased := p.NamesOnly && writesCase(question)
	for _, m := range p.Matcher.Find(question) {
		if named[m.Entity] || m.Entity >= len(p.Entities) {
			continue
		}
		if cased && !asWritten(m.Surface, p.Entities[m.Entity]) {
			continue
		}
		named[m.Entity] = true
		e := p.Entities[m.Entity]
		ids = append(ids, e.ID)
		notes[e.ID] = e.Note
	}
	if len(ids) == 0 || n <= 0 {
		return nil, nil
	}
	mentions, err := p.Index.MentionsOf(ctx, ids, p.Public)
	if err != nil {
		return nil, fmt.Errorf("entity path: %w", err)
	}
	type scored struct {
		id        int64
		score     float64
		session   int
		inSession bool
		path      string
		ordinal   int
	}
	chunks := map[int64]*scored{}
	for _, eid := range ids {
		ms := mentions[eid]
		if p.Allow != nil {
			ms = slices.DeleteFunc(slices.Clone(ms), func(m store.Mention) bool { return !p.Allow[m.ChunkID] })
		}
		units := map[string]bool{}
		for _, m := range ms {
			if m.InSession {
				units[fmt.Sprint("s", m.Session)] = true
			} else {
				units["d"+m.Path] = true
			}
		}
		w := math.Log(1 + float64(max(1, p.Units))/float64(max(1, len(units))))
		ubiquitous := p.Units > 0 && float64(len(units)) > UbiquityShare*float64(p.Units)
		own := notes[eid]
		// The flooding guard: an entity most units name (don Quijote in
		// every chapter, the party's own characters) says nothing about
		// where the answer is, and its chunks would push the right ones
		// out; only its own note, which describes it, is kept.
		if ubiquitous {
			ms = slices.DeleteFunc(slices.Clone(ms), func(m store.Mention) bool { return own == "" || m.Path != own })
		}
		for _, m := range ms {
			s, ok := chunks[m.ChunkID]
			if !ok {
				s = &scored{id: m.ChunkID, session: m.Session, inSession: m.InSession, path: m.Path, ordinal: m.Ordinal}
				chunks[m.ChunkID] = s
			}
			s.score += w * (1 + math.Log(float64(m.Count)))
			if own != "" && m.Path == own {
				s.score += w
			}
		}
	}
	list := make([]*scored, 0, len(chunks))
	for _, s := range chunks {
		list = append(list, s)
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if a.inSession != b.inSession || a.session != b.session {
			return a.inSession && (!b.inSession || a.session > b.session)
		}
		// Then in note order: the same in every store, and after any
		// history of ingests (ids are a store's own).
		if a.path != b.path {
			return a.path < b.path
		}
		if a.ordinal != b.ordinal {
			return a.ordinal < b.ordinal
		}
		return a.id < b.id
	})
	if len(list) > n {
		list = list[:n]
	}
	order := make([]int64, len(list))
	scores := make([]float64, len(list))
	for i, s := range list {
		order[i], scores[i] = s.id, s.score
	}
	// The compendium's mentions may name a chunk an ingest has replaced
	// since they were read: it is gone, and left out.
	out, err := readResults(ctx, p.Index, order, scores, p.Public)
	if err != nil {
		return nil, fmt.Errorf("entity path: %w", err)
	}
	return out, nil
}

// writesCase reports whether the question's writer uses capitals (any
// upper-case letter): only then does a lower-case surface say a word
// is used as a common word rather than as a name.
func writesCase(question string) bool {
	return strings.ContainsFunc(question, unicode.IsUpper)
}

// capitalised reports whether s holds an upper-case letter.
func capitalised(s string) bool {
	return strings.ContainsFunc(s, unicode.IsUpper)
}

// asWritten reports whether surface names e as a name, not as a common
// word: it holds a capital, or it is one of the aliases the notes give
// the entity, whatever its case ("el enano" for "el Enano", "la bruja"):
// an alias is how the notes call it. The entity's own name matched from
// a lower-case word ("trabajador" for "Trabajador") is a common word.
func asWritten(surface string, e store.Entity) bool {
	if capitalised(surface) {
		return true
	}
	for _, n := range e.Aliases {
		if strings.Contains(" "+strings.ToLower(n)+" ", " "+surface+" ") {
			return true
		}
	}
	return false
}
