package store

import (
	"fmt"
	"testing"
)

func TestFilterThrough(t *testing.T) {
	held := []int{1, 2, 5, 8, 12, 20}
	cases := []struct {
		name string
		f    Filter
		want string
		ok   bool
	}{
		{"no until", Filter{Sessions: []int{3}, Tags: []string{"x"}}, "[3] [x] 0", true},
		{"until", Filter{UntilSession: 8}, "[1 2 5 8] [] 0", true},
		{"until between held", Filter{UntilSession: 10}, "[1 2 5 8] [] 0", true},
		{"until and sessions", Filter{Sessions: []int{5, 12, 20}, UntilSession: 12}, "[5 12] [] 0", true},
		{"until keeps the other fields", Filter{Tags: []string{"npc"}, UntilSession: 2}, "[1 2] [npc] 0", true},
		{"until before every session", Filter{UntilSession: 0}, "[] [] 0", true},
		{"nothing held up to it", Filter{Sessions: []int{20}, UntilSession: 5}, "[] [] 0", false},
	}
	for _, c := range cases {
		got, ok := c.f.Through(held)
		if s := fmt.Sprint(got.Sessions, got.Tags, got.UntilSession); s != c.want || ok != c.ok {
			t.Errorf("%s: got %s %v, want %s %v", c.name, s, ok, c.want, c.ok)
		}
	}
	if _, ok := (Filter{UntilSession: 3}).Through(nil); ok {
		t.Errorf("an until over a store with no sessions lets something through")
	}
	if (Filter{UntilSession: 3}).IsZero() {
		t.Errorf("an until filter is zero")
	}
}
