package oraculo_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/story"
)

// TestSampleThreads: the DM's threads hold every unchecked task of the
// sample (read from the notes), its open quest and not its resolved ones,
// and the seeded forgotten character, Pelayo (sessions 2, 4 and 16); each
// entity came up in two or more sessions and in none of the last five.
func TestSampleThreads(t *testing.T) {
	ctx := context.Background()
	eng := sampleEngine(t)
	th, err := eng.Threads(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if th.QuietSessions != 5 || th.LastSession != 42 {
		t.Errorf("quiet %d, last session %d; want 5 and 42", th.QuietSessions, th.LastSession)
	}
	got := map[string]story.Thread{}
	for _, x := range th.Threads {
		got[x.Kind+": "+x.Title] = x
		if x.Kind == story.ThreadEntity && (x.Introduced.Session == nil || x.Last.Session == nil || *x.Last.Session >= 38 || *x.Introduced.Session >= *x.Last.Session) {
			t.Errorf("entity %q: introduced in %v, last mentioned in %v", x.Title, x.Introduced.Session, x.Last.Session)
		}
	}
	for _, note := range []string{"Sesiones/Sesion 37.md", "DM/Notas de campaña.md"} {
		for _, task := range sampleTasks(t, note) {
			x, ok := got["task: "+task]
			if !ok || x.Introduced.File != note {
				t.Errorf("the task %q of %s is not a thread: %+v", task, note, x)
			}
		}
	}
	if _, ok := got["quest: Investigar a los Hijos del Silencio"]; !ok {
		t.Errorf("the open quest is not a thread")
	}
	for _, done := range []string{"quest: Los desaparecidos de Ribafría", "quest: El favor del Farolero", "task: Plano de la bodega de Odalric."} {
		if _, ok := got[done]; ok {
			t.Errorf("%q is resolved, yet a thread", done)
		}
	}
	p, ok := got["entity: Pelayo"]
	if !ok || *p.Introduced.Session != 2 || *p.Last.Session != 16 || p.Mentions != 3 || !strings.Contains(p.Last.Text, "Pelayo") {
		t.Errorf("the forgotten Pelayo: %+v (found %v)", p, ok)
	}
	if i := slices.IndexFunc(th.Threads, func(x story.Thread) bool { return x.Title == "Pelayo" }); i > 15 {
		t.Errorf("Pelayo ranks %d", i+1)
	}
}

// TestThreadsRecapLeak: a player's threads and recaps of the sample never
// hold a DM-only note's tasks, quests or sentences.
func TestThreadsRecapLeak(t *testing.T) {
	ctx := oraculo.WithRole(context.Background(), oraculo.RolePlayer)
	eng := sampleEngine(t)
	dm, err := eng.Chunks(context.Background(), []string{"DM"})
	if err != nil || len(dm) == 0 {
		t.Fatalf("the sample's DM notes: %d chunks, %v", len(dm), err)
	}
	secret := func(m story.Moment) bool {
		if strings.HasPrefix(m.File, "DM/") {
			return true
		}
		for _, c := range dm {
			if len(m.Text) > 25 && strings.Contains(strings.Join(strings.Fields(c.Text), " "), m.Text) {
				return true
			}
		}
		return false
	}
	th, err := eng.Threads(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range th.Threads {
		if secret(x.Introduced) || secret(x.Last) || strings.Contains(x.Title, "Rata Fina") {
			t.Errorf("a player's thread comes from a DM note: %+v", x)
		}
	}
	for s := 1; s <= th.LastSession; s++ {
		r, err := eng.Recap(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range append(r.Events, r.Open...) {
			if secret(m) {
				t.Errorf("a player's recap of session %d quotes a DM note: %q", s, m.Text)
			}
		}
	}
	dmThreads, _ := eng.Threads(context.Background(), 0)
	if !slices.ContainsFunc(dmThreads.Threads, func(x story.Thread) bool { return secret(x.Introduced) }) {
		t.Errorf("the DM's threads hold no DM note: the check would pass for nothing")
	}
}
