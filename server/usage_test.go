package server

import (
	"context"
	"math"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/internal/tokens"
)

// usageQuestion finds evidence across many sessions of the sample
// campaign: its answer's model call carries 8 full chunks.
const usageQuestion = "¿Qué le pasó a Lyra en las sesiones de la campaña?"

// usageSetup serves the sample campaign, ingested into a SQLite index
// in t.TempDir(), answered by a fake chat server (Ollama's or an
// OpenAI-style one) that records what it was sent and writes a reply
// that cites the first evidence.
func usageSetup(t *testing.T, openAI bool) (*httptest.Server, *chattest.Server) {
	t.Helper()
	ctx := context.Background()
	db := t.TempDir() + "/o.db"
	ingester, err := oraculo.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ingester.Close() })
	if _, err := ingester.Ingest(ctx, []string{"../examples/campaign"}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	reply := func(c chattest.Call) string {
		if c.JSON {
			return `{"ids":[]}` // the reranker's call: keep the fused order
		}
		return "Lyra cruzó el puente y siguió al grupo [Sesión 35]."
	}
	var srv *chattest.Server
	var model chat.Model
	if openAI {
		srv = chattest.NewOpenAI(t, reply)
		model = chat.NewOpenAI(chat.OpenAIConfig{BaseURL: srv.URL, Model: "fake"})
	} else {
		srv = chattest.NewOllama(t, reply)
		model = chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"})
	}
	eng, err := oraculo.Open(ctx, db, oraculo.WithChatModel(model))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	ts, _ := testServer(t, Config{Engine: eng})
	return ts, srv
}

// usageBody asks usageQuestion of model: whole and in detail (the Answer
// comes back), or streamed with the usage asked for.
func usageBody(model string, stream bool) map[string]any {
	body := map[string]any{
		"model": model, "stream": stream,
		"messages": []map[string]any{{"role": "user", "content": usageQuestion}},
	}
	if stream {
		body["stream_options"] = map[string]any{"include_usage": true}
	} else {
		body["oraculo"] = map[string]any{"detail": true}
	}
	return body
}

// askUsage asks through POST /v1/chat/completions and returns the usage
// and the Answer the reply carries (none when streamed: the Answer of 8
// chunks is too long for a stream's line).
func askUsage(t *testing.T, ts *httptest.Server, model string, stream bool) (usage, *oraculo.Answer) {
	t.Helper()
	resp, data := call(t, ts, "POST", "/v1/chat/completions", "", usageBody(model, stream))
	wantStatus(t, resp, data, 200)
	if !stream {
		c := decodeJSON[completionBody](t, data)
		if c.Usage == nil || c.Oraculo == nil {
			t.Fatalf("no usage or no Answer: %s", data)
		}
		return *c.Usage, c.Oraculo
	}
	chunks, errs, done := readChunks(t, data)
	if !done || len(errs) > 0 || len(chunks) < 3 {
		t.Fatalf("stream: %s", data)
	}
	last := chunks[len(chunks)-1]
	if len(last.Choices) != 0 || last.Usage == nil {
		t.Fatalf("the usage chunk %+v", last)
	}
	return *last.Usage, nil
}

// sent counts with the tokenizer what the calls sent (every message's
// content) and what came back.
func sent(calls []chattest.Call, reply func(chattest.Call) string) (prompt, completion int) {
	for _, c := range calls {
		for _, m := range c.Messages {
			prompt += tokens.Count(m.Content)
		}
		completion += tokens.Count(reply(c))
	}
	return prompt, completion
}

func within(got, want int, tolerance float64) bool {
	return math.Abs(float64(got-want)) <= tolerance*float64(want)
}

// TestUsageTokens: the usage of an answer whose model call carries 8
// full chunks is the tokens of everything sent to the model (system
// prompt, evidence, question, the reranker's call too) and of what it
// wrote: the server's own counts when it reports them, else within 15% of
// a tokenizer count of the messages the server received. Extractive: no
// model tokens.
func TestUsageTokens(t *testing.T) {
	for _, provider := range []string{"ollama", "openai"} {
		t.Run(provider, func(t *testing.T) {
			ts, srv := usageSetup(t, provider == "openai")
			replyOf := func(c chattest.Call) string {
				if c.JSON {
					return `{"ids":[]}`
				}
				return "Lyra cruzó el puente y siguió al grupo [Sesión 35]."
			}
			for _, stream := range []bool{false, true} {
				// A server that reports no counts: Oráculo's estimate.
				srv.Counts(nil)
				before := len(srv.Calls())
				u, a := askUsage(t, ts, ModelID, stream)
				calls := srv.Calls()[before:]
				if !stream {
					checkEightChunks(t, a, calls)
					if a.Usage.PromptTokens != u.PromptTokens || a.Usage.Calls != len(calls) || a.Usage.Source != u.Source {
						t.Errorf("the Answer's usage %+v, the reply's %+v, %d calls", a.Usage, u, len(calls))
					}
				}
				prompt, completion := sent(calls, replyOf)
				if u.Unit != "tokens" || u.Source != "estimate" || !within(u.PromptTokens, prompt, 0.15) ||
					!within(u.CompletionTokens, completion, 0.15) || u.TotalTokens != u.PromptTokens+u.CompletionTokens {
					t.Errorf("stream %v, estimated: usage %+v; the tokenizer counts %d sent in %d calls, %d written", stream, u, prompt, len(calls), completion)
				}

				// A server that counts with its own tokenizer (here: 10% more
				// tokens than cl100k_base): its counts, summed over the calls.
				own := func(c chattest.Call, reply string) (int, int) {
					p, w := chattest.TokenCounts(c, reply)
					return p * 11 / 10, w + 1
				}
				srv.Counts(own)
				before = len(srv.Calls())
				u, _ = askUsage(t, ts, ModelID, stream)
				wantPrompt, wantCompletion := 0, 0
				for _, c := range srv.Calls()[before:] {
					p, w := own(c, replyOf(c))
					wantPrompt, wantCompletion = wantPrompt+p, wantCompletion+w
				}
				if u != (usage{PromptTokens: wantPrompt, CompletionTokens: wantCompletion, TotalTokens: wantPrompt + wantCompletion, Unit: "tokens", Source: "model"}) {
					t.Errorf("stream %v, reported: usage %+v, the server reported %d and %d", stream, u, wantPrompt, wantCompletion)
				}

				// Extractive: the model is not called, no model tokens.
				before = len(srv.Calls())
				u, a = askUsage(t, ts, ModelIDExtractive, stream)
				if n := len(srv.Calls()) - before; n != 0 || u != (usage{Unit: "tokens", Source: "none"}) || (a != nil && a.Usage != (oraculo.Usage{Source: "none"})) {
					t.Errorf("stream %v, extractive: usage %+v, %d model calls", stream, u, n)
				}
			}
		})
	}
}

// checkEightChunks fails unless the answer delivered 8 full chunks and
// the generation call carried each.
func checkEightChunks(t *testing.T, a *oraculo.Answer, calls []chattest.Call) {
	t.Helper()
	if a.Context.Full != 8 || a.Mode != "generated" {
		t.Fatalf("the answer delivered %d full chunks (mode %s), want 8 (generated)", a.Context.Full, a.Mode)
	}
	var gen *chattest.Call
	for i, c := range calls {
		if !c.JSON {
			gen = &calls[i]
		}
	}
	if gen == nil {
		t.Fatalf("no generation call among %d", len(calls))
	}
	for _, ev := range a.Evidence[:8] {
		if !strings.Contains(gen.Text(chat.RoleUser)+gen.Text(chat.RoleSystem), ev.Label) {
			t.Errorf("the generation call did not carry %q", ev.Label)
		}
	}
}
