package answer

import (
	"reflect"
	"testing"
)

func TestContinues(t *testing.T) {
	tests := []struct {
		question string
		want     bool
	}{
		{"¿y después?", true},
		{"¿Y luego qué pasó?", true},
		{"¿Qué pasó después?", true},
		{"Y después de eso, ¿qué hicieron?", true},
		{"¿y más tarde?", true},
		{"And then?", true},
		{"What happened next?", true},
		{"What happened after that?", true},
		{"then what?", true},
		// A subject, or another kind of question, of its own.
		{"¿Y después de la batalla?", false},
		{"¿Y después qué hizo Baika?", false},
		{"What happened after the wedding?", false},
		{"¿Y luego quién lo mató?", false},
		{"Then where did they go?", false},
		{"¿Y qué pasó?", false},
		{"¿Quién lo mató?", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := Continues(tt.question); got != tt.want {
			t.Errorf("Continues(%q) = %v, want %v", tt.question, got, tt.want)
		}
	}
}

func TestLabelSessions(t *testing.T) {
	known := []int{1, 2, 3, 12, 38}
	text := "El grupo cruza el puente [Sesión 3]. El archiduque cae [Sesión 12 › El Juicio; NPCs: Anika]. " +
		"Vuelve [Session 38] y [Sesión 99] no existe; [Fichas: Nix] tampoco."
	if got, want := LabelSessions(text, known), []int{3, 12, 38}; !reflect.DeepEqual(got, want) {
		t.Errorf("LabelSessions = %v, want %v", got, want)
	}
	if got := LabelSessions("Nada citado.", known); got != nil {
		t.Errorf("LabelSessions of no citation = %v, want none", got)
	}
}

func TestConversationAfter(t *testing.T) {
	known := []int{1, 2, 3, 12, 38}
	tests := []struct {
		name     string
		question string
		turn     Turn
		last     int
		after    []int
		ok       bool
	}{
		{"the cited sessions", "¿y después?", Turn{Question: "¿Qué pasó con Anika?", Sessions: []int{2, 3}}, 3, []int{12, 38}, true},
		{"the labels, when no sessions were kept", "and then?",
			Turn{Question: "What happened to Anika?", Answer: "She left [Sesión 12]."}, 12, []int{38}, true},
		{"the kept sessions win over the labels", "¿y luego?",
			Turn{Question: "¿Y Anika?", Answer: "Se fue [Sesión 12].", Sessions: []int{1}}, 1, []int{2, 3, 12, 38}, true},
		{"nothing after the last", "¿y después?", Turn{Question: "¿Y Anika?", Sessions: []int{38}}, 38, nil, true},
		{"nothing cited", "¿y después?", Turn{Question: "¿Y Anika?", Answer: "No lo sé."}, 0, nil, false},
		{"not a continuation", "¿y quién la vio?", Turn{Question: "¿Y Anika?", Sessions: []int{2}}, 0, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Converse(tt.question, []Turn{tt.turn}, nil)
			last, after, ok := c.After(known)
			if last != tt.last || !reflect.DeepEqual(after, tt.after) || ok != tt.ok {
				t.Errorf("After = %d, %v, %v; want %d, %v, %v", last, after, ok, tt.last, tt.after, tt.ok)
			}
		})
	}
}
