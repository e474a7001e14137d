package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestCLITimeline: oraculo timeline over the sample, by an alias, in
// Spanish and English and as JSON; an unknown name exits 1 offering the
// nearest, no name exits 2; with --as player, nothing of a DM-only note.
func TestCLITimeline(t *testing.T) {
	db := filepath.Join(t.TempDir(), "o.db")
	if out, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", "../../examples/campaign"); code != 0 {
		t.Fatalf("ingest: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := runCLI(t, "", "timeline", "--db", db, "--ui-lang", "es", "el", "caballero", "gris")
	if code != 0 || !strings.HasPrefix(out, "Sir Alvar Duranza (npc): ") || !strings.Contains(out, "\nsesión 3 — ") || !strings.Contains(out, "ausente ") || !strings.Contains(out, "DM/El traidor.md") {
		t.Errorf("timeline (es): exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = runCLI(t, "", "timeline", "--db", db, "--ui-lang", "en", "ALVAR")
	if code != 0 || !strings.Contains(out, "\nsession 3 — ") || !strings.Contains(out, "absent for ") || !strings.Contains(out, "sessions, from session 3 to") {
		t.Errorf("timeline (en): exit %d\n%s", code, out)
	}
	out, errOut, code = runCLI(t, "", "timeline", "--db", db, "--json", "--as", "player", "Sir Alvar")
	var tl oraculo.Timeline
	if err := json.Unmarshal([]byte(out), &tl); err != nil || code != 0 {
		t.Fatalf("timeline --json: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if tl.Name != "Sir Alvar Duranza" || len(tl.Sessions) == 0 || strings.Contains(out, "DM/") || strings.Contains(out, "traidor") {
		t.Errorf("a player's timeline: %s", out)
	}
	_, errOut, code = runCLI(t, "", "timeline", "--db", db, "--ui-lang", "es", "Alvar", "Durranza")
	if code != 1 || !strings.Contains(errOut, `ninguna entidad se llama "Alvar Durranza"`) || !strings.Contains(errOut, "¿querías decir Sir Alvar Duranza?") {
		t.Errorf("unknown name: exit %d\n%s", code, errOut)
	}
	if _, errOut, code = runCLI(t, "", "timeline", "--db", db, "--ui-lang", "en"); code != 2 || !strings.Contains(errOut, "timeline needs a name") {
		t.Errorf("no name: exit %d\n%s", code, errOut)
	}
}
