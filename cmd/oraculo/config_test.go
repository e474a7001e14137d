package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestConfigFile: oraculo.yaml beside the index sets flags; a command's
// own section wins over the top; the command line wins over both; a bad
// value names the file and the key; an unknown key is named in a warning;
// a named file that is missing is an error.
func TestConfigFile(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CONFIG", "")
	dir := t.TempDir()
	db := filepath.Join(dir, "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", smallNotes(t)); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	cfg := filepath.Join(dir, ConfigFileName)
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hits := func(args ...string) (int, string) {
		t.Helper()
		out, errOut, code := runCLI(t, "", append([]string{"search", "--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("search %v: exit %d: %s", args, code, errOut)
		}
		return len(hitLine.FindAllString(out, -1)), errOut
	}
	all, _ := hits("puente Galerna archiduque Harbin")
	if all < 2 {
		t.Fatalf("the query finds %d hits, want several", all)
	}
	write("k: 1\n")
	if n, _ := hits("puente Galerna archiduque Harbin"); n != 1 {
		t.Errorf("k: 1 at the top: %d hits", n)
	}
	write("k: 1\nsearch:\n  k: 2\nask:\n  k: 5\n")
	if n, _ := hits("puente Galerna archiduque Harbin"); n != 2 {
		t.Errorf("search's own k: %d hits", n)
	}
	if n, _ := hits("--k", "1", "puente Galerna archiduque Harbin"); n != 1 {
		t.Errorf("the command line's k: %d hits", n)
	}
	write("k: 1\naddr: 0.0.0.0:9\n")
	if n, errOut := hits("puente Galerna archiduque Harbin"); n != 1 || errOut != "" {
		t.Errorf("a key of another command (addr, serve's) is left for it: %d hits, %q", n, errOut)
	}
	write("k: 1\nkk: 3\n")
	if _, errOut, code := runCLI(t, "", "search", "--db", db, "puente"); code != 2 || !strings.Contains(errOut, cfg+":2: ") || !strings.Contains(errOut, `"kk"`) {
		t.Errorf("a key no command has: exit %d, %q", code, errOut)
	}
	write("as: player\n")
	if _, errOut, code := runCLI(t, "", "search", "--db", db, "puente"); code != 2 || !strings.Contains(errOut, "--as") {
		t.Errorf("as in the file (read before it; a player's view must not become the DM's): exit %d, %q", code, errOut)
	}
	write("k: many\n")
	if _, errOut, code := runCLI(t, "", "search", "--db", db, "puente"); code != 2 || !strings.Contains(errOut, cfg) || !strings.Contains(errOut, "k:") {
		t.Errorf("a bad value: exit %d, %q", code, errOut)
	}
	write("k: [unclosed\n")
	if _, errOut, code := runCLI(t, "", "search", "--db", db, "puente"); code != 2 || !strings.Contains(errOut, cfg) {
		t.Errorf("a file that is not YAML: exit %d, %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "", "search", "--db", db, "--config", filepath.Join(dir, "none.yaml"), "puente"); code != 2 || !strings.Contains(errOut, "none.yaml") {
		t.Errorf("a named file that is missing: exit %d, %q", code, errOut)
	}
}

var hitLine = regexp.MustCompile(`(?m)^\s+\d+\. `)

// TestConfigKnownFlags keeps knownFlags equal to the flags every command
// has (as its -h lists them).
func TestConfigKnownFlags(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  --([a-z0-9-]+)`)
	found := map[string]bool{}
	for _, c := range [][]string{{"ingest"}, {"search"}, {"ask"}, {"chat"}, {"show"}, {"chunks"}, {"stats"}, {"eval"}, {"bench"},
		{"compendium", "list"}, {"compendium", "show"}, {"mcp"}, {"serve"}, {"doctor"}, {"token", "add"}, {"token", "list"}, {"token", "remove"}} {
		out, _, _ := runCLI(t, "", append(c, "-h")...)
		for _, m := range flagLine.FindAllStringSubmatch(out, -1) {
			found[m[1]] = true
		}
	}
	var missing, extra []string
	for f := range found {
		if !knownFlags[f] {
			missing = append(missing, f)
		}
	}
	for f := range knownFlags {
		if !found[f] {
			extra = append(extra, f)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Errorf("knownFlags lacks %v and has %v that no command has", missing, extra)
	}
}
