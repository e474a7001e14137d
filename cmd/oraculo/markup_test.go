package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// markupDB ingests notes written the Obsidian way (wikilinks, a
// highlight, a footnote, a tag) and returns the index.
func markupDB(t *testing.T) string {
	dir := t.TempDir()
	writeNote(t, filepath.Join(dir, "Sesiones", "Sesion 3.md"), "# Sesión 3\n\n"+
		"[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]] llegó a [[Phandalin]] con ==la espada negra==[^1]. #combate\n\n"+
		"[^1]: La espada de [[NPCs/Kleb.md]].\n")
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", dir); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	return db
}

// The CLI shows the notes as their reader sees them: ask (text and
// --json), search and the chat's /open show no raw markup.
func TestCLIRendersMarkup(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "es")
	t.Setenv("ORACULO_CHAT", "")
	t.Setenv("NO_COLOR", "1")
	db := markupDB(t)
	const q = "¿Con qué llegó Ser Morcant a Phandalin?"
	const want = "Ser Morcant llegó a Phandalin con la espada negra."
	bad := []string{"[[", "((", "==", "(^", "[^", "#combate", "Gloomy"}
	check := func(what, out string, wants ...string) {
		t.Helper()
		for _, b := range bad {
			if strings.Contains(out, b) {
				t.Errorf("%s shows %q:\n%s", what, b, out)
			}
		}
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %q:\n%s", what, w, out)
			}
		}
	}

	out, errOut, code := runCLI(t, "", "ask", "--db", db, q)
	if code != 0 {
		t.Fatalf("ask: exit %d: %s", code, errOut)
	}
	check("ask", out, want)

	out, errOut, code = runCLI(t, "", "ask", "--db", db, "--json", q)
	if code != 0 {
		t.Fatalf("ask --json: exit %d: %s", code, errOut)
	}
	var a struct {
		Answer    string `json:"answer"`
		Citations []struct {
			Valid bool `json:"valid"`
		} `json:"citations"`
		Evidence []struct {
			Text string `json:"text"`
		} `json:"evidence"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Citations) == 0 || !a.Citations[0].Valid || len(a.Evidence) == 0 {
		t.Fatalf("ask --json: want a valid citation and evidence: %s", out)
	}
	check("ask --json answer", a.Answer, want)
	check("ask --json evidence", a.Evidence[0].Text, want, "La espada de Kleb.")

	out, errOut, code = runCLI(t, "", "search", "--db", db, "espada negra Ser Morcant")
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, errOut)
	}
	check("search", out, "Ser Morcant llegó a Phandalin")

	out, errOut, code = runCLI(t, q+"\n/open 1\n", "chat", "--db", db)
	if code != 0 {
		t.Fatalf("chat: exit %d: %s", code, errOut)
	}
	check("chat /open", out, "Ser Morcant llegó", "La espada de Kleb.")
}
