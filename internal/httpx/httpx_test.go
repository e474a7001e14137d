package httpx

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	_ "github.com/oraculo/oraculo/internal/golden"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{}, 0},
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{http.Header{"Retry-After": {"0"}}, 0},
		{http.Header{"Retry-After": {"-3"}}, 0},
		{http.Header{"Retry-After": {"3600"}}, MaxRetryAfter},
		{http.Header{"Retry-After": {"Sun, 01 Mar 2026 12:00:07 GMT"}}, 7 * time.Second},
		{http.Header{"Retry-After": {"Sun, 01 Mar 2026 11:00:00 GMT"}}, 0},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"1"}}, 250 * time.Millisecond},
	} {
		if got := RetryAfter(tc.h, now); got != tc.want {
			t.Errorf("RetryAfter(%v) = %v, want %v", tc.h, got, tc.want)
		}
	}
}

func TestParseAPIError(t *testing.T) {
	for _, tc := range []struct {
		body string
		want APIError
	}{
		{`{"error":"model \"x\" not found, try pulling it first"}`, APIError{Message: `model "x" not found, try pulling it first`}},
		{`{"error":{"message":"m","type":"invalid_request_error","param":null,"code":"model_not_found"}}`, APIError{"m", "invalid_request_error", "model_not_found"}},
		{`{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`, APIError{"Loading model", "unavailable_error", "503"}},
		{`{"object":"error","message":"The model does not exist.","type":"NotFoundError","param":null,"code":404}`, APIError{"The model does not exist.", "NotFoundError", "404"}},
		{`{"message":"Model is overloaded","code":429,"type":"overloaded"}`, APIError{"Model is overloaded", "overloaded", "429"}},
		{`{"error":"Input validation error","error_type":"Validation"}`, APIError{Message: "Input validation error"}},
		{`{"detail":"Not Found"}`, APIError{Message: "Not Found"}},
		{"404 page not found\n", APIError{Message: "404 page not found"}},
		{"", APIError{}},
	} {
		if got := ParseAPIError([]byte(tc.body)); got != tc.want {
			t.Errorf("ParseAPIError(%s) = %+v, want %+v", tc.body, got, tc.want)
		}
	}
}

func TestOllamaHost(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "http://127.0.0.1:11434"},
		{"   ", "http://127.0.0.1:11434"},
		{"0.0.0.0:11434", "http://127.0.0.1:11434"},
		{"0.0.0.0", "http://127.0.0.1:11434"},
		{"127.0.0.1:11435", "http://127.0.0.1:11435"},
		{":11435", "http://127.0.0.1:11435"},
		{"localhost", "http://localhost:11434"},
		{"gpu-box", "http://gpu-box:11434"},
		{"gpu-box:8080", "http://gpu-box:8080"},
		{"http://gpu-box", "http://gpu-box:80"},
		{"https://ollama.example.com", "https://ollama.example.com:443"},
		{"http://10.0.0.5:11434/", "http://10.0.0.5:11434"},
		{"https://example.com/ollama/", "https://example.com:443/ollama"},
		{`"http://127.0.0.1:11434"`, "http://127.0.0.1:11434"},
		{"HTTP://Host:1234", "http://Host:1234"},
		{"[::1]:11434", "http://[::1]:11434"},
		{"::1", "http://[::1]:11434"},
		{"[::]:11434", "http://[::1]:11434"},
		{"::", "http://[::1]:11434"},
	} {
		u, err := OllamaHost(tc.in)
		if err != nil {
			t.Errorf("OllamaHost(%q): %v", tc.in, err)
			continue
		}
		if got := u.String(); got != tc.want {
			t.Errorf("OllamaHost(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, in := range []string{"tcp://host:1", "host:99999", "host:port", "host:0", "http://a b"} {
		if u, err := OllamaHost(in); err == nil {
			t.Errorf("OllamaHost(%q) = %v, want an error", in, u)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	kind := errors.New("chat server unreachable")
	cause := errors.New("connection refused")
	e := &Error{Provider: "ollama", URL: "http://127.0.0.1:11434", Model: "qwen2.5:7b", Op: "chat",
		Message: "cannot connect: connection refused", Hint: "is Ollama running?", Kind: kind, Err: cause}
	want := `ollama at "http://127.0.0.1:11434": chat with model "qwen2.5:7b": cannot connect: connection refused (is Ollama running?): chat server unreachable`
	if e.Error() != want {
		t.Errorf("Error() =\n%s\nwant\n%s", e, want)
	}
	if !errors.Is(e, kind) || !errors.Is(e, cause) {
		t.Error("errors.Is does not see Kind and Err")
	}
}

func TestModelMissing(t *testing.T) {
	for _, tc := range []struct {
		ae   APIError
		want bool
	}{
		{APIError{Message: "model 'x' not found, try pulling it first"}, true},
		{APIError{Message: "The model `x` does not exist."}, true},
		{APIError{Message: "m", Code: "model_not_found"}, true},
		{APIError{Message: "file not found"}, false},
		{APIError{Message: "model is overloaded"}, false},
	} {
		if got := tc.ae.ModelMissing(); got != tc.want {
			t.Errorf("%+v.ModelMissing() = %v, want %v", tc.ae, got, tc.want)
		}
	}
}

func TestOllamaBaseURL(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "gpu-box")
	for _, tc := range []struct{ in, want, err string }{
		{"", "http://gpu-box:11434", ""},
		{"127.0.0.1:8080", "http://127.0.0.1:8080", ""},
		{"tcp://x", "http://127.0.0.1:11434", `BaseURL "tcp://x": scheme "tcp"`},
	} {
		u, err := OllamaBaseURL(tc.in)
		if u.String() != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.HasPrefix(err.Error(), tc.err)) {
			t.Errorf("OllamaBaseURL(%q) = %v, %v; want %s, %q", tc.in, u, err, tc.want, tc.err)
		}
	}
	t.Setenv("OLLAMA_HOST", "host:0")
	if _, err := OllamaBaseURL(""); err == nil || !strings.HasPrefix(err.Error(), `OLLAMA_HOST "host:0"`) {
		t.Errorf("bad OLLAMA_HOST: err = %v", err)
	}
}

func TestKeepAlive(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""}, {"30m", `"30m"`}, {"-1", "-1"}, {"0", "0"}, {" 1h ", `"1h"`}, {"soon", "error"},
	} {
		raw, err := KeepAlive(tc.in)
		got := string(raw)
		if err != nil {
			got = "error"
		}
		if got != tc.want {
			t.Errorf("KeepAlive(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestBaseURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1"},
		{" https://api.openai.com/v1 ", "https://api.openai.com/v1"},
		{"", "error"}, {"127.0.0.1:8080", "error"}, {"ftp://h/v1", "error"}, {"http://h/v1?a=b", "error"},
	} {
		u, err := BaseURL(tc.in)
		got := "error"
		if err == nil {
			got = u.String()
		}
		if got != tc.want {
			t.Errorf("BaseURL(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
