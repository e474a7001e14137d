package oraculo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/story"
	"github.com/oraculo/oraculo/story/storytest"
)

// The sample's seeded contradictions: Lady Mencía dies in session 39 and
// applauds in 42; Chispa's two notes give her two ages. Nothing else in
// the sample is one, for the DM or a player.
func TestCheckSample(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []context.Context{ctx, oraculo.WithRole(ctx, oraculo.RolePlayer)} {
		res, err := eng.Check(c)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range res.Contradictions {
			got = append(got, x.Kind+" "+x.Entity+" "+x.Field+": "+where(x.First)+" / "+where(x.Second)+" "+x.Verdict)
			for _, m := range []story.Moment{x.First, x.Second} {
				ch, err := eng.Chunk(c, m.ID)
				if err != nil || ch.File != m.File || !strings.Contains(strings.Join(strings.Fields(ch.Text), " "), strings.Trim(m.Text, "*.")) &&
					x.Kind == story.KindGoneThenActs {
					t.Errorf("%q is not cited by chunk %s (%v)", m.Text, m.ID, err)
				}
			}
		}
		want := []string{
			"field Chispa edad: NPCs/Chispa.md / NPCs/Ficha de Chispa.md unjudged",
			"gone_then_acts Lady Mencía de Oros : Sesiones/sesion 39.md 39 / Sesiones/Sesion 42.md 42 unjudged",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("check of the sample (player %v):\n%s\nwant\n%s", c != ctx, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if len(res.Contradictions) == 2 && (!strings.Contains(res.Contradictions[1].First.Text, "ha muerto") ||
			!strings.Contains(res.Contradictions[1].Second.Text, "aplaude")) {
			t.Errorf("the death and the act are not the sentences cited: %+v", res.Contradictions[1])
		}
	}
}

func where(m story.Moment) string {
	if m.Session == nil {
		return m.File
	}
	return m.File + " " + strings.TrimSpace(strings.TrimPrefix(m.Label, "Sesión"))
}

// A player's check never reads a DM-only note: not its sentences, not its
// front matter, not in what the chat model is shown.
func TestCheckPlayerNeverReadsDMNotes(t *testing.T) {
	ctx := context.Background()
	dir := storytest.Write(t, t.TempDir(), storytest.Continuity)
	srv := chattest.NewOllama(t, func(chattest.Call) string { return `{"verdict": "contradiction", "reason": "sigue vivo"}` })
	eng, _ := openEngine(t, oraculo.WithChat(chat.Config{Provider: "ollama", Model: "juez", URL: srv.URL}))
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	dm, err := eng.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(dm.Contradictions) != 3 || !strings.Contains(fmt.Sprintf("%+v", dm), "conspira") || !strings.Contains(fmt.Sprintf("%+v", dm), "dragona") {
		t.Fatalf("the DM's check misses the DM-only contradictions: %+v", dm)
	}
	before := len(srv.Calls())
	player, err := eng.Check(oraculo.WithRole(ctx, oraculo.RolePlayer))
	if err != nil {
		t.Fatal(err)
	}
	out := fmt.Sprintf("%+v", player)
	for _, secret := range storytest.Secrets {
		if strings.Contains(out, secret) {
			t.Errorf("a player's check holds %q: %s", secret, out)
		}
	}
	for _, c := range srv.Calls()[before:] {
		if u := c.Text(chat.RoleUser); strings.Contains(u, "conspira") || strings.Contains(u, "dragona") {
			t.Errorf("the model was shown a DM-only note for a player: %s", u)
		}
	}
	if len(player.Contradictions) != 1 || player.Contradictions[0].Verdict != story.VerdictContradiction {
		t.Errorf("a player's check: %s", out)
	}
}
