package mcpserver_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/mcpserver"
)

// TestTimeline calls the timeline tool on the sample campaign: an alias
// finds the entity, its sessions come in order with their citations, a
// mistyped name is a tool error offering the right one, and a player's
// timeline of a character a DM-only note names shows nothing of that
// note, though the DM's does.
func TestTimeline(t *testing.T) {
	ctx := context.Background()
	eng, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.Ingest(ctx, []string{"../examples/campaign"}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.NewServer(eng, "test")
	dm := connect(t, oraculo.WithRole(ctx, oraculo.RoleDM), srv)
	player := connect(t, oraculo.WithRole(ctx, oraculo.RolePlayer), srv)

	var tl oraculo.Timeline
	res := call(t, dm, "timeline", map[string]any{"name": "el caballero gris"}, &tl)
	if res.IsError || tl.Name != "Sir Alvar Duranza" || len(tl.Sessions) < 5 {
		t.Fatalf("timeline(el caballero gris) = %+v: %s", tl, text(res))
	}
	for i, s := range tl.Sessions {
		if s.Session == nil || s.ID == "" || s.Text == "" || (i > 0 && *s.Session <= *tl.Sessions[i-1].Session) {
			t.Errorf("entry %d out of order or uncited: %+v", i, s)
		}
		if !strings.Contains(text(res), s.ID) {
			t.Errorf("the text does not cite %s: %s", s.ID, text(res))
		}
	}
	dmJSON, _ := json.Marshal(tl)
	if !strings.Contains(string(dmJSON), `"DM/El traidor.md"`) {
		t.Fatalf("the DM's timeline lacks the DM-only note that names him: the check below proves nothing: %s", dmJSON)
	}
	var pl oraculo.Timeline
	res = call(t, player, "timeline", map[string]any{"name": "Alvar"}, &pl)
	if res.IsError || pl.Name != "Sir Alvar Duranza" {
		t.Fatalf("a player's timeline(Alvar) = %+v: %s", pl, text(res))
	}
	plJSON, _ := json.Marshal(pl)
	if strings.Contains(string(plJSON)+text(res), "DM/") || strings.Contains(text(res), "traidor") {
		t.Errorf("a player's timeline shows a DM-only note: %s\n%s", plJSON, text(res))
	}
	res = call(t, dm, "timeline", map[string]any{"name": "Alvar Durranza"}, nil)
	if !res.IsError || !strings.Contains(text(res), "did you mean Sir Alvar Duranza?") {
		t.Errorf("timeline of a mistyped name: %s", text(res))
	}
}
