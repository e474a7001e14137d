package chattest

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

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
