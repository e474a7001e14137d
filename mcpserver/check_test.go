package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/mcpserver"
	"github.com/oraculo/oraculo/story"
	"github.com/oraculo/oraculo/story/storytest"
)

func TestCheckTool(t *testing.T) {
	ctx := context.Background()
	eng := newEngineWith(t, storytest.Continuity)
	srv := mcpserver.NewServer(eng, "test")
	for _, c := range []struct {
		role  string
		pairs int
	}{{oraculo.RoleDM, 3}, {oraculo.RolePlayer, 1}} {
		cs := connect(t, oraculo.WithRole(ctx, c.role), srv)
		var out mcpserver.CheckOutput
		res := call(t, cs, "check", nil, &out)
		if res.IsError || len(out.Contradictions) != c.pairs {
			t.Fatalf("%s: %d pairs, want %d: %s", c.role, len(out.Contradictions), c.pairs, text(res))
		}
		first := out.Contradictions[0]
		if first.Kind == story.KindField { // the field pair comes first, by entity
			first = out.Contradictions[1]
		}
		if first.Kind != story.KindGoneThenActs || first.Entity != "Garrik Tresdedos" || *first.First.Session != 2 ||
			*first.Second.Session != 3 || first.Verdict != story.VerdictUnjudged || !strings.Contains(text(res), "levanta la jarra") {
			t.Errorf("%s: %+v\n%s", c.role, first, text(res))
		}
		for _, secret := range storytest.Secrets {
			if c.role == oraculo.RolePlayer && strings.Contains(text(res), secret) {
				t.Errorf("a player's check holds %q: %s", secret, text(res))
			}
		}
	}
}
