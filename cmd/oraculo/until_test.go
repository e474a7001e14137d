package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIUntilSession: --until-session restricts search and ask to the
// sessions up to N (the NPC note is of no session), the analysis in
// --json shows it, and the human output says "as of session N" when the
// question asked for it; a negative value is a usage error.
func TestCLIUntilSession(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	notes := smallNotes(t)
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", notes); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	out, errOut, code := runCLI(t, "", "search", "--db", db, "--json", "--until-session", "1", "mapa archiduque puente tabernero")
	if code != 0 {
		t.Fatalf("search: %d %s", code, errOut)
	}
	var r struct {
		Hits []struct {
			Session *int `json:"session"`
			Label   string
		} `json:"hits"`
		Analysis struct {
			Filters map[string]any `json:"filters"`
		} `json:"analysis"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(r.Hits) == 0 || r.Analysis.Filters["until_session"] != 1.0 {
		t.Errorf("search --until-session 1: %s", out)
	}
	for _, h := range r.Hits {
		if h.Session == nil || *h.Session > 1 {
			t.Errorf("search --until-session 1 found %s", h.Label)
		}
	}
	out, _, code = runCLI(t, "", "search", "--db", db, "What did we know about the bridge as of session 1?")
	if code != 0 || !strings.Contains(out, "as of session 1") {
		t.Errorf("the human output does not say as of session 1 (%d):\n%s", code, out)
	}
	out, errOut, code = runCLI(t, "", "ask", "--db", db, "--json", "--chat", "none", "--until-session", "1", "¿Quién vende mapas?")
	if code != 0 || strings.Contains(out, "NPCs/") {
		t.Errorf("ask --until-session 1 used the NPC note (%d, %s):\n%s", code, errOut, out)
	}
	if _, errOut, code = runCLI(t, "", "search", "--db", db, "--until-session", "-2", "x"); code != 2 || !strings.Contains(errOut, "--until-session") {
		t.Errorf("a negative --until-session: %d %s", code, errOut)
	}
}
