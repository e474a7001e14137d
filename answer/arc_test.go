package answer

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/query"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/story"
)

func sessionHit(chunk int64, session int) retrieve.Hit {
	return retrieve.Hit{Chunk: chunk, Session: &session}
}

func TestWithTimeline(t *testing.T) {
	var hits []retrieve.Hit
	for i := range DefaultFull + 2 {
		hits = append(hits, sessionHit(int64(100+i), 10+i))
	}
	hits = append(hits, retrieve.Hit{Chunk: 200}) // a note outside sessions
	timeline := []retrieve.Hit{sessionHit(1, 1), sessionHit(102, 12), sessionHit(3, 30), sessionHit(3, 30), sessionHit(109, 19)}
	got := WithTimeline(hits, timeline)
	var chunks []int64
	for i, h := range got {
		chunks = append(chunks, h.Chunk)
		if h.Rank != i+1 {
			t.Errorf("hit %d has rank %d", i, h.Rank)
		}
	}
	// The best DefaultFull found, then the timeline's chunks not among
	// them, each once, then the rest found.
	want := []int64{100, 101, 102, 103, 104, 105, 106, 107, 1, 3, 109, 108, 200}
	if !reflect.DeepEqual(chunks, want) {
		t.Errorf("chunks %v, want %v", chunks, want)
	}
	if got := WithTimeline(nil, timeline[:1]); len(got) != 1 || got[0].Chunk != 1 {
		t.Errorf("no hits: %+v", got)
	}
}

func TestTimelineChunks(t *testing.T) {
	tl := story.Timeline{Sessions: []story.TimelineEntry{{ChunkID: 7, Chunks: []int64{6, 7}}, {ChunkID: 9, Chunks: []int64{9}}}}
	if got := TimelineChunks(tl); !reflect.DeepEqual(got, []int64{7, 9}) {
		t.Errorf("TimelineChunks = %v", got)
	}
}

func TestAsksEntityHistory(t *testing.T) {
	sessions := []retrieve.Hit{sessionHit(1, 3), sessionHit(2, 7)}
	tests := []struct {
		question string
		entities []string
		fused    []retrieve.Hit
		want     bool
	}{
		{"How did we end up with the Spellbook of Zarathustra, and what did we do with it?", []string{"Zarathustra"}, sessions, true},
		{"¿Quién le dio el mapa a Nix y dónde lo escondió?", []string{"Nix"}, sessions, true},
		// One question; no entity; notes without sessions.
		{"What did we do with the Spellbook of Zarathustra?", []string{"Zarathustra"}, sessions, false},
		{"Who attacked us, and where had we met them before?", nil, sessions, false},
		{"¿Quién le dio el mapa a Nix y dónde lo escondió?", []string{"Nix"}, sessions[:1], false},
	}
	for _, tt := range tests {
		a := NewAnswer(tt.question, "")
		a.Analysis = query.Understanding{Kind: query.KindLookup, Entities: tt.entities}
		a.Fused = tt.fused
		if got := a.asksEntityHistory(); got != tt.want {
			t.Errorf("%q: asksEntityHistory = %v, want %v", tt.question, got, tt.want)
		}
		if got := a.Timeline(); got != tt.want {
			t.Errorf("%q: Timeline = %v, want %v", tt.question, got, tt.want)
		}
	}
}

// promptModel keeps the last message it was asked.
type promptModel struct{ asked *string }

func (promptModel) ID() string { return "test/prompt" }

func (m promptModel) Chat(_ context.Context, r chat.Request, _ func(string)) (string, error) {
	*m.asked = r.Messages[len(r.Messages)-1].Content
	return "Nada [Sesión 1].", nil
}

// TestWriteAsksForTheStoryInOrder: a model telling a history is asked,
// in the answer's language, for the story in order and the latest known
// state; one answering a lookup is not.
func TestWriteAsksForTheStoryInOrder(t *testing.T) {
	ctx := context.Background()
	ev := deliver([]Candidate{{ID: 7, Ref: "c7", Label: "Sesión 1", File: "S1.md", Session: 1, InSession: true,
		Text: "Garrik confesó el robo en el puerto."}}, AssembleOptions{Chronological: true})
	for _, tt := range []struct {
		lang     string
		timeline bool
	}{{"es", true}, {"en", true}, {"es", false}} {
		var asked string
		o := DraftOptions{Question: "¿Qué ha sido de Garrik?", Lang: tt.lang, Model: promptModel{&asked}, Found: true, Timeline: tt.timeline}
		if _, err := Write(ctx, ctx, ev, o); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(asked, TimelineInstruction(tt.lang)); got != tt.timeline {
			t.Errorf("%s, timeline %v: the prompt holds the instruction: %v\n%s", tt.lang, tt.timeline, got, asked)
		}
	}
	if TimelineInstruction("es") == TimelineInstruction("en") {
		t.Error("one instruction for both languages")
	}
}
