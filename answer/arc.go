package answer

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/story"
	txt "github.com/oraculo/oraculo/text"
)

// TimelineChunks returns the chunk each session of t is cited by, in
// session order: what an arc's answer is told from besides what search
// found (see [WithTimeline]).
func TimelineChunks(t story.Timeline) []int64 {
	out := make([]int64, len(t.Sessions))
	for i, en := range t.Sessions {
		out[i] = en.ChunkID
	}
	return out
}

// WithTimeline returns the candidates of an arc about an entity: the
// best [DefaultFull] of hits, then the timeline's hits (those not among
// them), then the rest of hits. Its evidence, one chunk a session, then
// holds the timeline's chunk of each session that names the entity,
// although search ranked it low or found another chunk of the session
// first (an extractive timeline reads [TimelineFull] chunks).
func WithTimeline(hits, timeline []retrieve.Hit) []retrieve.Hit {
	keep := min(DefaultFull, len(hits))
	out := append([]retrieve.Hit{}, hits[:keep]...)
	taken := make(map[int64]bool, len(hits)+len(timeline))
	for _, h := range out {
		taken[h.Chunk] = true
	}
	for _, h := range append(slices.Clone(timeline), hits[keep:]...) {
		if !taken[h.Chunk] {
			taken[h.Chunk] = true
			out = append(out, h)
		}
	}
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// asksEntityHistory reports a question that names an entity of the
// compendium and asks two things or more about it ("How did we end up
// with X, and what did we do with it?") in notes of sessions (its
// candidates come from two sessions or more): its evidence is spread over
// the sessions that name it, as an arc's is. On the dev vaults with
// sessions, answering them as timelines cites more of four questions'
// gold notes and less of none.
func (a *Answer) asksEntityHistory() bool {
	if len(a.Analysis.Entities) == 0 || questionAsks(a.Question) < 2 {
		return false
	}
	seen := map[int]bool{}
	for _, h := range a.Fused {
		if h.Session != nil {
			seen[*h.Session] = true
		}
	}
	return len(seen) >= 2
}

// TimelineMoments returns, by the chunk each session of t is cited by,
// the timeline's sentence there: what an extracted arc quotes of a
// session none of whose sentences matches the question (see
// [ExtractOptions.Moments]).
func TimelineMoments(t story.Timeline) map[int64]string {
	out := make(map[int64]string, len(t.Sessions))
	for _, en := range t.Sessions {
		out[en.ChunkID] = en.Text
	}
	return out
}

// withMoments adds to a timeline's chosen sentences, for each full item
// of the evidence none is chosen from, its sentence in moments: the one
// under its ID, else the first the item's text holds (an item may be a
// larger chunk around the one the timeline cites). At most
// TimelineSentences in all, in the evidence's order.
func (sc *evidenceScore) withMoments(chosen []candidate, moments map[int64]string) []candidate {
	if len(moments) == 0 {
		return chosen
	}
	have := map[int]bool{}
	for _, c := range chosen {
		have[c.item] = true
	}
	texts := slices.Sorted(maps.Values(moments)) // a fixed order
	out := chosen
	for i, it := range sc.quotable {
		if it.Kind != KindFull || have[i] || len(out) >= TimelineSentences {
			continue
		}
		m := moments[it.ID]
		for _, t := range texts {
			if m == "" && strings.Contains(txt.Collapse(it.Text), txt.Collapse(t)) {
				m = t
			}
		}
		if m != "" {
			out = append(out, candidate{item: i, pos: -1, text: unbracket(m)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].item < out[j].item })
	return out
}

// DeliverOptions are the options a's evidence is chosen with (see
// [DeliverOptions]): when no model writes it, an arc that added its
// entity's timeline to the candidates (see [WithTimeline]) reads them all.
func (a *Answer) DeliverOptions(extractive bool) AssembleOptions {
	o := DeliverOptions(a.Timeline(), extractive)
	if extractive && a.Moments != nil {
		o.More = max(o.More, len(a.Candidates)-DefaultFull)
	}
	return o
}

// timelineInstruction asks a model that tells a history (see
// [Answer.Timeline]) for the story in order and the latest known state,
// in the answer's language.
var timelineInstruction = map[string]string{
	"es": "Cuenta la historia en orden, sesión a sesión, citando cada paso, y termina diciendo cuál es el último estado conocido.",
	"en": "Tell the story in order, session by session, citing each step, and end by saying what the latest known state is.",
}

// TimelineInstruction is what a model telling a history is asked besides
// the question, in lang (English for anything but "es").
func TimelineInstruction(lang string) string {
	if lang == "es" {
		return timelineInstruction["es"]
	}
	return timelineInstruction["en"]
}
