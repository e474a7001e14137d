package compendium

import (
	"context"
	"reflect"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// stored is a store's compendiums and mentions.
type stored struct {
	ents     map[string][]store.Entity
	mentions map[int64][]store.Mention
	public   []bool // the public flag of each MentionsOf call
}

func (s *stored) Entities(_ context.Context, scope string) ([]store.Entity, error) {
	return s.ents[scope], nil
}

func (s *stored) MentionsOf(_ context.Context, ids []int64, public bool) (map[int64][]store.Mention, error) {
	s.public = append(s.public, public)
	return s.mentions, nil
}

func (s *stored) Units(context.Context, bool) (int, error) { return 7, nil }

// TestList: each entity with how many chunks mention it, its sessions and
// files sorted and never null; players read the players' compendium and
// their mentions.
func TestList(t *testing.T) {
	s := &stored{
		ents: map[string][]store.Entity{
			store.ScopeDM:     {{ID: 1, Name: "Harbin", Kind: "npc", Aliases: []string{"el alcalde"}}, {ID: 2, Name: "Kleb"}},
			store.ScopePlayer: {{ID: 3, Name: "Harbin"}},
		},
		mentions: map[int64][]store.Mention{1: {
			{Path: "Sesiones/9.md", Session: 9, InSession: true},
			{Path: "NPCs/Harbin.md"},
			{Path: "Sesiones/2.md", Session: 2, InSession: true},
			{Path: "Sesiones/9.md", Session: 9, InSession: true},
		}},
	}
	got, err := List(context.Background(), s, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Name: "Harbin", Kind: "npc", Aliases: []string{"el alcalde"}, Chunks: 4, Sessions: []int{2, 9}, Files: []string{"NPCs/Harbin.md", "Sesiones/2.md", "Sesiones/9.md"}},
		{Name: "Kleb", Aliases: []string{}, Sessions: []int{}, Files: []string{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List = %+v\nwant %+v", got, want)
	}
	if got, _ := List(context.Background(), s, true); len(got) != 1 || got[0].Chunks != 0 || s.public[1] != true {
		t.Errorf("players' List = %+v (public %v)", got, s.public)
	}
	if en, ok := Lookup(want, "EL ALCALDE"); !ok || en.Name != "Harbin" {
		t.Errorf("Lookup(el alcalde) = %+v, %v", en, ok)
	}
	if _, ok := Lookup(want, "Harbi"); ok {
		t.Error("Lookup(Harbi) found an entry")
	}
	st, err := Load(context.Background(), s, true)
	if err != nil || len(st.Entities) != 1 || st.Units != 7 || len(st.Matcher.Find("vimos a Harbin")) != 1 {
		t.Errorf("Load = %+v, %v", st, err)
	}
}
