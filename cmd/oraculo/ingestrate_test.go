package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat/chattest"
)

// TestAnnotationRate: annotating chunks with a chat model shows its rate
// in chunks a second once there is one to measure, never in MB/s (it reads
// no bytes: "0.0 MB/s" was all it could say), in English and Spanish.
func TestAnnotationRate(t *testing.T) {
	t.Setenv("ORACULO_CHAT", "")
	srv := chattest.NewOllama(t, func(chattest.Call) string {
		time.Sleep(150 * time.Millisecond) // three chunks, one at a time: past the first quarter second
		return "Un fragmento de la campaña."
	})
	for ui, want := range map[string][2]string{"en": {"annotating: ", " chunks/s"}, "es": {"anotando: ", " fragmentos/s"}} {
		db := filepath.Join(t.TempDir(), "o.db")
		_, errOut, code := runCLI(t, "", "ingest", "--db", db, "--ui-lang", ui, "--chat", "ollama", "--chat-url", srv.URL,
			"--chat-model", "fake", "--annotate-workers", "1", smallNotes(t))
		if code != 0 {
			t.Fatalf("ingest (%s): exit %d\n%s", ui, code, errOut)
		}
		var lines []string
		for _, l := range strings.Split(errOut, "\n") {
			if strings.HasPrefix(l, want[0]) {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 || !strings.HasSuffix(lines[len(lines)-1], want[1]) || strings.Contains(strings.Join(lines, "\n"), "MB/s") {
			t.Errorf("annotation progress (%s), want a last line ending %q and no MB/s:\n%s", ui, want[1], errOut)
		}
	}
}
