package snapshot_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/snapshot"
)

// TestPlayersPartLoadedApart: a snapshot loads what a player is given
// apart from the DM's, whichever is asked first: a session told only in
// the DM's folder, an entity named only there and a DM-only note's name
// never reach the player's part. The notes' languages are counted: an
// English question over English and Spanish notes is analysed in English.
func TestPlayersPartLoadedApart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	notes := map[string]string{
		"Sesiones/Sesion 1.md":  "# Sesión 1\n\nEl grupo llegó a Phandalin y habló con Harbin Wester en la posada.\n",
		"Sessions/Session 2.md": "# Session 2\n\nThe party rode north along the old road and camped near the ruined tower with Harbin Wester.\n",
		"DM/Sesion 9.md":        "# Sesión 9\n\nVermitrax, el dragón, espera en la torre: los jugadores no lo saben todavía.\n",
	}
	for name, text := range notes {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "o.db")
	eng, err := oraculo.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	eng.Close()
	for _, dmFirst := range []bool{true, false} {
		ix, err := index.Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		v, err := snapshot.Open(ctx, ix, "g", nil, snapshot.Options{})
		if err != nil {
			t.Fatal(err)
		}
		order := []bool{false, true}
		if !dmFirst {
			order = []bool{true, false}
		}
		got := map[bool][]int{}
		names := map[bool]string{}
		for _, player := range order {
			if got[player], err = v.Sessions(ctx, player); err != nil {
				t.Fatal(err)
			}
			dir, err := v.Notes(ctx, player)
			if err != nil {
				t.Fatal(err)
			}
			names[player], _ = dir.Resolve("Sesion 9")
		}
		if !slices.Contains(got[false], 9) || slices.Contains(got[true], 9) || !slices.Contains(got[true], 1) {
			t.Errorf("dm first %v: the DM's sessions %v, the players' %v", dmFirst, got[false], got[true])
		}
		if names[false] == "" || names[true] != "" {
			t.Errorf("dm first %v: the DM-only note resolves to %q for the DM, %q for a player", dmFirst, names[false], names[true])
		}
		if lang := v.QuestionAnalyzer("Where did the party camp near the tower?").Lang(); lang != "en" {
			t.Errorf("an English question is analysed in %q", lang)
		}
		ix.Close()
	}
}
