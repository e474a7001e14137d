package chat

import (
	"net/http"
	"strings"
	"testing"
)

// TestOnUsage: the counts a server reports, in each provider's wire
// format, whole and streamed, reach Request.OnUsage once, a count left
// out as NotReported; a server that reports none never calls it.
func TestOnUsage(t *testing.T) {
	none := Usage{PromptTokens: -2, CompletionTokens: -2} // OnUsage not called
	for _, tc := range []struct {
		name   string
		ctype  string
		body   string
		stream bool
		openAI bool
		want   Usage
	}{
		{"openai stream", "text/event-stream", openAIStream, true, true, Usage{9, 3}},
		{"openai whole", "application/json", openAIWhole, false, true, Usage{9, 7}},
		{"openai whole without usage", "application/json",
			`{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`, false, true, none},
		// llama-server: the usage in the chunk that finishes.
		{"llama-server stream", "text/event-stream", "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":null}]}\n\n" +
			"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"completion_tokens\":1,\"prompt_tokens\":20,\"total_tokens\":21}}\n\ndata: [DONE]\n\n", true, true, Usage{20, 1}},
		// Ollama with the prompt in its cache leaves prompt_eval_count out.
		{"ollama stream", "application/x-ndjson", ollamaStream, true, false, Usage{NotReported, 3}},
		{"ollama whole", "application/json", `{"model":"m","message":{"role":"assistant","content":"ok"},"done":true,"prompt_eval_count":26,"eval_count":1}`, false, false, Usage{26, 1}},
		{"ollama whole without counts", "application/json", ollamaWhole, false, false, none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, reply(http.StatusOK, tc.ctype, tc.body))
			var m Model = NewOllama(OllamaConfig{BaseURL: rec.URL, Model: "m"})
			if tc.openAI {
				m = NewOpenAI(OpenAIConfig{BaseURL: rec.URL, Model: "m"})
			}
			got, calls := none, 0
			req := Request{Messages: conversation, OnUsage: func(u Usage) { got, calls = u, calls+1 }}
			var onDelta func(string)
			if tc.stream {
				onDelta = func(string) {}
			}
			if _, err := m.Chat(t.Context(), req, onDelta); err != nil {
				t.Fatal(err)
			}
			if got != tc.want || calls > 1 {
				t.Errorf("OnUsage got %+v (%d calls), want %+v", got, calls, tc.want)
			}
		})
	}
}

// TestCounted: the server's counts are kept, those it left out estimated,
// and a prompt count under one token per 8 bytes (the part of the prompt
// not in the server's cache) replaced by the estimate.
func TestCounted(t *testing.T) {
	est := Estimate(conversation, "Los arévacos.")
	long := []Message{conversation[0], {Role: RoleUser, Content: strings.Repeat("Los arévacos fundaron Numancia junto al Duero. ", 200)}}
	estLong := Estimate(long, "Los arévacos.")
	for _, tc := range []struct {
		name      string
		reported  Usage
		want      Usage
		estimated bool
	}{
		{"reported", Usage{est.PromptTokens + 5, 9}, Usage{est.PromptTokens + 5, 9}, false},
		{"a smaller tokenizer's", Usage{est.PromptTokens/2 + 1, 9}, Usage{est.PromptTokens/2 + 1, 9}, false},
		{"none", Usage{NotReported, NotReported}, est, true},
		{"no prompt count", Usage{NotReported, 9}, Usage{est.PromptTokens, 9}, true},
		{"no reply count", Usage{est.PromptTokens, NotReported}, est, true},
		{"cached prompt", Usage{1, 9}, Usage{est.PromptTokens, 9}, true},
		{"a long cached prompt", Usage{40, 9}, Usage{estLong.PromptTokens, 9}, true},
		{"a long prompt", Usage{estLong.PromptTokens / 2, 9}, Usage{estLong.PromptTokens / 2, 9}, false},
	} {
		msgs := conversation
		if strings.Contains(tc.name, "long") {
			msgs = long
		}
		got, estimated := counted(tc.reported, msgs, "Los arévacos.")
		if got != tc.want || estimated != tc.estimated {
			t.Errorf("%s: counted(%+v) = %+v, %v; want %+v, %v", tc.name, tc.reported, got, estimated, tc.want, tc.estimated)
		}
	}
	if est.PromptTokens <= 0 || est.CompletionTokens <= 0 || est.Total() != est.PromptTokens+est.CompletionTokens {
		t.Errorf("Estimate = %+v", est)
	}
}
