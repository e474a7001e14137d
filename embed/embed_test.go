package embed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// The providers and Hashing are Embedders.
var (
	_ Embedder = (*Ollama)(nil)
	_ Embedder = (*OpenAI)(nil)
	_ Embedder = (*Hashing)(nil)
)

func TestPrefixes(t *testing.T) {
	const mxbai = "Represent this sentence for searching relevant passages: "
	for _, tc := range []struct{ model, query, passage string }{
		{"multilingual-e5-small", "query: ", "passage: "},
		{"intfloat/e5-base-v2", "query: ", "passage: "},
		{"intfloat/multilingual-e5-large", "query: ", "passage: "},
		{"jeffh/intfloat-multilingual-e5-large:f16", "query: ", "passage: "},
		{"hf.co/intfloat/Multilingual-E5-Small-GGUF:Q8_0", "query: ", "passage: "},
		{"e5", "query: ", "passage: "},
		{"me5-base", "query: ", "passage: "},
		{"intfloat/multilingual-e5-large-instruct", e5Instruction, ""},
		{"intfloat/e5-mistral-7b-instruct", e5Instruction, ""},
		{"nomic-embed-text", "search_query: ", "search_document: "},
		{"nomic-embed-text:v1.5", "search_query: ", "search_document: "},
		{"nomic-ai/nomic-embed-text-v1.5", "search_query: ", "search_document: "},
		{"NOMIC-EMBED-TEXT:latest", "search_query: ", "search_document: "},
		{"mxbai-embed-large", mxbai, ""},
		{"mixedbread-ai/mxbai-embed-large-v1", mxbai, ""},
		{"mxbai-embed-large:335m", mxbai, ""},
		{"bge-m3", "", ""},
		{"BAAI/bge-m3", "", ""},
		{"text-embedding-3-small", "", ""},
		{"all-minilm", "", ""},
		{"snowflake-arctic-embed2", "", ""},
		{"granite-embedding:278m", "", ""},
		{"model-e55", "", ""},   // "e5" only as a name part
		{"tree5-embed", "", ""}, // likewise
		{"", "", ""},
	} {
		q, p := Prefixes(tc.model)
		if q != tc.query || p != tc.passage {
			t.Errorf("Prefixes(%q) = %q, %q; want %q, %q", tc.model, q, p, tc.query, tc.passage)
		}
	}
}

func TestRetryable(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("plain"), false},
		{context.Canceled, false},
		{context.DeadlineExceeded, false},
		{ErrUnreachable, true},
		{fmt.Errorf("wrapped: %w", ErrUnreachable), true},
		{&Error{Kind: ErrUnreachable, Err: context.DeadlineExceeded}, true},
		{&Error{Status: 408}, true},
		{&Error{Status: 429}, true},
		{&Error{Status: 500}, true},
		{&Error{Status: 502}, true},
		{&Error{Status: 503}, true},
		{&Error{Status: 501}, false},
		{&Error{Status: 400}, false},
		{&Error{Status: 404}, false},
		{&Error{Status: 503, Kind: ErrModel}, false},
		{&Error{Status: 401, Kind: ErrAuth}, false},
		{&Error{Status: 200, Kind: ErrResponse}, false},
		{fmt.Errorf("x: %w", ErrEmptyText), false},
		{&Error{Err: context.Canceled}, false},
	} {
		if got := Retryable(tc.err); got != tc.want {
			t.Errorf("Retryable(%#v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	e := &Error{Provider: "ollama", URL: "http://127.0.0.1:11434", Model: "bge-m3", Status: 404,
		Message: `model "bge-m3" not found, try pulling it first`, Hint: `run "ollama pull bge-m3"`, Kind: ErrModel}
	want := `ollama at "http://127.0.0.1:11434": model "bge-m3": model "bge-m3" not found, try pulling it first (HTTP 404; run "ollama pull bge-m3"): model not available`
	if e.Error() != want {
		t.Errorf("Error() =\n%s\nwant\n%s", e, want)
	}
	if !errors.Is(fmt.Errorf("batch: %w", e), ErrModel) {
		t.Error("errors.Is does not see Kind through wrapping")
	}
	e = &Error{Provider: "openai", URL: "u", Model: "m", Status: 200, Message: "vector 1 is all zeros", Kind: ErrResponse}
	if want := `openai at "u": model "m": vector 1 is all zeros: invalid response`; e.Error() != want {
		t.Errorf("Error() = %s, want %s", e, want)
	}
}

func TestParseRetryAfter(t *testing.T) {
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
		{http.Header{"Retry-After": {"3600"}}, maxRetryAfter},
		{http.Header{"Retry-After": {"Sun, 01 Mar 2026 12:00:07 GMT"}}, 7 * time.Second},
		{http.Header{"Retry-After": {"Sun, 01 Mar 2026 11:00:00 GMT"}}, 0},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"1"}}, 250 * time.Millisecond},
	} {
		if got := parseRetryAfter(tc.h, now); got != tc.want {
			t.Errorf("parseRetryAfter(%v) = %v, want %v", tc.h, got, tc.want)
		}
	}
}

func TestParseAPIError(t *testing.T) {
	for _, tc := range []struct {
		body string
		want apiError
	}{
		{`{"error":"model \"x\" not found, try pulling it first"}`, apiError{Message: `model "x" not found, try pulling it first`}},
		{`{"error":{"message":"m","type":"invalid_request_error","param":null,"code":"model_not_found"}}`, apiError{"m", "invalid_request_error", "model_not_found"}},
		{`{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`, apiError{"Loading model", "unavailable_error", "503"}},
		{`{"object":"error","message":"The model does not exist.","type":"NotFoundError","param":null,"code":404}`, apiError{"The model does not exist.", "NotFoundError", "404"}},
		{`{"message":"Model is overloaded","code":429,"type":"overloaded"}`, apiError{"Model is overloaded", "overloaded", "429"}},
		{`{"error":"Input validation error","error_type":"Validation"}`, apiError{Message: "Input validation error"}},
		{`{"detail":"Not Found"}`, apiError{Message: "Not Found"}},
		{"404 page not found\n", apiError{Message: "404 page not found"}},
		{"", apiError{}},
	} {
		if got := parseAPIError([]byte(tc.body)); got != tc.want {
			t.Errorf("parseAPIError(%s) = %+v, want %+v", tc.body, got, tc.want)
		}
	}
}
