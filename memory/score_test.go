package memory_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/memory"
)

func scored(es ...answer.MemoryEntry) []memory.Scored {
	out := make([]memory.Scored, len(es))
	for i, e := range es {
		out[i] = memory.Scored{MemoryEntry: e}
	}
	return out
}

// TestRelevant: the key counts twice, the verbs a question is asked with
// count nothing, a session:N scope matches a question about the session,
// and a question of one or two content words needs one match, a longer
// one two.
func TestRelevant(t *testing.T) {
	entries := scored(
		answer.MemoryEntry{ID: -1, Key: "archiduque", Value: "Leoric murió", Verified: true},
		answer.MemoryEntry{ID: -2, Key: "posada", Value: "Aquí pasó algo con el archiduque", Verified: true},
		answer.MemoryEntry{ID: -3, Key: "clima", Value: "Llovió mucho", Scope: "session:12", Verified: true},
		answer.MemoryEntry{ID: -4, Key: "regla", Value: "Se pasó la partida hablando"},
	)
	for _, tc := range []struct {
		question string
		want     []int
	}{
		{"¿Qué pasó con el archiduque?", []int{0, 1}},
		{"¿Qué pasó en la sesión 12?", []int{2}},
		{"¿Qué pasó?", nil},
		{"¿Dónde murió el archiduque Leoric en la posada?", []int{0, 1}},
		{"¿Llovió cuando el dragón atacó la ciudad?", nil},
	} {
		if got := memory.Relevant(tc.question, entries, nil, "es"); !slices.Equal(got, tc.want) {
			t.Errorf("Relevant(%q) = %v, want %v", tc.question, got, tc.want)
		}
	}
}

// TestRelevantLimits: at most MaxEvidence verified entries (not stale)
// and MaxUnconfirmed others, best first, equal scores in the given order;
// a stale verified entry counts as unconfirmed.
func TestRelevantLimits(t *testing.T) {
	var es []answer.MemoryEntry
	for i := range 6 {
		es = append(es, answer.MemoryEntry{ID: int64(-i - 1), Key: fmt.Sprintf("nota %d", i), Value: "el dragón rojo", Verified: true})
	}
	for i := 6; i < 11; i++ {
		es = append(es, answer.MemoryEntry{ID: int64(-i - 1), Key: fmt.Sprintf("nota %d", i), Value: "el dragón rojo", Verified: i == 10, Stale: i == 10})
	}
	es = append(es, answer.MemoryEntry{ID: -12, Key: "dragón", Value: "rojo", Verified: true})
	got := memory.Relevant("dragón", scored(es...), nil, "es")
	if want := []int{11, 0, 1, 2, 6, 7, 8}; !slices.Equal(got, want) {
		t.Errorf("Relevant = %v, want %v", got, want)
	}
}

// TestMatch: every entry sharing a content word, best first.
func TestMatch(t *testing.T) {
	entries := scored(
		answer.MemoryEntry{Key: "posada", Value: "la posada del Poni"},
		answer.MemoryEntry{Key: "archiduque", Value: "Leoric murió en la posada"},
		answer.MemoryEntry{Key: "clima", Value: "Llovió"},
	)
	if got, want := memory.Match("olvida lo de la posada del archiduque", entries, nil, "es"), []int{1, 0}; !slices.Equal(got, want) {
		t.Errorf("Match = %v, want %v", got, want)
	}
	if got := memory.Match("la", entries, nil, "es"); got != nil {
		t.Errorf("Match of a stop word = %v, want none", got)
	}
}
