package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/store/storetest"
)

// TestCLIObsidianVault: ingest's summary says which notes an Obsidian
// vault's settings left out and why, in English and Spanish and in its
// JSON; --include-templates indexes the templates; a malformed settings
// file is a warning naming it.
func TestCLIObsidianVault(t *testing.T) {
	root := storetest.VaultNotes(t)
	db := filepath.Join(t.TempDir(), "o.db")
	t.Setenv("ORACULO_UI_LANG", "en")
	out, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", root)
	if code != 0 {
		t.Fatalf("ingest exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Left out by the vaults' Obsidian settings, 3 notes: templates (Plantillas/ ×1), excluded by Obsidian (Archivo/ ×1, /borrador/ ×1)\n",
		"  --include-templates indexes the templates; --include-excluded indexes Obsidian's excluded files.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	t.Setenv("ORACULO_UI_LANG", "es")
	out, _, code = runCLI(t, "", "ingest", "--db", db, "--quiet", "--json", root)
	var rep struct {
		Excluded []struct {
			Root, Reason, Rule string
			Notes              int
		} `json:"excluded"`
		Stats struct {
			Documents int `json:"documents"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("ingest --json: exit %d, %v:\n%s", code, err, out)
	}
	if len(rep.Excluded) != 3 || rep.Excluded[1].Reason != "obsidian-template" || rep.Excluded[1].Rule != "Plantillas/" || rep.Excluded[1].Notes != 1 || rep.Stats.Documents != 1 {
		t.Errorf("ingest --json: %+v", rep)
	}

	storetest.WriteFile(t, root, ".obsidian/app.json", `{"userIgnoreFilters": "Archivo/"}`)
	out, _, code = runCLI(t, "", "ingest", "--db", db, "--quiet", "--include-templates", root)
	for _, want := range []string{
		"4 archivos (3 indexados",
		".obsidian/app.json — un ajuste de Obsidian sin aplicar: \"userIgnoreFilters\": a JSON string where an array was expected; its excluded files are indexed like any other\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("ingest --include-templates with a malformed app.json lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Omitidas por la configuración de Obsidian") {
		t.Errorf("nothing left out, yet:\n%s", out)
	}
	out, _, _ = runCLI(t, "", "search", "--db", db, "zarzamora")
	if !strings.Contains(out, "Plantillas/Sesión.md") && !strings.Contains(out, "Plantillas: Sesión") {
		t.Errorf("the template is not found:\n%s", out)
	}
}
