package embed

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeOpenAI is an httptest server speaking POST /v1/embeddings. By
// default it answers like OpenAI, but with the data items in reverse
// order (the API does not promise an order), each vector [1+n, 1, 0] for
// an input ending in "t<n>". answer, when set, replaces that.
type fakeOpenAI struct {
	t      *testing.T
	srv    *httptest.Server
	answer func(w http.ResponseWriter, r *http.Request, req map[string]any, call int)

	mu       sync.Mutex
	calls    int
	bodies   []map[string]any
	requests []*http.Request
}

func newFakeOpenAI(t *testing.T) *fakeOpenAI {
	t.Helper()
	f := &fakeOpenAI{t: t}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOpenAI) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"detail":"Not Found"}`)
		return
	}
	var req map[string]any
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		f.t.Errorf("decoding request: %v", err)
	}
	f.mu.Lock()
	f.calls++
	call := f.calls
	f.bodies = append(f.bodies, req)
	f.requests = append(f.requests, r)
	f.mu.Unlock()
	if f.answer != nil {
		f.answer(w, r, req, call)
		return
	}
	var in []string
	for _, x := range req["input"].([]any) {
		in = append(in, x.(string))
	}
	writeOpenAI(w, req["model"].(string), vectorsFor(in), true)
}

// writeOpenAI answers like the OpenAI API, listing data in reverse order
// when reverse is set.
func writeOpenAI(w http.ResponseWriter, model string, vecs [][]float32, reverse bool) {
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]item, len(vecs))
	for i, v := range vecs {
		at := i
		if reverse {
			at = len(vecs) - 1 - i
		}
		data[at] = item{"embedding", i, v}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"object": "list", "data": data, "model": model,
		"usage": map[string]int{"prompt_tokens": 8, "total_tokens": 8},
	})
}

func (f *fakeOpenAI) callCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func TestOpenAIRequest(t *testing.T) {
	f := newFakeOpenAI(t)
	for _, base := range []string{f.srv.URL + "/v1", f.srv.URL + "/v1/"} {
		c := NewOpenAI(OpenAIConfig{BaseURL: base, Model: "text-embedding-3-small", APIKey: "sk-test"})
		if c.ID() != "openai/text-embedding-3-small" {
			t.Errorf("ID = %q", c.ID())
		}
		vecs, err := c.Embed(t.Context(), Passage, texts(3))
		if err != nil {
			t.Fatal(err)
		}
		if want := [][]float32{{1, 1, 0}, {2, 1, 0}, {3, 1, 0}}; !equalVecs(vecs, want) {
			t.Errorf("vectors = %v, want %v (sorted by index)", vecs, want)
		}
	}
	r, body := f.requests[0], f.bodies[0]
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		t.Errorf("request = %s %s", r.Method, r.URL.Path)
	}
	if r.Header.Get("Authorization") != "Bearer sk-test" {
		t.Errorf("Authorization = %q", r.Header.Get("Authorization"))
	}
	if r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("Content-Type = %q", r.Header.Get("Content-Type"))
	}
	if body["model"] != "text-embedding-3-small" || body["encoding_format"] != "float" {
		t.Errorf("body = %v", body)
	}
	if in, ok := body["input"].([]any); !ok || len(in) != 3 || in[0] != "t0" {
		t.Errorf("input = %#v, want an array of the texts", body["input"])
	}
	if _, ok := body["dimensions"]; ok {
		t.Errorf("dimensions sent although not configured")
	}
}

func TestOpenAINoKeyAndDimensions(t *testing.T) {
	f := newFakeOpenAI(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req map[string]any, call int) {
		v := make([]float32, 256)
		v[0] = 1
		writeOpenAI(w, "m", [][]float32{v}, false)
	}
	c := NewOpenAI(OpenAIConfig{BaseURL: f.srv.URL + "/v1", Model: "text-embedding-3-small", Dimensions: 256})
	if c.ID() != "openai/text-embedding-3-small@256" {
		t.Errorf("ID = %q", c.ID())
	}
	if _, err := c.Embed(t.Context(), Query, []string{"hola"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.requests[0].Header["Authorization"]; ok {
		t.Errorf("Authorization sent without a key: %q", f.requests[0].Header.Get("Authorization"))
	}
	if f.bodies[0]["dimensions"] != float64(256) {
		t.Errorf("dimensions = %v, want 256", f.bodies[0]["dimensions"])
	}
}

func TestOpenAIDimensionsIgnored(t *testing.T) {
	f := newFakeOpenAI(t) // answers 3 dimensions whatever is asked, like llama-server
	c := NewOpenAI(OpenAIConfig{BaseURL: f.srv.URL + "/v1", Model: "bge-m3", Dimensions: 256})
	_, err := c.Embed(t.Context(), Query, texts(1))
	if !errors.Is(err, ErrResponse) || !strings.Contains(err.Error(), `"dimensions"`) {
		t.Errorf("err = %v, want ErrResponse hinting at dimensions", err)
	}
}

func TestOpenAIPrefixes(t *testing.T) {
	f := newFakeOpenAI(t)
	c := NewOpenAI(OpenAIConfig{BaseURL: f.srv.URL + "/v1", Model: "intfloat/multilingual-e5-small"})
	if _, err := c.Embed(t.Context(), Query, []string{"t0"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Embed(t.Context(), Passage, []string{"t0"}); err != nil {
		t.Fatal(err)
	}
	if q, p := f.bodies[0]["input"].([]any)[0], f.bodies[1]["input"].([]any)[0]; q != "query: t0" || p != "passage: t0" {
		t.Errorf("inputs = %q, %q", q, p)
	}
}

func TestOpenAIAuth(t *testing.T) {
	f := newFakeOpenAI(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req map[string]any, call int) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided: sk-bad. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`)
	}
	c := NewOpenAI(OpenAIConfig{BaseURL: f.srv.URL + "/v1", Model: "text-embedding-3-small", APIKey: "sk-bad"})
	err := Batch{Backoff: time.Millisecond}.Run(t.Context(), c, Query, []string{"hola"})
	if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "Incorrect API key provided") {
		t.Errorf("err = %v, want ErrAuth with the server's message", err)
	}
	if f.callCount() != 1 {
		t.Errorf("%d requests, want 1 (ErrAuth is not retried)", f.callCount())
	}
}

func TestOpenAIRateLimited(t *testing.T) {
	f := newFakeOpenAI(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req map[string]any, call int) {
		if call == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"Rate limit reached for text-embedding-3-small on requests per min (RPM): Limit 3000.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
			return
		}
		writeOpenAI(w, "m", [][]float32{{1, 0}}, false)
	}
	c := NewOpenAI(OpenAIConfig{BaseURL: f.srv.URL + "/v1", Model: "text-embedding-3-small"})

	// One attempt: a retryable error that says how long to wait.
	_, err := c.Embed(t.Context(), Query, []string{"hola"})
	var e *Error
	if !errors.As(err, &e) || !Retryable(err) || e.Status != 429 || e.RetryAfter != time.Second ||
		!strings.Contains(err.Error(), "Rate limit reached") {
		t.Fatalf("err = %v (%+v), want a retryable 429 with Retry-After 1s", err, e)
	}

	f.mu.Lock()
	f.calls = 0
	f.mu.Unlock()
	began := time.Now()
	err = Batch{Backoff: time.Millisecond}.Run(t.Context(), c, Query, []string{"hola"})
	if err != nil {
		t.Fatalf("Run = %v, want success after waiting", err)
	}
	if took := time.Since(began); took < time.Second {
		t.Errorf("retried after %v, want the 1s the server asked for", took)
	}
	if f.callCount() != 2 {
		t.Errorf("%d requests, want 2", f.callCount())
	}
}

func TestOpenAIErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		kind   error // nil: none of the sentinels
		retry  bool
		says   []string
	}{
		{"openai model", 404, `{"error":{"message":"The model ` + "`nope`" + ` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`,
			ErrModel, false, []string{"does not exist", "/v1/models"}},
		{"vllm model", 404, `{"object":"error","message":"The model ` + "`nope`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`,
			ErrModel, false, []string{"The model `nope` does not exist."}},
		{"wrong base URL", 404, `{"detail":"Not Found"}`, nil, false, []string{"Not Found", "/v1"}},
		{"llama-server without --embeddings", 501, `{"error":{"code":501,"message":"This server does not support embeddings. Start it with ` + "`--embeddings`" + `","type":"not_supported_error"}}`,
			ErrModel, false, []string{"--embeddings"}},
		{"llama-server loading", 503, `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`,
			nil, true, []string{"Loading model", "HTTP 503"}},
		{"tei overloaded", 429, `{"message":"Model is overloaded","code":429,"type":"overloaded"}`,
			nil, true, []string{"Model is overloaded"}},
		{"bad request", 400, `{"error":{"message":"'$.input' is invalid.","type":"invalid_request_error","param":null,"code":null}}`,
			nil, false, []string{"'$.input' is invalid."}},
		{"forbidden", 403, `forbidden by proxy`, ErrAuth, false, []string{"forbidden by proxy", "set one"}},
		{"gateway", 502, `<html><head><title>502 Bad Gateway</title></head></html>`, nil, true, []string{"502 Bad Gateway"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeOpenAI(t)
			f.answer = func(w http.ResponseWriter, r *http.Request, req map[string]any, call int) {
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			}
			base := f.srv.URL + "/v1"
			if tc.name == "wrong base URL" {
				base = f.srv.URL // forgot the /v1
			}
			_, err := NewOpenAI(OpenAIConfig{BaseURL: base, Model: "nope"}).Embed(t.Context(), Query, []string{"hola"})
			if err == nil {
				t.Fatal("no error")
			}
			for _, k := range []error{ErrModel, ErrAuth, ErrResponse, ErrUnreachable} {
				if errors.Is(err, k) != (k == tc.kind) {
					t.Errorf("errors.Is(%v, %v) = %v", err, k, !(k == tc.kind))
				}
			}
			if Retryable(err) != tc.retry {
				t.Errorf("Retryable(%v) = %v, want %v", err, !tc.retry, tc.retry)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("message %q lacks %q", err, s)
				}
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("openai at %q: model %q", base, "nope")) {
				t.Errorf("message %q does not name URL and model", err)
			}
		})
	}
}

func TestOpenAIBadResponses(t *testing.T) {
	b64 := func(v ...float32) string {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	for _, tc := range []struct {
		name, body, err string // err "" means success
		want            [][]float32
	}{
		{"no index, in order", `{"data":[{"embedding":[1,0]},{"embedding":[0,1]}]}`, "", [][]float32{{1, 0}, {0, 1}}},
		{"base64", `{"data":[{"index":1,"embedding":"` + b64(0, 2) + `"},{"index":0,"embedding":"` + b64(1, 0) + `"}]}`, "", [][]float32{{1, 0}, {0, 2}}},
		{"duplicate index", `{"data":[{"index":0,"embedding":[1,0]},{"index":0,"embedding":[0,1]}]}`, "index 0 sent twice", nil},
		{"index out of range", `{"data":[{"index":0,"embedding":[1,0]},{"index":2,"embedding":[0,1]}]}`, "out of range", nil},
		{"some indexes missing", `{"data":[{"index":1,"embedding":[1,0]},{"embedding":[0,1]}]}`, "have no index", nil},
		{"too few", `{"object":"list","data":[{"index":0,"embedding":[1,0]}]}`, "got 1 vectors for 2 texts", nil},
		{"zero vector", `{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[0,0]}]}`, "vector 1 is all zeros", nil},
		{"null vector", `{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":null}]}`, "vector 1 is empty", nil},
		{"mixed dims", `{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[0,1,0]}]}`, "vector 1 has 3 dimensions", nil},
		{"error in a 200", `{"error":{"message":"backend crashed"}}`, "backend crashed", nil},
		{"not JSON", `ok`, "malformed JSON", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeOpenAI(t)
			f.answer = func(w http.ResponseWriter, r *http.Request, req map[string]any, call int) {
				io.WriteString(w, tc.body)
			}
			vecs, err := NewOpenAI(OpenAIConfig{BaseURL: f.srv.URL + "/v1", Model: "m"}).Embed(t.Context(), Passage, texts(2))
			if tc.err == "" {
				if err != nil || !equalVecs(vecs, tc.want) {
					t.Errorf("= %v, %v; want %v", vecs, err, tc.want)
				}
				return
			}
			if !errors.Is(err, ErrResponse) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err = %v, want ErrResponse saying %q", err, tc.err)
			}
		})
	}
}

func TestOpenAIConfigErrors(t *testing.T) {
	for _, cfg := range []OpenAIConfig{
		{Model: "m"},
		{BaseURL: "127.0.0.1:8080/v1", Model: "m"},
		{BaseURL: "http://127.0.0.1:8080/v1"},
		{BaseURL: "http://127.0.0.1:8080/v1?x=1", Model: "m"},
	} {
		_, err := NewOpenAI(cfg).Embed(t.Context(), Query, []string{"hola"})
		if err == nil || Retryable(err) || !strings.HasPrefix(err.Error(), "openai") {
			t.Errorf("%+v: err = %v, want a configuration error", cfg, err)
		}
	}
}

func TestOpenAIRedactsCredentials(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	base := strings.Replace(url, "http://", "http://user:secret@", 1) + "/v1"
	_, err := NewOpenAI(OpenAIConfig{BaseURL: base, Model: "m", APIKey: "sk-secret"}).Embed(t.Context(), Query, []string{"x"})
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	if s := err.Error(); strings.Contains(s, "secret") {
		t.Errorf("message %q leaks a credential", s)
	}
}
