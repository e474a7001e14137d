package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// sessions: the sessions and the units (sessions plus notes outside any)
// a store lists follow every write (a note added, edited into other
// sessions, deleted, its visibility decided again), and players never
// get a session that only DM-only notes hold, nor count it.
func sessions(t *testing.T, s store.Store) {
	ctx := context.Background()
	check := func(step string, dm, players []int, dmUnits, playerUnits int) {
		t.Helper()
		for _, c := range []struct {
			public bool
			want   []int
			units  int
		}{{false, dm, dmUnits}, {true, players, playerUnits}} {
			got, err := s.Sessions(ctx, c.public)
			if err != nil || !slices.Equal(got, c.want) {
				t.Errorf("%s: Sessions(public %v) = %v, %v; want %v", step, c.public, got, err, c.want)
			}
			if n, err := s.Units(ctx, c.public); err != nil || n != c.units {
				t.Errorf("%s: Units(public %v) = %d, %v; want %d", step, c.public, n, err, c.units)
			}
		}
	}
	check("empty", nil, nil, 0, 0)
	replace(t, s, note("s1.md", 1, false, []string{"barc"}, []string{"torr"}), note("s2.md", 2, true, []string{"secret"}),
		note("s2b.md", 2, false, []string{"plaz"}), note("s3.md", 3, true, []string{"trai"}), note("npc.md", 0, false, []string{"posad"}),
		note("villano.md", 0, true, []string{"archidu"}))
	check("ingest", []int{1, 2, 3}, []int{1, 2}, 5, 3)
	replace(t, s, note("s1.md", 4, false, []string{"barc nuev"}))
	check("edit", []int{2, 3, 4}, []int{2, 4}, 5, 3)
	if err := s.DeleteDocument(ctx, root, "s2b.md"); err != nil {
		t.Fatal(err)
	}
	check("delete", []int{2, 3, 4}, []int{4}, 5, 2)
	everyone := func(store.VisibilityRecord) (bool, string, string) { return false, "", "" }
	if _, err := s.Redecide(ctx, everyone, nil); err != nil {
		t.Fatal(err)
	}
	check("made public", []int{2, 3, 4}, []int{2, 3, 4}, 5, 5)
	nobody := func(store.VisibilityRecord) (bool, string, string) { return true, "folder", "secreto" }
	if _, err := s.Redecide(ctx, nobody, nil); err != nil {
		t.Fatal(err)
	}
	check("made DM-only", []int{2, 3, 4}, nil, 5, 0)
}
