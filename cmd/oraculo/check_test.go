package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/story"
	"github.com/oraculo/oraculo/story/storytest"
)

// continuityIndex ingests storytest.Continuity.
func continuityIndex(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	notes := storytest.Write(t, dir, storytest.Continuity)
	db := filepath.Join(dir, "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", notes); code != 0 {
		t.Fatalf("ingest exit %d: %s", code, errOut)
	}
	return db
}

func TestCheckCommand(t *testing.T) {
	db := continuityIndex(t)
	for _, c := range []struct {
		as    string
		pairs int
	}{{"dm", 3}, {"player", 1}} {
		out, errOut, code := runCLI(t, "", "check", "--db", db, "--as", c.as, "--chat", "none", "--json")
		if code != 0 {
			t.Fatalf("check --as %s: exit %d: %s", c.as, code, errOut)
		}
		var res story.Continuity
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("check --json is not JSON: %v\n%s", err, out)
		}
		if len(res.Contradictions) != c.pairs {
			t.Fatalf("check --as %s: %s", c.as, out)
		}
		if x := res.Contradictions[c.pairs-1]; *x.First.Session != 2 || *x.Second.Session < 3 {
			t.Fatalf("check --as %s: %s", c.as, out)
		}
		for _, secret := range storytest.Secrets {
			if c.as == "player" && strings.Contains(out, secret) {
				t.Errorf("a player's check holds %q: %s", secret, out)
			}
		}
	}
	for lang, want := range map[string][]string{
		"en": {"Garrik Tresdedos\n", "said to be gone, later acting · not judged", "[Sesión 2] Un virote desde un tejado: Garrik Tresdedos ha muerto en el puente.", "[Sesión 3] En la taberna"},
		"es": {"Garrik Tresdedos\n", "dado por muerto o ido, y luego actúa · sin juzgar", "[Sesión 3] En la taberna"},
	} {
		out, errOut, code := runCLI(t, "", "check", "--db", db, "--as", "player", "--chat", "none", "--ui-lang", lang)
		if code != 0 {
			t.Fatalf("check: exit %d: %s", code, errOut)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("check (%s) lacks %q:\n%s", lang, w, out)
			}
		}
	}
}

// With --chat, each pair is judged by the model, once: a second run reads
// the verdict kept in the index.
func TestCheckCommandJudges(t *testing.T) {
	db := continuityIndex(t)
	srv := chattest.NewOllama(t, func(chattest.Call) string {
		return `{"verdict": "contradiction", "reason": "Garrik murió en la sesión 2 y brinda en la 3."}`
	})
	args := []string{"check", "--db", db, "--as", "player", "--chat", "ollama", "--chat-url", srv.URL, "--chat-model", "juez", "--ui-lang", "es"}
	for run := 0; run < 2; run++ {
		out, errOut, code := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(out, "contradicción (modelo de chat)") || !strings.Contains(out, "brinda en la 3") {
			t.Fatalf("run %d: exit %d: %s%s", run, code, out, errOut)
		}
	}
	if n := len(srv.Calls()); n != 1 {
		t.Errorf("%d calls to the model for one pair over two runs", n)
	}
}
