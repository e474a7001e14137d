package rerank

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	_ "github.com/oraculo/oraculo/internal/golden" // accepts -update
)

// TestLLMThroughOllama reranks through the real Ollama client and a fake
// Ollama server: the model finds the candidate whose annotation names the
// archduke by the number the prompt gives it.
func TestLLMThroughOllama(t *testing.T) {
	cands := candidates(12)
	cands[7].Annotation = "El archiduque traiciona al grupo y huye hacia el norte."
	line := regexp.MustCompile(`(?m)^\[(\d+)\] El archiduque`)
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		m := line.FindStringSubmatch(c.Text(chat.RoleUser))
		if m == nil {
			t.Errorf("prompt does not list the archduke's annotation:\n%s", c.Text(chat.RoleUser))
			return `{"ids": []}`
		}
		return fmt.Sprintf("```json\n{\"ids\": [%s, 1]}\n```", m[1])
	})
	model := chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "qwen2.5:14b"})
	r := LLM{Model: model, Lang: "es"}.Rerank(context.Background(), "¿Qué pasó con el archiduque?", cands, 8)
	checkPermutation(t, r, cands)
	if !r.Reranked || r.Fallback != "" {
		t.Fatalf("Reranked = %v, Fallback = %q", r.Reranked, r.Fallback)
	}
	if want := ids(cands, 7, 0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11); !slices.Equal(r.Order, want) {
		t.Fatalf("Order = %v, want %v", r.Order, want)
	}

	calls := srv.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d calls to the model, want 1", len(calls))
	}
	if !calls[0].JSON || calls[0].Temperature != 0 || calls[0].Model != "qwen2.5:14b" {
		t.Errorf("call: JSON %v, temperature %v, model %q", calls[0].JSON, calls[0].Temperature, calls[0].Model)
	}
	if prompt := calls[0].Text(chat.RoleUser); strings.Contains(prompt, "TEXTO CRUDO") {
		t.Errorf("the prompt shows raw text:\n%s", prompt)
	}
	if r.Took <= 0 {
		t.Errorf("Took = %v", r.Took)
	}
}

func TestLLMThroughOllamaFallbacks(t *testing.T) {
	tests := []struct {
		name   string
		fault  chattest.Fault
		prefix string
	}{
		{"stalled server", chattest.Fault{Stall: true}, "timeout"},
		{"slow server", chattest.Fault{Delay: 5 * time.Second}, "timeout"},
		{"model not pulled", chattest.Fault{Status: 404}, "model error: "},
		{"dropped connection", chattest.Fault{Drop: true}, "model error: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := chattest.NewOllama(t, func(chattest.Call) string { return `{"ids": [2]}` })
			srv.Fail(tt.fault)
			model := chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "qwen2.5:14b"})
			cands := candidates(5)
			r := LLM{Model: model, Timeout: 100 * time.Millisecond}.Rerank(context.Background(), "¿Quién?", cands, 2)
			if r.Reranked || !strings.HasPrefix(r.Fallback, tt.prefix) || !slices.Equal(r.Order, Fused(cands).Order) {
				t.Fatalf("got %+v, want the fused order because %q…", r, tt.prefix)
			}
			t.Logf("Fallback: %s", r.Fallback)
			if r.Took > 2*time.Second {
				t.Fatalf("Took = %v with a 100ms timeout", r.Took)
			}
		})
	}
}
