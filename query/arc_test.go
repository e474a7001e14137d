package query

import "testing"

// IsArc is what Analyze says of a question's kind, for the answer stage,
// which reads the same phrases as a request for a timeline.
func TestIsArc(t *testing.T) {
	for _, q := range []string{
		"¿Qué papel ha jugado Vesper en la sesión 3?", "What became of Kleb?", "¿Qué se hizo de Harbin Wester?",
		"¿Quién nos dio el mapa?", "Who gave us the map in session 2?", "",
	} {
		want := Analyze(q, "", []int{1, 2, 3}).Kind == KindArc
		if got := IsArc(q); got != want {
			t.Errorf("IsArc(%q) = %v, Analyze says arc %v", q, got, want)
		}
	}
	if !IsArc("¿Qué papel ha jugado Vesper?") || IsArc("¿Quién nos dio el mapa?") {
		t.Fatal("IsArc does not tell an arc from a lookup")
	}
}
