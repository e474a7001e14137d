package oraculo_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval/leakcheck"
)

// TestAskArcTellsTheTimeline: an arc question about an entity of the
// sample is answered, without a model, one cited line per session in
// session order, from every session of its timeline (those search ranked
// low too); a player's answer holds nothing of a DM-only session note that
// names the entity, the DM's does.
func TestAskArcTellsTheTimeline(t *testing.T) {
	ctx := context.Background()
	eng := sampleWithDMSession(t)
	all, err := eng.Chunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	secrets := leakcheck.Collect(all, func(c oraculo.ChunkInfo) bool { return strings.HasPrefix(c.File, "DM/") })
	const question = "¿Qué ha sido de Ciriela?"
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	for _, asker := range []context.Context{ctx, player} {
		tl, err := eng.Timeline(asker, "Ciriela Vos")
		if err != nil {
			t.Fatal(err)
		}
		a, err := eng.Ask(asker, question, oraculo.AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Abstained || len(a.Sessions) < 2 {
			t.Fatalf("%q: cited sessions %v:\n%s", question, a.Sessions, a.Answer)
		}
		var want []int
		for _, en := range tl.Sessions {
			want = append(want, *en.Session)
		}
		for _, s := range want {
			if !slices.Contains(a.Sessions, s) {
				t.Errorf("%q (player %v) cites sessions %v, not %d of the timeline's %v:\n%s", question, asker == player, a.Sessions, s, want, a.Answer)
			}
		}
		if got := citedOrder(t, a); !slices.IsSorted(got) {
			t.Errorf("%q: lines in sessions %v, want session order", question, got)
		}
		js, _ := json.Marshal(a)
		leaked := secrets.Matcher().Find(js)
		if asker == player && (len(leaked) > 0 || strings.Contains(string(js), `"DM/`)) {
			t.Errorf("a player's answer shows DM-only %q", leaked)
		}
		if asker == ctx && !slices.Contains(a.Sessions, 43) {
			t.Errorf("the DM's answer cites sessions %v, not the DM-only session 43: the test proves nothing", a.Sessions)
		}
	}
}

// citedOrder returns the session of each line's first citation, in the
// answer's order.
func citedOrder(t *testing.T, a *oraculo.Answer) []int {
	t.Helper()
	session := map[string]int{}
	for _, h := range a.Candidates {
		if h.Session != nil {
			session[h.ID] = *h.Session
		}
	}
	var out []int
	for _, seg := range a.Segments {
		for _, c := range seg.Citations {
			if c.Valid && c.Evidence != nil {
				if s, ok := session[*c.Evidence]; ok && (len(out) == 0 || out[len(out)-1] != s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// TestAskRecapTellsTheSession: "¿qué pasó en la última sesión?" and
// "resumen de la sesión N" are told from that session's recap, its events
// in order, each cited to the session; a player's last session is the last
// one players may see, never a DM-only session note.
func TestAskRecapTellsTheSession(t *testing.T) {
	ctx := context.Background()
	eng := sampleWithDMSession(t)
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	for _, tt := range []struct {
		asker    context.Context
		question string
		session  int
	}{
		{ctx, "Resumen de la sesión 12", 12},
		{player, "¿Qué pasó en la última sesión?", 42},
		{ctx, "¿Qué pasó en la última sesión?", 43},
	} {
		r, err := eng.Recap(tt.asker, tt.session)
		if err != nil {
			t.Fatal(err)
		}
		a, err := eng.Ask(tt.asker, tt.question, oraculo.AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Sessions, []int{tt.session}) {
			t.Errorf("%q cites sessions %v, want %d:\n%s", tt.question, a.Sessions, tt.session, a.Answer)
		}
		lines := strings.Split(a.Answer, "\n")
		if len(r.Events) == 0 || len(lines) != len(r.Events) {
			t.Fatalf("%q: %d lines for the recap's %d events:\n%s", tt.question, len(lines), len(r.Events), a.Answer)
		}
		for i, ev := range r.Events {
			if !strings.Contains(lines[i], ev.Text) {
				t.Errorf("%q: line %d is %q, want the recap's event %q", tt.question, i, lines[i], ev.Text)
			}
		}
	}
}

// sampleWithDMSession is an engine over the sample with a DM-only session
// 43 that names Ciriela.
func sampleWithDMSession(t *testing.T) *oraculo.Engine {
	t.Helper()
	dir := copyTree(t, sampleDir)
	write(t, filepath.Join(dir, "DM", "Sesion 43.md"), "# Sesión 43\n\nEn secreto, Ciriela Vos le vende el diapasón robado a un contrabandista de la Mano Gris.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(context.Background(), []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	return eng
}
