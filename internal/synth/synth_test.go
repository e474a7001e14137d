package synth

import (
	"strings"
	"testing"
)

func TestSessionIsDeterministicAndVaried(t *testing.T) {
	a, b := Session(7, 300), Session(7, 300)
	if a != b {
		t.Fatal("Session is not deterministic")
	}
	if !strings.HasPrefix(a, "## Sesión 7 — ") {
		t.Fatalf("no session header: %q", a[:40])
	}
	n := len(strings.Fields(a))
	if n < 250 || n > 380 {
		t.Fatalf("session has %d words, want about 300", n)
	}
	distinct := map[string]bool{}
	for _, w := range strings.Fields(a) {
		distinct[w] = true
	}
	if len(distinct) < n/4 {
		t.Fatalf("only %d distinct words of %d: vocabulary too small", len(distinct), n)
	}
	if again := Name(3); Name(3) == Name(4) || Name(3) != again {
		t.Fatal("names not distinct or not stable")
	}
}
