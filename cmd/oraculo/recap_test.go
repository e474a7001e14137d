package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// storyNotes are two sessions, the first with a task and an attendance
// line, and a DM-only note with a task and a session of its own.
func storyNotes(t *testing.T) string {
	dir := smallNotes(t)
	writeNote(t, filepath.Join(dir, "Sesiones", "Sesion 3.md"), "# Sesión 3\n\nJugadores: Marta (Lyra), Javi (Dorn).\n\nHarbin Wester les vende un mapa del puente de Galerna.\n\n- [ ] Averiguar quién pagó a Harbin Wester\n")
	writeNote(t, filepath.Join(dir, "DM", "Sesion 4.md"), "# Sesión 4\n\nEl archimago Zoltan Quimera compra el puente.\n\n- [ ] Preparar a Zoltan Quimera\n")
	return dir
}

// storyIndex is the index of storyNotes, its messages in English.
func storyIndex(t *testing.T) string {
	t.Setenv("ORACULO_UI_LANG", "en")
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", storyNotes(t)); code != 0 {
		t.Fatal(errOut)
	}
	return db
}

func TestCLIRecap(t *testing.T) {
	db := storyIndex(t)
	out, _, code := runCLI(t, "", "recap", "--db", db)
	if code != 0 || !strings.HasPrefix(out, "Session 4") || !strings.Contains(out, "Zoltan Quimera") {
		t.Errorf("the DM's recap of the last session: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "", "recap", "--db", db, "--as", "player", "--ui-lang", "es")
	if code != 0 || !strings.HasPrefix(out, "Sesión 3") || strings.Contains(out, "Zoltan") || strings.Contains(out, "Marta") ||
		!strings.Contains(out, "Qué pasó:") || !strings.Contains(out, "Quedó abierto:") || !strings.Contains(out, "Averiguar quién pagó a Harbin Wester") {
		t.Errorf("a player's recap of the last session they may see: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "", "recap", "1", "--db", db, "--json")
	var r struct {
		Session int `json:"session"`
		Events  []struct {
			Text string `json:"text"`
			ID   string `json:"id"`
		} `json:"events"`
		Open []any `json:"open"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Session != 1 || len(r.Events) == 0 || r.Events[0].ID == "" || r.Open == nil {
		t.Errorf("recap 1 --json: exit %d %+v\n%s", code, r, out)
	}
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"recap", "4", "--as", "player"}, 1, "no session 4"},
		{[]string{"recap", "9"}, 1, "no session 9"},
		{[]string{"recap", "uno"}, 2, `"uno" is not a session number`},
		{[]string{"recap", "1", "2"}, 2, "at most one session"},
	} {
		if _, errOut, code := runCLI(t, "", append(c.args, "--db", db)...); code != c.code || !strings.Contains(errOut, c.err) {
			t.Errorf("%v: exit %d %q, want %d and %q", c.args, code, errOut, c.code, c.err)
		}
	}
}

func TestCLIThreads(t *testing.T) {
	db := storyIndex(t)
	out, _, code := runCLI(t, "", "threads", "--db", db)
	if code != 0 || !strings.Contains(out, "Preparar a Zoltan Quimera") || !strings.Contains(out, "Averiguar quién pagó") || !strings.Contains(out, "last session 4") {
		t.Errorf("the DM's threads: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "", "threads", "--db", db, "--as", "player", "--json", "--quiet", "1")
	var th struct {
		Quiet   int `json:"quiet_sessions"`
		Last    int `json:"last_session"`
		Threads []struct {
			Kind  string `json:"kind"`
			Title string `json:"title"`
		} `json:"threads"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &th) != nil || th.Quiet != 1 || th.Last != 3 || len(th.Threads) == 0 || strings.Contains(out, "Zoltan") {
		t.Errorf("a player's threads --json --quiet 1: exit %d %+v\n%s", code, th, out)
	}
	if _, errOut, code := runCLI(t, "", "threads", "--db", db, "--quiet", "0"); code != 2 || !strings.Contains(errOut, "--quiet") {
		t.Errorf("--quiet 0: exit %d %q", code, errOut)
	}
}
