package query

import (
	"errors"
	"slices"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// TestUnderstand: an explicit filter wins over the sessions a question
// names; without one, the sessions named are the filter, from the
// question (so widened when nothing matches), unless analysis is off.
func TestUnderstand(t *testing.T) {
	known := []int{1, 2, 3, 12}
	q := "¿Qué pasó en la sesión 12?"
	u := Understand(q, known, []string{"Harbin"}, store.Filter{}, false)
	if !slices.Equal(u.Filters.Sessions, []int{12}) || u.Said == "" || !u.FromQuestion || !u.Widened() || u.Kind != KindLookup || u.Entities[0] != "Harbin" {
		t.Errorf("named: %+v", u)
	}
	explicit := store.Filter{Sessions: []int{2}}
	if u := Understand(q, known, nil, explicit, false); !slices.Equal(u.Filters.Sessions, []int{2}) || u.FromQuestion || u.Widened() {
		t.Errorf("explicit: %+v", u)
	}
	if u := Understand(q, known, nil, store.Filter{}, true); !u.Filters.IsZero() || u.Said != "" || u.Widened() {
		t.Errorf("no analysis: %+v", u)
	}
}

// TestUnderstandUntil: a question asked as of a session filters on the
// sessions up to it and says so (UntilSession); a state question is
// marked, unless analysis is off.
func TestUnderstandUntil(t *testing.T) {
	known := []int{1, 2, 3, 12, 20, 25}
	u := Understand("En la sesión 20, ¿seguía vivo Harbin?", known, nil, store.Filter{}, false)
	if u.Filters.UntilSession != 20 || !slices.Equal(u.Filters.Sessions, []int{1, 2, 3, 12, 20}) || !u.State || !u.Widened() {
		t.Errorf("as of 20: %+v", u)
	}
	if u := Understand("¿Qué pasó en la sesión 20?", known, nil, store.Filter{}, false); u.Filters.UntilSession != 0 || u.State {
		t.Errorf("in session 20: %+v", u)
	}
	if u := Understand("¿Sigue vivo Harbin?", known, nil, store.Filter{}, true); u.State || !u.Filters.IsZero() {
		t.Errorf("no analysis: %+v", u)
	}
}

// TestUnderstandLazily: the sessions are read only for a question that
// names some and when they decide the filter; what is understood is
// Understand's; an error reading them is the caller's.
func TestUnderstandLazily(t *testing.T) {
	known := []int{1, 2, 3, 12}
	for _, c := range []struct {
		question   string
		filter     store.Filter
		noAnalysis bool
		reads      int
	}{
		{"¿Quién cruzó el puente de Galerna?", store.Filter{}, false, 0},
		{"¿Qué fue de Harbin? ¿Sigue vivo?", store.Filter{}, false, 0},
		{"¿Qué pasó en la sesión 12?", store.Filter{}, false, 1},
		{"¿Qué pasó en las últimas tres sesiones?", store.Filter{}, false, 1},
		{"What happened up to session 3?", store.Filter{}, false, 1},
		{"¿Qué pasó en la sesión 12?", store.Filter{Sessions: []int{2}}, false, 0},
		{"¿Qué pasó en la sesión 12?", store.Filter{}, true, 0},
	} {
		reads := 0
		read := func() ([]int, error) { reads++; return known, nil }
		got, err := UnderstandLazily(c.question, read, []string{"Harbin"}, c.filter, c.noAnalysis)
		want := Understand(c.question, known, []string{"Harbin"}, c.filter, c.noAnalysis)
		if err != nil || reads != c.reads || !slices.Equal(got.Filters.Sessions, want.Filters.Sessions) ||
			got.Filters.UntilSession != want.Filters.UntilSession || got.Said != want.Said || got.Kind != want.Kind || got.State != want.State {
			t.Errorf("%q: %+v, %v after %d reads; want %+v after %d", c.question, got, err, reads, want, c.reads)
		}
	}
	boom := errors.New("boom")
	if _, err := UnderstandLazily("¿Qué pasó en la sesión 12?", func() ([]int, error) { return nil, boom }, nil, store.Filter{}, false); !errors.Is(err, boom) {
		t.Errorf("an error reading the sessions: %v", err)
	}
}
