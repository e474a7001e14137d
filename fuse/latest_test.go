package fuse

import (
	"fmt"
	"testing"
)

func TestLatest(t *testing.T) {
	sessions := map[int64]int{1: 3, 2: 12, 3: 20, 5: 7, 6: 30}
	session := func(id int64) (int, bool) { s, ok := sessions[id]; return s, ok }
	cands := []Candidate{
		{ID: 1, Score: 1.000}, // session 3
		{ID: 4, Score: 0.998}, // a note outside sessions: keeps its slot
		{ID: 2, Score: 0.995}, // session 12
		{ID: 3, Score: 0.991}, // session 20, within 1% of the first
		{ID: 6, Score: 0.980}, // session 30, outside the run: stays after it
		{ID: 5, Score: 0.979}, // session 7, in the second run, behind 30 anyway
	}
	got := Latest(cands, session)
	if s := fmt.Sprint(ids(got)); s != "[3 4 2 1 6 5]" {
		t.Errorf("latest first among equals: %s", s)
	}
	if s := fmt.Sprint(ids(cands)); s != "[1 4 2 3 6 5]" {
		t.Errorf("the input changed: %s", s)
	}
	// Clear leads are kept.
	apart := []Candidate{{ID: 1, Score: 1}, {ID: 3, Score: 0.9}, {ID: 6, Score: 0.8}}
	if s := fmt.Sprint(ids(Latest(apart, session))); s != "[1 3 6]" {
		t.Errorf("clear leads: %s", s)
	}
	if len(Latest(nil, session)) != 0 {
		t.Errorf("nothing in, something out")
	}
}
