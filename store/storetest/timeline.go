package storetest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/store"
)

// timelineNotes are the notes of the timeline scenario: Brisa is named
// in sessions 1 and 5 (by an alias), in her note, and in two DM-only
// notes, one of them session 6.
var timelineNotes = map[string]string{
	"Sesiones/Sesión 1.md": "# Sesión 1\n\nEn la taberna conocen a Brisa, que les vende un mapa de las cuevas.\n",
	"Sesiones/Sesión 2.md": "# Sesión 2\n\nBajan a las cuevas del faro.\n",
	"Sesiones/Sesión 3.md": "# Sesión 3\n\nEl faro se enciende solo.\n",
	"Sesiones/Sesión 4.md": "# Sesión 4\n\nLos contrabandistas huyen por mar.\n",
	"Sesiones/Sesión 5.md": "# Sesión 5\n\nLa Ladrona vuelve con la mitad del botín y pide perdón.\n",
	"NPCs/Brisa.md":        "---\naliases: [la ladrona]\n---\n# Brisa\n\nLadrona de mapas del puerto.\n",
	"DM/Plan.md":           "# Plan del máster\n\nBrisa trabaja en secreto para la cofradía del sello gris.\n",
	"DM/Sesión 6.md":       "# Sesión 6\n\nBrisa entrega el mapa verdadero al archimago Quimera.\n",
}

// timeline ingests timelineNotes through the engine over s and checks an
// entity's timeline, the DM's and a player's: the sessions naming it in
// order (the DM-only one for the DM only), the gap, the notes, its own
// first, and nothing of a DM-only note for the player.
func timeline(t *testing.T, s store.Store) {
	ctx := context.Background()
	eng, err := oraculo.OpenStore(ctx, s, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing}))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	dir := t.TempDir()
	for p, text := range timelineNotes {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ctx      context.Context
		sessions []int
		notes    []string
	}{
		{ctx, []int{1, 5, 6}, []string{"NPCs/Brisa.md", "DM/Plan.md"}},
		{oraculo.WithRole(ctx, oraculo.RolePlayer), []int{1, 5}, []string{"NPCs/Brisa.md"}},
	} {
		tl, err := eng.Timeline(c.ctx, "LA LADRONA")
		if err != nil {
			t.Fatal(err)
		}
		var sessions []int
		for _, en := range tl.Sessions {
			sessions = append(sessions, *en.Session)
		}
		var notes []string
		for _, m := range tl.Notes {
			notes = append(notes, m.File)
		}
		gap := len(tl.Gaps) == 1 && tl.Gaps[0].After == 1 && tl.Gaps[0].Before == 5 && tl.Gaps[0].Absent == 3
		if tl.Name != "Brisa" || !reflect.DeepEqual(sessions, c.sessions) || !reflect.DeepEqual(notes, c.notes) || !gap {
			t.Errorf("%s's timeline: %s, sessions %v (want %v), notes %v (want %v), gaps %v", oraculo.RoleFrom(c.ctx), tl.Name, sessions, c.sessions, notes, c.notes, tl.Gaps)
		}
		if js, _ := json.Marshal(tl); oraculo.RoleFrom(c.ctx) == oraculo.RolePlayer && (strings.Contains(string(js), "DM/") || strings.Contains(string(js), "Quimera")) {
			t.Errorf("a player's timeline shows a DM-only note: %s", js)
		}
	}
}
