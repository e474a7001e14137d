package story

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/text"
)

// The kinds of contradiction the continuity check finds.
const (
	// KindGoneThenActs is an entity said to die, leave for good or be
	// destroyed in one session and shown acting in a later one.
	KindGoneThenActs = "gone_then_acts"
	// KindField is an entity given two values of one front-matter field
	// by two notes.
	KindField = "field"
)

// The verdicts on a contradiction.
const (
	VerdictContradiction = "contradiction"
	VerdictConsistent    = "consistent"
	// VerdictUnjudged: no chat model judged it (none, or it misbehaved).
	VerdictUnjudged = "unjudged"
)

// Contradiction is a pair of statements of the notes that may contradict
// each other, each cited, with a chat model's verdict when one judged it.
// Its JSON shape is public.
type Contradiction struct {
	Kind   string `json:"kind"`
	Entity string `json:"entity"`
	// Field is the front-matter field of a KindField pair.
	Field string `json:"field,omitempty"`
	// First is the earlier statement (the death, the first note), Second
	// the later one.
	First   Moment `json:"first"`
	Second  Moment `json:"second"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`

	// key is what the verdict is cached by: both statements' hashes.
	key string
}

// Continuity is the continuity check's result: the pairs in entity order,
// and what went wrong judging them (never a failure of the check).
type Continuity struct {
	Contradictions []Contradiction `json:"contradictions"`
	Warnings       []string        `json:"warnings,omitempty"`
}

// CheckSource is what the continuity check reads: the chunks, the
// compendium of a scope, the notes' front matter, and the settings its
// verdicts are cached in.
type CheckSource interface {
	store.Settings
	// ListChunks returns every chunk in document order.
	ListChunks(ctx context.Context, prefixes []string) ([]store.Chunk, error)
	// Entities returns the compendium of a scope.
	Entities(ctx context.Context, scope string) ([]store.Entity, error)
	// NoteSources returns every note reassembled from its chunks.
	NoteSources(ctx context.Context) ([]store.NoteSource, error)
}

// Check finds the notes' contradictions (see [Contradiction]), judged by
// model when it is not nil. When public, only what players may see is
// read: the players' compendium and the notes they may see, every chunk
// checked again after reading.
func Check(ctx context.Context, src CheckSource, model chat.Model, public bool) (Continuity, error) {
	scope := store.ScopeDM
	if public {
		scope = store.ScopePlayer
	}
	ents, err := src.Entities(ctx, scope)
	if err != nil {
		return Continuity{}, fmt.Errorf("reading the compendium: %w", err)
	}
	all, err := src.ListChunks(ctx, nil)
	if err != nil {
		return Continuity{}, fmt.Errorf("listing the chunks: %w", err)
	}
	chunks := all[:0:0]
	for _, c := range all {
		if !public || !c.Restricted {
			chunks = append(chunks, c)
		}
	}
	out := Continuity{Contradictions: goneThenActs(chunks, ents)}
	notes, err := src.NoteSources(ctx)
	if err != nil {
		return Continuity{}, fmt.Errorf("reading the notes' front matter: %w", err)
	}
	out.Contradictions = append(out.Contradictions, fieldConflicts(notes, chunks, ents, public)...)
	sort.SliceStable(out.Contradictions, func(i, j int) bool {
		return compendium.Normalize(out.Contradictions[i].Entity) < compendium.Normalize(out.Contradictions[j].Entity)
	})
	out.Warnings = judgeAll(ctx, src, model, out.Contradictions)
	return out, nil
}

// said is one sentence of a session's chunk and the entities it names as
// a gone or an acting subject.
type said struct {
	chunk   *store.Chunk
	text    string
	session int
}

// goneThenActs pairs, for each entity, a sentence saying it is gone with
// each later session's first sentence showing it acting (the latest
// such statement before that session).
func goneThenActs(chunks []store.Chunk, ents []store.Entity) []Contradiction {
	ce := make([]compendium.Entity, len(ents))
	for i, e := range ents {
		ce[i] = compendium.Entity{Name: e.Name, Kind: compendium.Kind(e.Kind), Aliases: e.Aliases}
	}
	m := compendium.NewMatcher(ce)
	gone := map[int][]said{}
	acts := map[int][]said{}
	for i := range chunks {
		c := &chunks[i]
		if !c.InSession {
			continue
		}
		for _, sent := range chunkSentences(c.Text) {
			s := newSentence(sent)
			for _, mn := range m.Find(sent) {
				from, to := s.words(mn.Start, mn.End)
				kind, proper := ents[mn.Entity].Kind, properName(sent[mn.Start:mn.End])
				st := said{chunk: c, text: sent, session: c.Session}
				switch {
				case (proper || kind == string(compendium.KindNPC) || kind == string(compendium.KindPC)) && goneIn(s, from, to, kind):
					gone[mn.Entity] = append(gone[mn.Entity], st)
				case proper && actsIn(s, from, to) && !backReference(s, c.Session):
					acts[mn.Entity] = append(acts[mn.Entity], st)
				}
			}
		}
	}
	var out []Contradiction
	for e := range ents {
		out = append(out, pairs(ents[e].Name, gone[e], acts[e])...)
	}
	return out
}

// pairs is one contradiction per later session in which the entity acts:
// its first act there against the latest statement of its end before.
func pairs(entity string, gone, acts []said) []Contradiction {
	if len(gone) == 0 || len(acts) == 0 {
		return nil
	}
	sort.SliceStable(gone, func(i, j int) bool { return gone[i].session < gone[j].session })
	sort.SliceStable(acts, func(i, j int) bool { return acts[i].session < acts[j].session })
	var out []Contradiction
	seen := map[int]bool{}
	for _, a := range acts {
		if seen[a.session] {
			continue
		}
		var last *said
		for k := range gone {
			if gone[k].session < a.session {
				last = &gone[k]
			}
		}
		if last == nil {
			continue
		}
		seen[a.session] = true
		out = append(out, Contradiction{Kind: KindGoneThenActs, Entity: entity,
			First:   Moment{Text: last.text, Cite: CiteOf(*last.chunk)},
			Second:  Moment{Text: a.text, Cite: CiteOf(*a.chunk)},
			Verdict: VerdictUnjudged, key: last.chunk.Hash + " " + a.chunk.Hash})
	}
	return out
}

// backReference reports a sentence that names an earlier session ("en la
// sesión 12", "in session 3"): it tells of the past, not of the present.
func backReference(s sentence, session int) bool {
	for i := 0; i+1 < len(s.fold); i++ {
		if w := s.fold[i]; w != "sesion" && w != "session" && w != "sesiones" && w != "sessions" {
			continue
		}
		var n int
		if _, err := fmt.Sscan(s.fold[i+1], &n); err == nil && n < session {
			return true
		}
	}
	return false
}

// chunkSentences cuts a chunk's text, rendered as a reader sees it, into
// sentences: paragraph by paragraph, each list item and quote line on its
// own, headings and front matter left out.
func chunkSentences(md string) []string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, text.Sentences(strings.Join(para, " "), nil)...)
			para = para[:0]
		}
	}
	for _, line := range strings.Split(text.Render(md), "\n") {
		t := strings.TrimSpace(line)
		if lv, _ := text.ATXHeading(t); lv > 0 || t == "" || t == "---" {
			flush()
			continue
		}
		if rest, ok := text.CutListMarker(t); ok {
			flush()
			t = rest
		} else if rest, ok := text.CutQuoteMarker(t); ok {
			flush()
			t = rest
		}
		para = append(para, t)
	}
	flush()
	return out
}

// properName reports whether a mention names its entity by a capitalised
// word other than an article or a title ("Breto", "la Dama Velada"), not
// by a common noun ("el viejo", "la ciudad"), which names others as often:
// a person said to die by such an alias ("el archiduque ha muerto") still
// counts, never one said to act.
func properName(surface string) bool {
	for a, b := range text.Words(surface) {
		w := surface[a:b]
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) && !titles[text.Fold(w)] {
			return true
		}
	}
	return false
}
