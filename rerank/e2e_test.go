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

// TestLLMFallbacksThroughBothAPIs drives every fallback of the LLM
// reranker through the real clients of both chat APIs and their fake
// servers: the fused order comes back, whole, with the reason.
func TestLLMFallbacksThroughBothAPIs(t *testing.T) {
	servers := map[string]func(t *testing.T, reply func(chattest.Call) string) (*chattest.Server, chat.Model){
		"ollama": func(t *testing.T, reply func(chattest.Call) string) (*chattest.Server, chat.Model) {
			srv := chattest.NewOllama(t, reply)
			return srv, chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "m"})
		},
		"openai": func(t *testing.T, reply func(chattest.Call) string) (*chattest.Server, chat.Model) {
			srv := chattest.NewOpenAI(t, reply)
			return srv, chat.NewOpenAI(chat.OpenAIConfig{BaseURL: srv.URL, Model: "m"})
		},
	}
	tests := []struct {
		name     string
		reply    string
		fault    chattest.Fault
		annotate bool
		prefix   string
		calls    int
	}{
		{name: "missing annotation", reply: `{"ids":[2]}`, prefix: "missing annotation", calls: 0},
		{name: "unparseable reply", reply: "Los mejores son el segundo y el tercero.", annotate: true, prefix: "unparseable reply", calls: 1},
		{name: "unknown id", reply: `{"ids":[2, 99]}`, annotate: true, prefix: "unknown id 99", calls: 1},
		{name: "server error", reply: `{"ids":[2]}`, fault: chattest.Fault{Status: 500}, annotate: true, prefix: "model error: ", calls: -1},
		{name: "late model", reply: `{"ids":[2]}`, fault: chattest.Fault{Delay: 3 * time.Second}, annotate: true, prefix: "timeout", calls: -1},
		{name: "malformed body", reply: `{"ids":[2]}`, fault: chattest.Fault{Malformed: true}, annotate: true, prefix: "model error: ", calls: -1},
	}
	for api, start := range servers {
		for _, tt := range tests {
			t.Run(api+"/"+tt.name, func(t *testing.T) {
				srv, model := start(t, func(chattest.Call) string { return tt.reply })
				srv.Fail(tt.fault)
				cands := candidates(6)
				if !tt.annotate {
					cands[3].Annotation = ""
				}
				r := LLM{Model: model, Timeout: 300 * time.Millisecond}.Rerank(context.Background(), "¿Quién?", cands, 3)
				checkPermutation(t, r, cands)
				if r.Reranked || !strings.HasPrefix(r.Fallback, tt.prefix) || !slices.Equal(r.Order, Fused(cands).Order) {
					t.Fatalf("got %+v, want the fused order because %q…", r, tt.prefix)
				}
				if n := len(srv.Calls()); tt.calls >= 0 && n != tt.calls {
					t.Errorf("%d calls to the model, want %d", n, tt.calls)
				}
			})
		}
		t.Run(api+"/fewer ids than asked", func(t *testing.T) {
			_, model := start(t, func(chattest.Call) string { return `{"ids":[4]}` })
			cands := candidates(6)
			r := LLM{Model: model}.Rerank(context.Background(), "¿Quién?", cands, 3)
			checkPermutation(t, r, cands)
			if !r.Reranked || r.Order[0] != cands[3].ID || len(r.Order) != len(cands) {
				t.Fatalf("got %+v: the model's pick first, then the fused order, never fewer", r)
			}
		})
	}
}
