package story

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/text"
)

// quietKinds are the kinds of entity that are no thread however long they
// are absent: the player characters, the gods.
var quietKinds = wordSet("pc", "god")

// quietEntities are the entities mentioned in two or more sessions and
// in none of the last quiet sessions held, each from its first mention in
// a session to its last. Only mentions in a sentence of the story count
// (not a player named in an attendance list); player characters, gods and
// the session notes' own titles are no threads.
func quietEntities(ctx context.Context, src ThreadSource, a Audience, held []int, quiet int, sessionNotes map[string]bool) ([]Thread, error) {
	if len(held) <= quiet || len(a.Entities) == 0 {
		return nil, nil
	}
	cut := held[len(held)-quiet] // the first of the last quiet sessions
	ids := make([]int64, 0, len(a.Entities))
	for _, e := range a.Entities {
		if !quietKinds[e.Kind] {
			ids = append(ids, e.ID)
		}
	}
	all, err := src.MentionsOf(ctx, ids, a.Public)
	if err != nil {
		return nil, fmt.Errorf("reading the compendium's mentions: %w", err)
	}
	var cands []store.Entity
	var read []int64
	for _, e := range a.Entities {
		if ms := inSession(all[e.ID]); !quietKinds[e.Kind] && !sessionNotes[e.Note] && len(ms) > 0 && ms[len(ms)-1].Session < cut && ms[0].Session != ms[len(ms)-1].Session {
			cands = append(cands, e)
			for _, m := range ms {
				read = append(read, m.ChunkID)
			}
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	byID, err := readVisible(ctx, src, a, read)
	if err != nil {
		return nil, err
	}
	var out []Thread
	told := toldLines{a: a, read: map[int64][]toldLine{}}
	for _, e := range cands {
		if t, ok := quietThread(&told, e, inSession(all[e.ID]), byID, held); ok {
			out = append(out, t)
		}
	}
	return out, nil
}

// quietThread is e's thread from its mentions in sessions, in order,
// those in a sentence of the story only; false when they are left in
// fewer than two sessions.
func quietThread(told *toldLines, e store.Entity, ms []store.Mention, byID map[int64]store.Chunk, held []int) (Thread, bool) {
	var moments []Moment
	var first store.Chunk
	sessions := map[int]bool{}
	for _, m := range ms {
		c, ok := byID[m.ChunkID]
		if !ok {
			continue
		}
		if mo, ok := told.naming(c, e); ok {
			if len(moments) == 0 {
				first = c
			}
			moments = append(moments, mo)
			sessions[m.Session] = true
		}
	}
	if len(sessions) < 2 {
		return Thread{}, false
	}
	return Thread{Kind: ThreadEntity, Title: e.Name, Introduced: moments[0], Last: moments[len(moments)-1],
		OpenSessions: openSince(first, held), Mentions: len(moments)}, true
}

// readVisible reads the chunks of ids the audience may see, as it reads
// them, by id.
func readVisible(ctx context.Context, src ThreadSource, a Audience, ids []int64) (map[int64]store.Chunk, error) {
	slices.Sort(ids)
	chunks, err := src.Chunks(ctx, slices.Compact(ids))
	if err != nil {
		return nil, fmt.Errorf("reading the mentions' passages: %w", err)
	}
	byID := map[int64]store.Chunk{}
	for _, c := range chunks {
		if !(a.Public && c.Restricted) {
			byID[c.ID] = a.view(c)
		}
	}
	return byID, nil
}

// inSession are the mentions within a session, in story order: by
// session, note, place in the note.
func inSession(ms []store.Mention) []store.Mention {
	out := slices.DeleteFunc(slices.Clone(ms), func(m store.Mention) bool { return !m.InSession })
	slices.SortFunc(out, func(x, y store.Mention) int {
		return cmp.Or(cmp.Compare(x.Session, y.Session), strings.Compare(x.Path, y.Path), cmp.Compare(x.Ordinal, y.Ordinal))
	})
	return out
}

// toldLines are the chunks' lines of the story (no heading, no aside
// about the table), each with the entities the audience's compendium
// finds in it and its folded words, read once per chunk however many
// entities it names.
type toldLines struct {
	a    Audience
	read map[int64][]toldLine
}

type toldLine struct {
	text   string
	named  []string
	folded string
}

// of returns c's lines of the story, reading them the first time.
func (t *toldLines) of(c store.Chunk) []toldLine {
	if ls, ok := t.read[c.ID]; ok {
		return ls
	}
	var ls []toldLine
	for _, l := range lines(c.Text) {
		if l.heading || OutOfGame(l.text) {
			continue
		}
		tl := toldLine{text: l.text, folded: " " + foldWords(l.text) + " "}
		if t.a.Names != nil {
			tl.named = t.a.Names.Named(l.text)
		}
		ls = append(ls, tl)
	}
	t.read[c.ID] = ls
	return ls
}

// naming is the first sentence of the story in c that names e (by the
// audience's compendium, else by its name or an alias), cited; false when
// none does (c names it only in a heading or an aside about the table).
func (t *toldLines) naming(c store.Chunk, e store.Entity) (Moment, bool) {
	names := append([]string{e.Name}, e.Aliases...)
	for _, l := range t.of(c) {
		if slices.Contains(l.named, e.Name) || foldedHolds(l.folded, names) {
			return Moment{Text: l.text, Cite: CiteOf(c)}, true
		}
	}
	return Moment{}, false
}

// foldedHolds reports whether f, words folded and joined by single spaces
// between spaces, holds one of names as whole words.
func foldedHolds(f string, names []string) bool {
	for _, n := range names {
		if w := foldWords(n); w != "" && strings.Contains(f, " "+w+" ") {
			return true
		}
	}
	return false
}

// foldWords is s folded, its words joined by single spaces.
func foldWords(s string) string {
	return strings.Join(strings.FieldsFunc(text.Fold(s), func(r rune) bool { return !text.IsWordRune(r) }), " ")
}
