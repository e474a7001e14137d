package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestChatContinuesInTime: in the terminal chat over the sample, "¿y
// después?" after an answer citing sessions up to N cites only sessions
// after N: the chat keeps the sessions each answer cited.
func TestChatContinuesInTime(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CHAT", "")
	campaign, err := filepath.Abs("../../examples/campaign")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", "--embedder", "hashing", campaign); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	out, errOut, code := runCLI(t, "¿Qué hizo Tobías con el pañuelo de Anika en la sesión 7?\n¿y después?\n/exit\n", "chat", "--db", db)
	if code != 0 {
		t.Fatalf("chat: exit %d %s", code, errOut)
	}
	// The chat's prompt opens each answer.
	turns := strings.Split(out, "\n› ")
	if len(turns) < 3 || !strings.Contains(turns[2], "searched as:") {
		t.Fatalf("the follow-up was not searched as one:\n%s", out)
	}
	first, second := turns[1], turns[2]
	label := regexp.MustCompile(`\[Sesión (\d+)`)
	sessions := func(s string) []int {
		var out []int
		for _, m := range label.FindAllStringSubmatch(s, -1) {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		}
		return out
	}
	before, after := sessions(first), sessions(second)
	if len(before) == 0 || len(after) == 0 {
		t.Fatalf("sessions cited %v then %v:\n%s", before, after, out)
	}
	for _, n := range after {
		if n <= slices.Max(before) {
			t.Errorf("\"¿y después?\" after sessions %v cites session %d:\n%s", before, n, second)
		}
	}
}
