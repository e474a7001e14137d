package answer

import "testing"

func TestAsksForRecap(t *testing.T) {
	known := []int{1, 2, 3, 12, 40}
	tests := []struct {
		question string
		session  int
		ok       bool
	}{
		{"¿Qué pasó en la última sesión?", 40, true},
		{"Resumen de la sesión 12", 12, true},
		{"Hazme un resumen de la sesión 3", 3, true},
		{"Previously on…", 40, true},
		{"Recap of session 3", 3, true},
		{"What happened in session 12?", 12, true},
		// A subject of its own, no session, or several.
		{"¿Qué pasó con Anika en la sesión 12?", 0, false},
		{"Resúmeme la historia de Cardenio", 0, false},
		{"¿Qué pasó entre las sesiones 1 y 3?", 0, false},
		{"¿Qué pasó en la sesión 99?", 0, false},
	}
	for _, tt := range tests {
		n, ok := AsksForRecap(tt.question, known)
		if n != tt.session || ok != tt.ok {
			t.Errorf("AsksForRecap(%q) = %d, %v; want %d, %v", tt.question, n, ok, tt.session, tt.ok)
		}
	}
}

// TestAsksForRecapLazily: the sessions are read only for a question that
// names some or says "previously", and then once.
func TestAsksForRecapLazily(t *testing.T) {
	for _, c := range []struct {
		question string
		session  int
		reads    int
	}{
		{"¿Quién cruzó el puente de Galerna?", 0, 0},
		{"Resúmeme la historia de Cardenio", 0, 0},
		{"Resumen de la sesión 12", 12, 1},
		{"Previously on…", 40, 1},
	} {
		reads := 0
		n, ok, err := AsksForRecapLazily(c.question, func() ([]int, error) { reads++; return []int{1, 12, 40}, nil })
		if err != nil || n != c.session || ok != (c.session > 0) || reads != c.reads {
			t.Errorf("%q: %d, %v, %v after %d reads; want %d after %d", c.question, n, ok, err, reads, c.session, c.reads)
		}
	}
}
