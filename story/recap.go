package story

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/text"
)

// ErrNoSession is returned for a session the asker's notes do not hold
// (or, for a player, hold only in DM-only notes).
var ErrNoSession = errors.New("no such session")

// SessionSource is the store's roles a session is read from.
type SessionSource interface {
	// Sessions returns the session numbers held, ascending; public, only
	// those of notes players may see.
	Sessions(ctx context.Context, public bool) ([]int, error)
	FilterChunks(ctx context.Context, f store.Filter) (map[int64]bool, error)
	Chunks(ctx context.Context, ids []int64) ([]store.Chunk, error)
}

// Namer tells which entities of the compendium a text names
// ([github.com/oraculo/oraculo/compendium.State] is one).
type Namer interface {
	Named(text string) []string
}

// Audience is who a story is told to. A player's (Public) is told only
// from the notes players may see, with its entities named from the
// players' compendium, and with what a chunk links to that players may
// not see written as plain text (Redact).
type Audience struct {
	Public bool
	// Names names the compendium's entities in a text; nil names none.
	Names Namer
	// Entities are the compendium's entities (the players' for a
	// player), what threads follow.
	Entities []store.Entity
	// Redact rewrites a text of the notes for the audience; nil leaves
	// it as stored.
	Redact func(string) string
}

// view is c as the audience reads it: its text, label and headings
// redacted.
func (a Audience) view(c store.Chunk) store.Chunk {
	if a.Redact == nil {
		return c
	}
	c.Text, c.Label = a.Redact(c.Text), a.Redact(c.Label)
	hs := make([]string, len(c.Headings))
	for i, h := range c.Headings {
		hs[i] = a.Redact(h)
	}
	c.Headings = hs
	return c
}

// named is how many entities s names for the audience.
func (a Audience) named(s string) int {
	if a.Names == nil {
		return 0
	}
	return len(a.Names.Named(s))
}

// Recap is one session told in short: its events in the notes' order
// (its most salient sentences) and what was left open in it. Its JSON
// shape is public.
type Recap struct {
	Session int `json:"session"`
	// Date is the in-game date the session's notes open with, if any.
	Date  string   `json:"date,omitempty"`
	Files []string `json:"files"`
	// Events are the session's most salient sentences, in order: those
	// naming the compendium's entities and what happened, never an
	// attendance list or a remark about the table ([OutOfGame]).
	Events []Moment `json:"events"`
	// Open is what the session left open: unchecked tasks, questions
	// left unanswered, things said to be pending, a cliffhanger.
	Open []Moment `json:"open"`
	// ChunkIDs are the session's chunks (store row ids), in order: what a
	// model telling the session reads.
	ChunkIDs []int64 `json:"-"`
}

// SessionChunks returns the chunks of session n the asker may see (a
// player, public, only those of notes players may see), in order: by
// note, then by place in the note. n = 0 means the last session the asker
// may see; the session read is returned. A session the asker's notes do
// not hold is [ErrNoSession].
func SessionChunks(ctx context.Context, src SessionSource, n int, public bool) (int, []store.Chunk, error) {
	if n <= 0 {
		held, err := src.Sessions(ctx, public)
		if err != nil {
			return 0, nil, fmt.Errorf("listing the sessions: %w", err)
		}
		if len(held) == 0 {
			return 0, nil, ErrNoSession
		}
		n = held[len(held)-1]
	}
	ok, err := src.FilterChunks(ctx, store.Filter{Sessions: []int{n}})
	if err != nil {
		return 0, nil, fmt.Errorf("finding the chunks of session %d: %w", n, err)
	}
	ids := make([]int64, 0, len(ok))
	for id, in := range ok {
		if in {
			ids = append(ids, id)
		}
	}
	chunks, err := src.Chunks(ctx, ids)
	if err != nil {
		return 0, nil, fmt.Errorf("reading the chunks of session %d: %w", n, err)
	}
	chunks = slices.DeleteFunc(chunks, func(c store.Chunk) bool {
		return (public && c.Restricted) || !c.InSession || c.Session != n
	})
	if len(chunks) == 0 {
		return 0, nil, fmt.Errorf("session %d: %w", n, ErrNoSession)
	}
	slices.SortFunc(chunks, func(a, b store.Chunk) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Ordinal, b.Ordinal))
	})
	return n, chunks, nil
}

// RecapSession is the recap of session n (0: the last one the audience
// may see) for the audience.
func RecapSession(ctx context.Context, src SessionSource, a Audience, n int) (Recap, error) {
	n, chunks, err := SessionChunks(ctx, src, n, a.Public)
	if err != nil {
		return Recap{}, err
	}
	return RecapOf(n, chunks, a), nil
}

// RecapOf is the recap of session n from its chunks, in order (as
// [SessionChunks] gives them), for the audience (whose Public the chunks
// must already respect).
func RecapOf(n int, chunks []store.Chunk, a Audience) Recap {
	r := Recap{Session: n, Files: []string{}, Events: []Moment{}, Open: []Moment{}}
	var all []candidate
	words := 0
	seen := map[string]bool{} // chunks may overlap
	for _, c := range chunks {
		c = a.view(c)
		r.ChunkIDs = append(r.ChunkIDs, c.ID)
		if !slices.Contains(r.Files, c.Path) {
			r.Files = append(r.Files, c.Path)
		}
		words += c.Words()
		for _, l := range lines(c.Text) {
			if l.heading || !seen[l.text] {
				seen[l.text] = true
				all = append(all, candidate{line: l, chunk: c})
			}
		}
	}
	r.Date = recapDate(all)
	open := openMoments(all)
	for _, o := range open {
		r.Open = append(r.Open, o.moment())
	}
	for _, e := range salient(all, open, eventCap(words), a) {
		r.Events = append(r.Events, e.moment())
	}
	return r
}

// candidate is one sentence of a session, with its chunk.
type candidate struct {
	line
	chunk store.Chunk
	score int
}

func (c candidate) moment() Moment { return Moment{Text: c.text, Cite: CiteOf(c.chunk)} }

// eventCap is how many events a recap of a session of so many words
// gives: 4 for a short one, one more per 80 words, 12 at most.
func eventCap(words int) int {
	return min(max(2+words/80, 4), 12)
}

// salient picks at most k sentences of the story, not among open, the
// most salient of each of k stretches of the session, so that the recap
// runs from its start to its end; returned in order.
func salient(all, open []candidate, k int, a Audience) []candidate {
	var eligible []candidate
	for _, c := range all {
		if c.heading || c.task != notTask || OutOfGame(c.text) || len(strings.Fields(c.text)) < 5 {
			continue
		}
		if slices.ContainsFunc(open, func(o candidate) bool { return o.text == c.text }) {
			continue
		}
		if c.score = salience(c.text, a); c.score > 0 {
			eligible = append(eligible, c)
		}
	}
	if len(eligible) <= k {
		return eligible
	}
	out := make([]candidate, 0, k)
	for i := range k {
		part := eligible[i*len(eligible)/k : (i+1)*len(eligible)/k]
		best := part[0]
		for _, c := range part[1:] {
			if c.score > best.score {
				best = c
			}
		}
		out = append(out, best)
	}
	return out
}

// eventCues are folded word starts of what happens in a story: deaths,
// fights, findings, arrivals, revelations, betrayals, in Spanish and
// English.
var eventCues = regexp.MustCompile(`\b(?:muer|muri|mata|mato|asesin|cae |cayo|huy|escap|encuentr|descubr|revel|aparec|desaparec|llega|ataca|pelea|lucha|combate|roba|rob[oó]|rescat|salva|traicion|captur|secuestr|jura|promet|entreg|abre|abri[oó]|destru|quema|confies|paga|died|dies|kill|slain|flee|fled|escape|found|find|discover|reveal|arriv|attack|fight|fought|steal|stole|rescue|betray|captur|swor|promis|open)`)

// salience scores a sentence of the story: the entities it names count
// most, then emphasised names or things (**…**) and words of events. A
// sentence naming nothing and telling no event scores 0.
func salience(s string, a Audience) int {
	score := 2 * min(a.named(s), 3)
	score += min(strings.Count(s, "**")/2, 2)
	if eventCues.MatchString(text.Fold(s)) {
		score++
	}
	if len(strings.Fields(s)) > 60 {
		score--
	}
	return max(score, 0)
}

// openMarks are folded phrases that say something is left open, wherever
// in a session they are.
var openMarks = []string{
	"pendiente", "queda por", "quedan por", "sin resolver", "lo dejamos abierto", "queda abierto",
	"sigue abierto", "unresolved", "left open", "remains to be", "next time", "still pending",
}

// doubtCues are folded phrases of doubt: open when they come late in a
// session (earlier, the session itself may settle them).
var doubtCues = []string{
	"no sabemos", "nadie sabe", "todavia no sab", "aun no sab", "sigue sin", "siguen sin",
	"no sabe si", "no saben si", "no sabe quien", "no sabe por que",
	"we don't know", "we do not know", "nobody knows", "still unknown", "still don't know",
}

// cliffhangerCues are folded phrases of a note saying its session ended
// on a cliffhanger.
var cliffhangerCues = []string{"cliffhanger", "continuara", "to be continued"}

// openMoments returns what a session left open, in order: its unchecked
// tasks, its sentences that say something is pending, those of its
// second half that ask without answering or doubt, and, when the notes speak of a cliffhanger or the session ends
// on a question or a trailing ellipsis, its last sentence of the story.
func openMoments(all []candidate) []candidate {
	var out []candidate
	cliff := false
	last := -1
	for i, c := range all {
		late := 2*i >= len(all)
		f := text.Fold(c.text)
		cliff = cliff || containsAny(f, cliffhangerCues)
		if c.heading || c.task == taskDone {
			continue
		}
		if c.task == taskOpen {
			out = append(out, c)
			continue
		}
		if OutOfGame(c.text) {
			continue
		}
		last = i
		if containsAny(f, openMarks) || (late && (containsAny(f, doubtCues) || asksOpenly(c.text))) {
			out = append(out, c)
		}
	}
	if last >= 0 && !slices.ContainsFunc(out, func(o candidate) bool { return o.text == all[last].text }) {
		end := strings.TrimRight(all[last].text, `"'»”*_) `)
		if cliff || strings.HasSuffix(end, "?") || strings.HasSuffix(end, "…") || strings.HasSuffix(end, "...") {
			out = append(out, all[last])
		}
	}
	if len(out) > 8 {
		out = out[:8]
	}
	return out
}

// asksOpenly reports a sentence that is a question the notes ask, not a
// line of dialogue: it holds a question mark outside quotes and does not
// open with a dash or a quote.
func asksOpenly(s string) bool {
	if strings.HasPrefix(s, "—") || strings.HasPrefix(s, "-") || strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "«") || strings.HasPrefix(s, "“") {
		return false
	}
	quoted := false
	for _, r := range s {
		switch r {
		case '"', '«', '»', '“', '”':
			quoted = !quoted
		case '?':
			if !quoted {
				return true
			}
		}
	}
	return false
}

func containsAny(s string, phrases []string) bool {
	for _, p := range phrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// dateRe finds an in-game date: "3 de Brumal del 1347", "Del 12 al 16 de
// Floral", "20 de Lluvial", "March 3, 1347", "3rd of Deepwinter".
var dateRe = regexp.MustCompile(`(?:[Dd]el )?\b\d{1,2}(?: al \d{1,2})? de \p{Lu}\p{L}+(?: del? \d{3,4})?|\b\d{1,2}(?:st|nd|rd|th)? of \p{Lu}\p{L}+(?:,? \d{3,4})?|\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}(?:, \d{3,4})?`)

// recapDate is the in-game date among the first sentences of a
// session's notes, or "".
func recapDate(all []candidate) string {
	seen := 0
	for _, c := range all {
		if c.heading {
			continue
		}
		if d := dateRe.FindString(c.text); d != "" {
			return d
		}
		if seen++; seen == 3 {
			break
		}
	}
	return ""
}
