package answer

import (
	"reflect"
	"testing"
)

func TestConverse(t *testing.T) {
	tests := []struct {
		name     string
		question string
		turns    []Turn
		query    string
		followUp bool
		history  []Message
	}{
		{
			name:     "no history",
			question: "¿Quién lo mató?",
			query:    "¿Quién lo mató?",
		},
		{
			name:     "a continuation searches the previous question alone",
			question: "¿Y después?",
			turns:    []Turn{{Question: "¿Qué pasó con el archiduque?", Answer: "Murió [Sesión 12]."}},
			query:    "¿Qué pasó con el archiduque?",
			followUp: true,
			history: []Message{
				{Role: RoleUser, Content: "¿Qué pasó con el archiduque?"},
				{Role: RoleAssistant, Content: "Murió [Sesión 12]."},
			},
		},
		{
			name:     "the previous turn's query keeps the subject",
			question: "¿y luego?",
			turns: []Turn{
				{Question: "¿Qué pasó con el archiduque?"},
				{Question: "¿Y después?", Query: "¿Qué pasó con el archiduque?"},
			},
			query:    "¿Qué pasó con el archiduque?",
			followUp: true,
			history: []Message{
				{Role: RoleUser, Content: "¿Qué pasó con el archiduque?"},
				{Role: RoleUser, Content: "¿Y después?"},
			},
		},
		{
			name:     "blank turns are skipped, also as the previous one",
			question: "¿Y después?",
			turns: []Turn{
				{Question: "¿Dónde está Anika?", Answer: "En el molino [NPCs: Anika]."},
				{Question: "  ", Answer: "ignorado", Query: "ignorada"},
			},
			query:    "¿Dónde está Anika?",
			followUp: true,
			history: []Message{
				{Role: RoleUser, Content: "¿Dónde está Anika?"},
				{Role: RoleAssistant, Content: "En el molino [NPCs: Anika]."},
			},
		},
		{
			name:     "follow-up joins the previous question",
			question: "¿Y quién lo mató?",
			turns:    []Turn{{Question: "¿Qué pasó con el archiduque?"}},
			query:    "¿Qué pasó con el archiduque? ¿Y quién lo mató?",
			followUp: true,
			history:  []Message{{Role: RoleUser, Content: "¿Qué pasó con el archiduque?"}},
		},
		{
			name:     "a name stands alone",
			question: "¿Y qué hizo Baika?",
			turns:    []Turn{{Question: "¿Qué pasó con el archiduque?"}},
			query:    "¿Y qué hizo Baika?",
			history:  []Message{{Role: RoleUser, Content: "¿Qué pasó con el archiduque?"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Converse(tt.question, tt.turns, nil)
			if c.Query != tt.query || c.FollowUp != tt.followUp {
				t.Errorf("query = %q, follow-up %v; want %q, %v", c.Query, c.FollowUp, tt.query, tt.followUp)
			}
			if !reflect.DeepEqual(c.History, tt.history) {
				t.Errorf("history = %+v\nwant %+v", c.History, tt.history)
			}
		})
	}
}
