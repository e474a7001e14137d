package rerank

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/internal/golden"
)

// fakeModel is a chat.Model whose replies come from a function.
type fakeModel struct {
	reply func(ctx context.Context, req chat.Request) (string, error)
}

func (fakeModel) ID() string { return "fake/model" }

func (m fakeModel) Chat(ctx context.Context, req chat.Request, _ func(string)) (string, error) {
	return m.reply(ctx, req)
}

// replying is a model that always answers reply.
func replying(reply string) fakeModel {
	return fakeModel{reply: func(context.Context, chat.Request) (string, error) { return reply, nil }}
}

func TestLLMAppliesReply(t *testing.T) {
	cands := candidates(5)
	tests := []struct {
		name  string
		reply string
		n     int
		want  []int64
	}{
		{"plain", `{"ids": [3, 1]}`, 2, ids(cands, 2, 0, 1, 3, 4)},
		{"code fence", "```json\n{\"ids\": [3, 1]}\n```", 2, ids(cands, 2, 0, 1, 3, 4)},
		{"prose around", "Sure! Here is the ranking: {\"ids\":[3,1]} Hope it helps {x}.", 2, ids(cands, 2, 0, 1, 3, 4)},
		{"nested object", `{"answer": {"ids": [5, 4]}}`, 2, ids(cands, 4, 3, 0, 1, 2)},
		{"ids as strings", `{"ids": ["2", " 5 "]}`, 2, ids(cands, 1, 4, 0, 2, 3)},
		{"integral floats", `{"ids": [2.0, 5]}`, 2, ids(cands, 1, 4, 0, 2, 3)},
		{"fewer than asked: filled in fused order", `{"ids": [4]}`, 3, ids(cands, 3, 0, 1, 2, 4)},
		{"more than asked: cut", `{"ids": [5, 4, 3, 2]}`, 2, ids(cands, 4, 3, 0, 1, 2)},
		{"duplicates ignored", `{"ids": [2, 2, 5, 2, 1]}`, 3, ids(cands, 1, 4, 0, 2, 3)},
		{"n above the count: all", `{"ids": [5, 4, 3, 2, 1]}`, 10, ids(cands, 4, 3, 2, 1, 0)},
		{"n zero: all", `{"ids": [5, 4, 3, 2, 1]}`, 0, ids(cands, 4, 3, 2, 1, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := LLM{Model: replying(tt.reply)}.Rerank(context.Background(), "¿Quién cruzó el paso?", cands, tt.n)
			checkPermutation(t, r, cands)
			if !r.Reranked || r.Fallback != "" {
				t.Fatalf("Reranked = %v, Fallback = %q; want reranked", r.Reranked, r.Fallback)
			}
			if !slices.Equal(r.Order, tt.want) {
				t.Fatalf("Order = %v, want %v", r.Order, tt.want)
			}
		})
	}
}

func TestLLMFallsBackOnBadReply(t *testing.T) {
	cands := candidates(5)
	tests := []struct {
		name, reply, want string
	}{
		{"unknown id", `{"ids": [2, 17]}`, "unknown id 17"},
		{"unknown id after the first n", `{"ids": [2, 1, 3, 9]}`, "unknown id 9"},
		{"id zero", `{"ids": [0, 1]}`, "unknown id 0"},
		{"negative id", `{"ids": [-1]}`, "unknown id -1"},
		{"no JSON", "The third passage is the most useful.", "unparseable reply"},
		{"empty", "", "unparseable reply"},
		{"truncated", `{"ids": [3, 1`, "unparseable reply"},
		{"other key", `{"best": [3, 1]}`, "unparseable reply"},
		{"ids not a list", `{"ids": "3, 1"}`, "unparseable reply"},
		{"bare list", `[3, 1]`, "unparseable reply"},
		{"fractional id", `{"ids": [1.5]}`, "unparseable reply"},
		{"word id", `{"ids": ["three"]}`, "unparseable reply"},
		{"null id", `{"ids": [null]}`, "unparseable reply"},
		{"no ids", `{"ids": []}`, "no ids in reply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := LLM{Model: replying(tt.reply)}.Rerank(context.Background(), "¿Quién cruzó el paso?", cands, 2)
			checkFallback(t, r, cands, tt.want)
		})
	}
}

// checkFallback fails t unless r is the fused order of cands with reason.
func checkFallback(t *testing.T, r Result, cands []Candidate, reason string) {
	t.Helper()
	if r.Reranked || r.Fallback != reason {
		t.Fatalf("Reranked = %v, Fallback = %q; want the fused order because %q", r.Reranked, r.Fallback, reason)
	}
	if !slices.Equal(r.Order, Fused(cands).Order) {
		t.Fatalf("Order = %v, want the fused order %v", r.Order, Fused(cands).Order)
	}
}

func TestLLMMissingAnnotationNeverCallsTheModel(t *testing.T) {
	for _, blank := range []string{"", "  \n\t"} {
		var calls atomic.Int32
		m := fakeModel{reply: func(context.Context, chat.Request) (string, error) {
			calls.Add(1)
			return `{"ids": [2]}`, nil
		}}
		cands := candidates(6)
		cands[4].Annotation = blank
		r := LLM{Model: m}.Rerank(context.Background(), "¿Quién cruzó el paso?", cands, 3)
		checkFallback(t, r, cands, "missing annotations")
		if calls.Load() != 0 {
			t.Fatalf("the model was called %d times", calls.Load())
		}
	}
}

func TestLLMFewCandidatesNeverCallTheModel(t *testing.T) {
	m := fakeModel{reply: func(context.Context, chat.Request) (string, error) {
		t.Error("the model was called")
		return "", nil
	}}
	for _, n := range []int{0, 1} {
		cands := candidates(n)
		r := LLM{Model: m}.Rerank(context.Background(), "¿Quién?", cands, 8)
		checkFallback(t, r, cands, "")
	}
}

func TestLLMModelError(t *testing.T) {
	m := fakeModel{reply: func(context.Context, chat.Request) (string, error) {
		return "", fmt.Errorf("ollama at %q: %w", "http://127.0.0.1:11434", chat.ErrUnreachable)
	}}
	cands := candidates(4)
	r := LLM{Model: m}.Rerank(context.Background(), "¿Quién?", cands, 2)
	checkFallback(t, r, cands, `model error: ollama at "http://127.0.0.1:11434": chat server unreachable`)
}

func TestLLMNoModel(t *testing.T) {
	cands := candidates(4)
	r := LLM{}.Rerank(context.Background(), "¿Quién?", cands, 2)
	checkFallback(t, r, cands, "no model")
	if got := (LLM{}).Name(); got != "llm" {
		t.Fatalf("Name = %q", got)
	}
}

func TestLLMTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	models := map[string]fakeModel{
		"honours ctx": {reply: func(ctx context.Context, _ chat.Request) (string, error) {
			<-ctx.Done()
			return "", fmt.Errorf("%w: %w", chat.ErrUnreachable, ctx.Err())
		}},
		"ignores ctx": {reply: func(context.Context, chat.Request) (string, error) {
			<-release
			return `{"ids": [2]}`, nil
		}},
	}
	for name, m := range models {
		t.Run(name, func(t *testing.T) {
			cands := candidates(4)
			r := LLM{Model: m, Timeout: 30 * time.Millisecond}.Rerank(context.Background(), "¿Quién?", cands, 2)
			checkFallback(t, r, cands, "timeout")
			if r.Took < 30*time.Millisecond || r.Took > time.Second {
				t.Fatalf("Took = %v, want about the 30ms timeout", r.Took)
			}
		})
	}
}

func TestLLMCanceled(t *testing.T) {
	m := fakeModel{reply: func(ctx context.Context, _ chat.Request) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cands := candidates(4)
	r := LLM{Model: m}.Rerank(ctx, "¿Quién?", cands, 2)
	checkFallback(t, r, cands, "canceled")
}

func TestLLMDefaultTimeout(t *testing.T) {
	m := fakeModel{reply: func(ctx context.Context, _ chat.Request) (string, error) {
		deadline, ok := ctx.Deadline()
		if !ok {
			return "", errors.New("no deadline")
		}
		if left := time.Until(deadline); left < DefaultLLMTimeout-time.Second || left > DefaultLLMTimeout {
			return "", fmt.Errorf("deadline in %v", left)
		}
		return `{"ids": [1]}`, nil
	}}
	if r := (LLM{Model: m}).Rerank(context.Background(), "¿Quién?", candidates(3), 1); !r.Reranked {
		t.Fatalf("Fallback = %q", r.Fallback)
	}
}

func TestLLMPrompt(t *testing.T) {
	cands := candidates(6)
	for _, lang := range []string{"es", "en", ""} {
		t.Run("lang="+lang, func(t *testing.T) {
			var got chat.Request
			m := fakeModel{reply: func(_ context.Context, req chat.Request) (string, error) {
				got = req
				return `{"ids": [1]}`, nil
			}}
			LLM{Model: m, Lang: lang}.Rerank(context.Background(), "¿Qué pasó con el archiduque?", cands, 3)
			if !got.JSON || got.Temperature != 0 || got.MaxTokens <= 0 {
				t.Errorf("request JSON = %v, Temperature = %v, MaxTokens = %d", got.JSON, got.Temperature, got.MaxTokens)
			}
			if len(got.Messages) != 2 || got.Messages[0].Role != chat.RoleSystem || got.Messages[1].Role != chat.RoleUser {
				t.Fatalf("messages: %+v", got.Messages)
			}
			var all strings.Builder
			for _, msg := range got.Messages {
				all.WriteString(msg.Content + "\n")
			}
			prompt := all.String()
			for i, c := range cands {
				if line := fmt.Sprintf("[%d] %s\n", i+1, c.Annotation); !strings.Contains(prompt, line) {
					t.Errorf("prompt lacks %q", line)
				}
				if strings.Contains(prompt, c.Text) || strings.Contains(prompt, "TEXTO CRUDO") {
					t.Errorf("prompt shows the raw text of candidate %d", i+1)
				}
				if strings.Contains(prompt, c.Label) {
					t.Errorf("prompt shows the label %q", c.Label)
				}
				if strings.Contains(prompt, fmt.Sprint(c.ID)) {
					t.Errorf("prompt shows the chunk id %d", c.ID)
				}
			}
			if !strings.Contains(prompt, "¿Qué pasó con el archiduque?") || !strings.Contains(prompt, `"ids"`) {
				t.Errorf("prompt lacks the question or the reply format:\n%s", prompt)
			}
			wantWord, otherWord := "Question:", "Pregunta:"
			if lang == "es" {
				wantWord, otherWord = otherWord, wantWord
			}
			if !strings.Contains(prompt, wantWord) || strings.Contains(prompt, otherWord) {
				t.Errorf("prompt not in language %q:\n%s", lang, prompt)
			}
			if !strings.Contains(prompt, " 3 ") {
				t.Errorf("prompt does not ask for 3:\n%s", prompt)
			}
		})
	}
}

// TestLLMPromptGolden keeps the prompts in testdata, so that a change to
// them shows in review; go test -update rewrites the file.
func TestLLMPromptGolden(t *testing.T) {
	var out strings.Builder
	for _, lang := range []string{"es", "en"} {
		for _, k := range []int{2, 3} {
			fmt.Fprintf(&out, "=== lang %s, best %d of 3\n", lang, k)
			for _, m := range rerankPrompt(lang, "¿Qué pasó con el archiduque?", candidates(3), k) {
				fmt.Fprintf(&out, "--- %s\n%s\n", m.Role, m.Content)
			}
		}
	}
	golden.Check(t, "testdata/prompt.golden", []byte(out.String()))
}

func TestLLMPromptOneLinePerCandidate(t *testing.T) {
	cands := candidates(2)
	cands[0].Annotation = "  Llegan a\nla ciudad.\n\nPelean.  "
	msgs := rerankPrompt("es", "¿Quién?", cands, 1)
	if !strings.Contains(msgs[1].Content, "[1] Llegan a la ciudad. Pelean.\n[2] ") {
		t.Fatalf("annotation not on one line:\n%s", msgs[1].Content)
	}
}

func TestLLMName(t *testing.T) {
	if got := (LLM{Model: replying("")}).Name(); got != "llm/fake/model" {
		t.Fatalf("Name = %q", got)
	}
}
