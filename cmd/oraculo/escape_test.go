package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rawControl finds the control characters a terminal would act on: any
// below the space but the line break (a tab only where tabwriter would not
// have put one), DEL and the C1 controls.
var rawControl = regexp.MustCompile("[\x00-\x09\x0b-\x1f\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]")

// A file name (and a heading, a passage) holding an escape sequence and a
// line break reaches the terminal escaped, in every human output of the
// CLI that shows it; JSON output carries it as it is.
func TestCLIEscapesControlCharacters(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	notes := t.TempDir()
	evil := "Villanos/Gr\x1b[31mim\nnor\u202e.md"
	writeNote(t, filepath.Join(notes, filepath.FromSlash(evil)), "# Grimnor \x1b]0;pwned\x07el oscuro\n\nGrimnor vende \x1b[2Jreliquias malditas en el puerto.\n")
	writeNote(t, filepath.Join(notes, "Sesiones", "Sesión 1.md"), "# Sesión 1\n\nGrimnor nos vendió reliquias malditas.\n")
	// Skipped files are listed by name.
	if err := os.WriteFile(filepath.Join(notes, "vac\x1b[5mío\n.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "o.db")

	out, errOut, code := runCLI(t, "", "ingest", "--db", db, notes)
	if code != 0 {
		t.Fatalf("ingest exit %d: %s", code, errOut)
	}
	check := func(what, out string, want ...string) {
		t.Helper()
		if loc := rawControl.FindStringIndex(out); loc != nil {
			t.Errorf("%s writes a raw %q to the terminal:\n%s", what, out[loc[0]:loc[1]], out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s does not show %s:\n%s", what, w, out)
			}
		}
	}
	shown := `Gr\x1b[31mim\nnor\u202e`
	check("ingest", out+errOut, `vac\x1b[5mío\n.md`)

	out, errOut, code = runCLI(t, "", "search", "--db", db, "reliquias malditas")
	if code != 0 {
		t.Fatalf("search exit %d: %s", code, errOut)
	}
	check("search", out+errOut, shown, `vende \x1b[2Jreliquias`)
	out, errOut, _ = runCLI(t, "", "chunks", "--db", db)
	check("chunks", out+errOut, shown, `Grimnor \x1b]0;pwned\x07el oscuro`)
	out, errOut, _ = runCLI(t, "", "ask", "--db", db, "¿Quién vende reliquias malditas?")
	check("ask", out+errOut, "Villanos/"+shown+".md", `vende \x1b`)
	out, errOut, _ = runCLI(t, "", "compendium", "--db", db)
	check("compendium", out+errOut)
	out, errOut, _ = runCLI(t, "", "stats", "--db", db)
	check("stats", out+errOut)

	// show, by the id search --json gives; JSON keeps the name as it is
	// (escaped by JSON itself).
	out, _, _ = runCLI(t, "", "search", "--db", db, "--json", "reliquias malditas")
	if !strings.Contains(out, `Gr\u001b[31mim\nnor`) {
		t.Errorf("search --json does not carry the name as it is:\n%s", out)
	}
	var res struct {
		Hits []struct{ ID, File string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, h := range res.Hits {
		if h.File == evil {
			id = h.ID
		}
	}
	if id == "" {
		t.Fatalf("search --json does not find %q:\n%s", evil, out)
	}
	out, errOut, _ = runCLI(t, "", "show", "--db", db, id)
	check("show", out+errOut, shown, `\x1b[2Jreliquias`)
}
