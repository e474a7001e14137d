package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat/chattest"
)

// TestDoctor runs `oraculo doctor` against fake Ollama servers: one that
// answers, one without the model pulled, one down and one that stalls.
// Only the first exits 0; each failure says what to do, and the stalled
// one is given up at --timeout.
func TestDoctor(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CHAT", "")
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", "--embedder", "hashing", smallNotes(t)); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	up := chattest.NewOllama(t, func(chattest.Call) string { return "listo" })
	missing := chattest.NewOllama(t, func(chattest.Call) string { return "listo" })
	missing.SetModels("llama3.2:latest")
	slow := chattest.NewOllama(t, func(chattest.Call) string { return "listo" })
	slow.Fail(chattest.Fault{Delay: 5 * time.Second})
	for _, c := range []struct {
		name, url string
		code      int
		want      []string
	}{
		{"up", up.URL, 0, []string{"✓ index:", "2 notes", "✓ embeddings: hashing/", "✓ chat model: ollama/qwen2.5:7b answers", `"listo"`}},
		{"not pulled", missing.URL, 1, []string{"✗ chat model: model \"qwen2.5:7b\" is not pulled", "llama3.2:latest", "run: ollama pull qwen2.5:7b"}},
		{"down", "http://127.0.0.1:1", 1, []string{"✗ chat model: no Ollama at http://127.0.0.1:1", "ollama serve"}},
		{"slow", slow.URL, 1, []string{"✗ chat model:"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t0 := time.Now()
			out, errOut, code := runCLI(t, "", "doctor", "--db", db, "--chat", "ollama", "--chat-url", c.url, "--timeout", "500ms")
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in:\n%s", w, out)
				}
			}
			if took := time.Since(t0); took > 4*time.Second {
				t.Errorf("doctor took %v with a 500ms timeout", took)
			}
		})
	}
}
