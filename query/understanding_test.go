package query

import (
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
