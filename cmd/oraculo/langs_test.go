package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLINotesLanguages: ingest, stats (human and --json) and doctor say
// which languages were recognised in the notes, in the interface's
// language; --lang still chooses one for every note.
func TestCLINotesLanguages(t *testing.T) {
	notes := t.TempDir()
	for name, text := range map[string]string{
		"Sessions/Session 1.md": "# Session 1\n\nThe party reached the village and spoke with the mayor about the wolves.\n",
		"Sessions/Session 2.md": "# Session 2\n\nThey tracked the wolves to a cave in the hills, where they found the lost shepherd.\n",
		"Sesiones/Sesión 3.md":  "# Sesión 3\n\nEl grupo volvió a la aldea y el alcalde les pagó lo que les había prometido.\n",
	} {
		p := filepath.Join(notes, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "o.db")
	out, errOut, code := runCLI(t, "", "ingest", "--db", db, "--ui-lang", "en", notes)
	if code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	if want := "language auto (notes: 2 en, 1 es)"; !strings.Contains(out, want) {
		t.Errorf("ingest: missing %q in:\n%s", want, out)
	}
	out, _, _ = runCLI(t, "", "stats", "--db", db, "--ui-lang", "es")
	if want := "auto (notas: 2 en, 1 es)"; !strings.Contains(out, want) {
		t.Errorf("stats: missing %q in:\n%s", want, out)
	}
	out, _, _ = runCLI(t, "", "stats", "--json", "--db", db)
	var st struct {
		Langs    map[string]int `json:"langs"`
		Settings struct {
			Lang string `json:"lang"`
		} `json:"settings"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Langs["en"] != 2 || st.Langs["es"] != 1 || st.Settings.Lang != "auto" {
		t.Errorf("stats --json: %+v, %v in:\n%s", st, err, out)
	}
	t.Setenv("ORACULO_CHAT", "")
	out, _, _ = runCLI(t, "", "doctor", "--db", db, "--ui-lang", "en")
	if want := "✓ notes' language: recognised in each note: 2 en, 1 es"; !strings.Contains(out, want) {
		t.Errorf("doctor: missing %q in:\n%s", want, out)
	}
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", "--lang", "en", notes); code != 0 {
		t.Fatalf("ingest --lang en: %s", errOut)
	}
	out, _, _ = runCLI(t, "", "doctor", "--db", db, "--ui-lang", "en")
	if want := `every note analysed as "en" (--lang): 3 en`; !strings.Contains(out, want) {
		t.Errorf("doctor after --lang en: missing %q in:\n%s", want, out)
	}
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", "--lang", "fr", notes); code == 0 || !strings.Contains(errOut, `"fr"`) || !strings.Contains(errOut, "auto") {
		t.Errorf("ingest --lang fr: exit %d, %s", code, errOut)
	}
}
