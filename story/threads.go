package story

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/oraculo/oraculo/store"
)

// DefaultQuiet is how many of the last sessions an entity must be absent
// from to be a thread left hanging.
const DefaultQuiet = 5

// Kinds of thread.
const (
	ThreadTask   = "task"   // an unchecked task, "- [ ] …"
	ThreadQuest  = "quest"  // a quest note or section without a resolution
	ThreadEntity = "entity" // an entity of several sessions, quiet lately
)

// Threads are the threads the notes left open, the longest open and
// most mentioned first. Its JSON shape is public.
type Threads struct {
	// QuietSessions is how many of the last sessions an entity was absent
	// from to be listed; LastSession the last session held (0: none).
	QuietSessions int      `json:"quiet_sessions"`
	LastSession   int      `json:"last_session"`
	Threads       []Thread `json:"threads"`
}

// Thread is one loose end: where it was introduced and last mentioned,
// how many sessions have been held since it was introduced, and how many
// passages mention it.
type Thread struct {
	Kind         string `json:"kind"`
	Title        string `json:"title"`
	Introduced   Moment `json:"introduced"`
	Last         Moment `json:"last"`
	OpenSessions int    `json:"open_sessions"`
	Mentions     int    `json:"mentions"`
}

// ThreadSource is the store's roles threads are read from.
type ThreadSource interface {
	SessionSource
	ListChunks(ctx context.Context, prefixes []string) ([]store.Chunk, error)
	MentionsOf(ctx context.Context, entityIDs []int64, public bool) (map[int64][]store.Mention, error)
	// EachNoteFacts gives each note's front matter (Metadata).
	EachNoteFacts(ctx context.Context, fn func(store.NoteFacts) error) error
}

// OpenThreads lists, for the audience, the notes' unchecked tasks, their
// quests without a resolution, and the entities mentioned in two or more
// sessions but in none of the last quiet ones (quiet <= 0: [DefaultQuiet]);
// ranked by how long each has been open and how often it came up. A
// player's threads come from the notes players may see and the players'
// compendium only.
func OpenThreads(ctx context.Context, src ThreadSource, a Audience, quiet int) (Threads, error) {
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	held, err := src.Sessions(ctx, a.Public)
	if err != nil {
		return Threads{}, fmt.Errorf("listing the sessions: %w", err)
	}
	out := Threads{QuietSessions: quiet, Threads: []Thread{}}
	if len(held) > 0 {
		out.LastSession = held[len(held)-1]
	}
	chunks, err := src.ListChunks(ctx, nil)
	if err != nil {
		return Threads{}, fmt.Errorf("reading the notes: %w", err)
	}
	chunks = slices.DeleteFunc(chunks, func(c store.Chunk) bool { return a.Public && c.Restricted })
	sessionNotes := map[string]bool{}
	for i, c := range chunks {
		chunks[i] = a.view(c)
		sessionNotes[c.Path] = sessionNotes[c.Path] || c.InSession
	}
	out.Threads = append(out.Threads, openTasks(chunks, held)...)
	quests, err := openQuests(ctx, src, a, chunks, held)
	if err != nil {
		return Threads{}, err
	}
	out.Threads = append(out.Threads, quests...)
	quietOnes, err := quietEntities(ctx, src, a, held, quiet, sessionNotes)
	if err != nil {
		return Threads{}, err
	}
	out.Threads = append(out.Threads, quietOnes...)
	rankThreads(out.Threads)
	return out, nil
}

// rankThreads sorts threads by how long each has been open, weighed by
// how often it came up; then tasks, quests, entities; then by title.
func rankThreads(ts []Thread) {
	weight := func(t Thread) float64 { return float64(t.OpenSessions) * (1 + math.Log(float64(max(t.Mentions, 1)))) }
	kind := map[string]int{ThreadTask: 0, ThreadQuest: 1, ThreadEntity: 2}
	slices.SortStableFunc(ts, func(x, y Thread) int {
		return cmp.Or(cmp.Compare(weight(y), weight(x)), cmp.Compare(kind[x.Kind], kind[y.Kind]), strings.Compare(x.Title, y.Title))
	})
}

// openSince counts the sessions held from session s on (s included): none
// for a passage outside every session.
func openSince(c store.Chunk, held []int) int {
	if !c.InSession {
		return 0
	}
	return len(held) - sortSearch(held, c.Session)
}

// sortSearch is the index of the first of held (ascending) >= s.
func sortSearch(held []int, s int) int {
	i, _ := slices.BinarySearch(held, s)
	return i
}

// openTasks are the unchecked tasks of the chunks, each once per note.
func openTasks(chunks []store.Chunk, held []int) []Thread {
	var out []Thread
	seen := map[string]bool{}
	for _, c := range chunks {
		for _, l := range lines(c.Text) {
			if l.task != taskOpen || l.text == "" || seen[c.Path+"\x00"+l.text] {
				continue
			}
			seen[c.Path+"\x00"+l.text] = true
			m := Moment{Text: l.text, Cite: CiteOf(c)}
			out = append(out, Thread{Kind: ThreadTask, Title: l.text, Introduced: m, Last: m, OpenSessions: openSince(c, held), Mentions: 1})
		}
	}
	return out
}
