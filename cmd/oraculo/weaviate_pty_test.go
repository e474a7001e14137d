//go:build linux

package main

import (
	"os"
	"path/filepath"
	"testing"
)

func init() {
	// The terminal chat of an index in a cluster keeps no history file:
	// a question asked, recalled with arrow-up, and the chat left.
	clusterChat = func(t *testing.T, s sandbox, env []string, args ...string) {
		t.Helper()
		// The folder a SQLite index's history would go in is there, as it
		// is for someone who used SQLite here before: nothing goes in it.
		local := filepath.Join(s.work, ".oraculo")
		if err := os.Mkdir(local, 0o755); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := os.Remove(local); err != nil {
				t.Errorf("the chat wrote in %s: %v", local, err)
			}
		}()
		p := startPTYChatIn(t, s.work, append(s.env(env...), "ORACULO_CHAT_HISTORY="), args...)
		p.expect("Arrow-up")
		p.expect(chatPrompt)
		p.typeKeys("¿Quién es Vesper Quillon?\r")
		p.expect("Sources:")
		p.expect(chatPrompt)
		p.typeKeys("\x1b[A")
		p.expect("Vesper Quillon?")
		p.typeKeys("\x15\x04") // clear the line, then Ctrl-D
		if code := p.exited(); code != 0 {
			t.Errorf("chat on a terminal exited %d:\n%s", code, p.all())
		}
	}
}
