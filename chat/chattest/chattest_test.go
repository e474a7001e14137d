package chattest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/chat"
	_ "github.com/oraculo/oraculo/internal/golden"
)

func TestPieces(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"ok", []string{"ok"}},
		{"Los arévacos, según [1].", []string{"Los ", "arévacos, ", "según ", "[1]."}},
		{"  a\n\nb ", []string{"  ", "a\n\n", "b "}},
	} {
		if got := Pieces(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Pieces(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// post sends body to the server's path and returns the status and body.
func post(t *testing.T, url, body string) (int, string, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

func TestOllamaWire(t *testing.T) {
	srv := NewOllama(t, func(c Call) string { return "a b" })
	// Ollama streams unless told not to.
	status, ctype, body := post(t, srv.URL+"/api/chat", `{"model":"m","messages":[{"role":"user","content":"q"}],"format":"json","options":{"num_predict":5}}`)
	if status != 200 || ctype != "application/x-ndjson" {
		t.Fatalf("HTTP %d %s", status, ctype)
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	var text strings.Builder
	for i, l := range lines {
		var chunk struct {
			Message struct{ Role, Content string }
			Done    bool `json:"done"`
		}
		if err := json.Unmarshal([]byte(l), &chunk); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if chunk.Done != (i == len(lines)-1) || chunk.Message.Role != "assistant" {
			t.Errorf("line %d = %s", i, l)
		}
		text.WriteString(chunk.Message.Content)
	}
	if text.String() != "a b" {
		t.Errorf("text = %q", text.String())
	}
	c := srv.Calls()[0]
	if !c.Stream || !c.JSON || c.MaxTokens != 5 || c.Text("user") != "q" {
		t.Errorf("call = %+v", c)
	}

	// An empty conversation only loads the model.
	status, _, body = post(t, srv.URL+"/api/chat", `{"model":"m","messages":[],"stream":false}`)
	if status != 200 || !strings.Contains(body, `"done_reason":"load"`) {
		t.Errorf("HTTP %d %s", status, body)
	}
	if status, _, _ = post(t, srv.URL+"/api/generate", `{"model":"m"}`); status != 404 {
		t.Errorf("other route: HTTP %d, want 404", status)
	}
	if status, _, body = post(t, srv.URL+"/api/chat", `{"messages":[]}`); status != 400 || !strings.Contains(body, `"error"`) {
		t.Errorf("no model: HTTP %d %s", status, body)
	}
}

func TestOpenAIWire(t *testing.T) {
	srv := NewOpenAI(t, func(c Call) string { return "a b" })
	status, ctype, body := post(t, srv.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"q"}],"stream":true,"response_format":{"type":"json_object"},"max_tokens":5}`)
	if status != 200 || ctype != "text/event-stream" {
		t.Fatalf("HTTP %d %s", status, ctype)
	}
	if !strings.HasSuffix(body, "data: [DONE]\n\n") || !strings.Contains(body, `"delta":{"content":"a "}`) {
		t.Errorf("stream = %s", body)
	}
	status, _, body = post(t, srv.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"q"}]}`)
	if status != 200 || !strings.Contains(body, `"message":{"content":"a b","role":"assistant"}`) {
		t.Errorf("HTTP %d %s", status, body)
	}
	calls := srv.Calls()
	if len(calls) != 2 || !calls[0].Stream || !calls[0].JSON || calls[0].MaxTokens != 5 || calls[1].Stream || calls[1].JSON {
		t.Errorf("calls = %+v", calls)
	}
}

func TestFailTimes(t *testing.T) {
	srv := NewOpenAI(t, nil)
	srv.Fail(Fault{Status: 401, Times: 1})
	status, _, body := post(t, srv.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"q"}]}`)
	if status != 401 || !strings.Contains(body, `"code":"invalid_api_key"`) {
		t.Errorf("HTTP %d %s", status, body)
	}
	if status, _, body = post(t, srv.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"q"}]}`); status != 200 || !strings.Contains(body, `"content":"ok"`) {
		t.Errorf("after the fault: HTTP %d %s", status, body)
	}
	if n := len(srv.Calls()); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

func TestRunes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want []string
	}{
		{"", 1, nil},
		{"<think>", 3, []string{"<th", "ink", ">"}},
		{"añ<", 1, []string{"a", "ñ", "<"}},
		{"añ<", 0, []string{"a", "ñ", "<"}},
		{"añ<", 5, []string{"añ<"}},
	} {
		if got := Runes(tc.n)(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Runes(%d)(%q) = %q, want %q", tc.n, tc.in, got, tc.want)
		}
	}
}

// Reasoning sent apart has each server's shape: Ollama's "thinking" when
// asked to think, else inline; OpenAI's "reasoning_content".
func TestReasonWire(t *testing.T) {
	reason := func(Call) string { return "hmm" }
	ollama := NewOllama(t, func(Call) string { return "a" })
	ollama.Reason(reason)
	_, _, body := post(t, ollama.URL+"/api/chat", `{"model":"m","messages":[{"role":"user","content":"q"}],"think":true}`)
	if !strings.Contains(body, `"message":{"content":"","role":"assistant","thinking":"hmm"}`) || !strings.Contains(body, `"message":{"content":"a","role":"assistant"}`) {
		t.Errorf("ollama, think: %s", body)
	}
	_, _, body = post(t, ollama.URL+"/api/chat", `{"model":"m","messages":[{"role":"user","content":"q"}],"think":false,"stream":false}`)
	if !strings.Contains(body, `"content":"\u003cthink\u003e\nhmm\n\u003c/think\u003e\n\na"`) || strings.Contains(body, `"thinking"`) {
		t.Errorf("ollama, no think: %s", body)
	}
	if c := ollama.Calls(); !c[0].Think || c[1].Think {
		t.Errorf("calls: think %v, %v", c[0].Think, c[1].Think)
	}

	openAI := NewOpenAI(t, func(Call) string { return "a" })
	openAI.Reason(reason)
	openAI.Cut(Runes(2))
	_, _, body = post(t, openAI.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"q"}],"stream":true}`)
	if !strings.Contains(body, `"delta":{"content":null,"reasoning_content":"hm"}`) || !strings.Contains(body, `"delta":{"content":null,"reasoning_content":"m"}`) ||
		strings.Index(body, `"reasoning_content":"m"`) > strings.Index(body, `"delta":{"content":"a"}`) {
		t.Errorf("openai stream: %s", body)
	}
	_, _, body = post(t, openAI.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"q"}]}`)
	if !strings.Contains(body, `"message":{"content":"a","reasoning_content":"hmm","role":"assistant"}`) {
		t.Errorf("openai whole: %s", body)
	}
}

// What a thinking model says, through both fakes and both clients: the
// reasoning, inline or apart, cut anywhere, never reaches the reply.
func TestThinkingModel(t *testing.T) {
	const answer = "Los arévacos [Sesión 1]."
	for _, tc := range []struct {
		name, reply, want string
		reason            bool
	}{
		{name: "inline", reply: "<think>\nThe user asks. SECRET\n</think>\n\n" + answer, want: answer},
		{name: "inline, other case", reply: "<Thinking>SECRET</Thinking>" + answer, want: answer},
		{name: "unclosed at the end", reply: answer + " <think>\nWait, SECRET", want: answer + " "},
		{name: "apart", reply: answer, want: answer, reason: true},
	} {
		for _, openAI := range []bool{false, true} {
			for _, n := range []int{1, 2, 3, 5, 1000} {
				name := fmt.Sprintf("%s/ollama/runes %d", tc.name, n)
				start, model := NewOllama, func(url string) chat.Model { return chat.NewOllama(chat.OllamaConfig{BaseURL: url, Model: "m"}) }
				if openAI {
					name = fmt.Sprintf("%s/openai/runes %d", tc.name, n)
					start, model = NewOpenAI, func(url string) chat.Model { return chat.NewOpenAI(chat.OpenAIConfig{BaseURL: url, Model: "m"}) }
				}
				t.Run(name, func(t *testing.T) {
					srv := start(t, func(Call) string { return tc.reply })
					srv.Cut(Runes(n))
					if tc.reason {
						srv.Reason(func(Call) string { return "The user asks. SECRET" })
					}
					var deltas []string
					thinking := 0
					got, err := model(srv.URL).Chat(t.Context(), chat.Request{
						Messages:   []chat.Message{{Role: chat.RoleUser, Content: "q"}},
						OnThinking: func() { thinking++ },
					}, func(s string) { deltas = append(deltas, s) })
					if err != nil {
						t.Fatal(err)
					}
					if got != tc.want || strings.Join(deltas, "") != got || thinking != 1 {
						t.Errorf("reply %q, deltas %q, thinking %d; want %q, thinking 1", got, deltas, thinking, tc.want)
					}
					if n == 1 && len(deltas) < 10 {
						t.Errorf("the reply was not streamed: %q", deltas)
					}
				})
			}
		}
	}
}

// TestCountsWire: the fakes report token counts where the real servers
// do: Ollama's last line (not when a call only loads the model), an
// OpenAI-style whole answer, and a stream's last chunk only when the
// request asked with stream_options; Counts(nil) reports none.
func TestCountsWire(t *testing.T) {
	ollama := NewOllama(t, func(c Call) string { return "a b" })
	openAI := NewOpenAI(t, func(c Call) string { return "a b" })
	call := Call{Messages: []chat.Message{{Role: chat.RoleUser, Content: "¿quién?"}}}
	prompt, completion := ByteCounts(call, "a b")
	msgs := `"model":"m","messages":[{"role":"user","content":"¿quién?"}]`
	ollamaCounts := fmt.Sprintf(`"prompt_eval_count":%d`, prompt)
	usage := fmt.Sprintf(`"usage":{"completion_tokens":%d,"prompt_tokens":%d,"total_tokens":%d}`, completion, prompt, prompt+completion)
	for _, tc := range []struct {
		name, url, body, want string
		has                   bool
	}{
		{"ollama stream", ollama.URL + "/api/chat", `{` + msgs + `}`, ollamaCounts, true},
		{"ollama whole", ollama.URL + "/api/chat", `{"stream":false,` + msgs + `}`, ollamaCounts, true},
		{"ollama load", ollama.URL + "/api/chat", `{"model":"m","messages":[]}`, "prompt_eval_count", false},
		{"openai whole", openAI.URL + "/chat/completions", `{` + msgs + `}`, usage, true},
		{"openai stream", openAI.URL + "/chat/completions", `{"stream":true,` + msgs + `}`, `"usage"`, false},
		{"openai stream with usage", openAI.URL + "/chat/completions",
			`{"stream":true,"stream_options":{"include_usage":true},` + msgs + `}`, `"choices":[],"created"`, true},
	} {
		_, _, body := post(t, tc.url, tc.body)
		if strings.Contains(body, tc.want) != tc.has {
			t.Errorf("%s: %q in the answer is %v, want %v:\n%s", tc.name, tc.want, !tc.has, tc.has, body)
		}
		if tc.name == "openai stream with usage" && !strings.Contains(body, usage) {
			t.Errorf("%s: no %s in:\n%s", tc.name, usage, body)
		}
	}
	ollama.Counts(nil)
	if _, _, body := post(t, ollama.URL+"/api/chat", `{`+msgs+`}`); strings.Contains(body, "eval_count") {
		t.Errorf("Counts(nil): the answer has counts:\n%s", body)
	}
	// A real tokenizer's counts: "¿quién?" is more than one token.
	openAI.Counts(TokenCounts)
	prompt, completion = TokenCounts(call, "a b")
	if _, _, body := post(t, openAI.URL+"/chat/completions", `{`+msgs+`}`); prompt <= 8 || completion != 2 ||
		!strings.Contains(body, fmt.Sprintf(`"prompt_tokens":%d`, prompt)) {
		t.Errorf("Counts(TokenCounts): %d and %d, the answer:\n%s", prompt, completion, body)
	}
}
