package embed

import (
	"context"
	"errors"
	"fmt"
	"testing"
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
