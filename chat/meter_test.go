package chat_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

// TestMeter: a Meter sums the counts the server reports for each call,
// whole or streamed, and estimates them when it reports none; a call
// that failed with no reply is not counted; the caller's OnUsage still
// hears the server.
func TestMeter(t *testing.T) {
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, func(c chattest.Call) string { return "Los arévacos fundaron Numancia." })
		m := chat.NewMeter(p.model(srv, tuning{}))
		if m.ID() != "ollama/m" && m.ID() != "openai/m" {
			t.Errorf("ID = %q", m.ID())
		}
		var heard []chat.Usage
		req := question
		req.OnUsage = func(u chat.Usage) { heard = append(heard, u) }
		for _, stream := range []bool{false, true} {
			var onDelta func(string)
			if stream {
				onDelta = func(string) {}
			}
			if _, err := m.Chat(t.Context(), req, onDelta); err != nil {
				t.Fatal(err)
			}
		}
		var want chat.Usage
		for _, c := range srv.Calls() {
			prompt, completion := chattest.ByteCounts(c, "Los arévacos fundaron Numancia.")
			want.PromptTokens += prompt
			want.CompletionTokens += completion
		}
		if got := m.Total(); got != (chat.Metered{Usage: want, Calls: 2}) || len(heard) != 2 {
			t.Errorf("reported: Total = %+v, want %+v; OnUsage heard %+v", got, want, heard)
		}

		srv.Counts(nil)
		srv.Fail(chattest.Fault{Status: http.StatusBadRequest, Times: 1})
		if _, err := m.Chat(t.Context(), question, nil); err == nil {
			t.Fatal("a failed call did not fail")
		}
		if _, err := m.Chat(t.Context(), question, func(string) {}); err != nil {
			t.Fatal(err)
		}
		est := chat.Estimate(question.Messages, "Los arévacos fundaron Numancia.")
		want.PromptTokens += est.PromptTokens
		want.CompletionTokens += est.CompletionTokens
		if got := m.Total(); got != (chat.Metered{Usage: want, Calls: 3, Estimated: true}) {
			t.Errorf("estimated: Total = %+v, want %+v in 3 calls", got, want)
		}
	})
}

// TestMeterConcurrent: calls made at once are all counted.
func TestMeterConcurrent(t *testing.T) {
	srv := chattest.NewOllama(t, nil)
	m := chat.NewMeter(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "m"}))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := m.Chat(t.Context(), question, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	prompt, completion := chattest.ByteCounts(srv.Calls()[0], "ok")
	if got := m.Total(); got != (chat.Metered{Usage: chat.Usage{PromptTokens: 8 * prompt, CompletionTokens: 8 * completion}, Calls: 8}) {
		t.Errorf("Total = %+v, want 8 calls of %d and %d", got, prompt, completion)
	}
}
