package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeOllama is an httptest server speaking Ollama's /api/embed. By
// default it answers like Ollama: one vector per input, here [1+n, 1, 0]
// where n is the number after "t" in the input ("t17" → 18), so tests can
// check order. answer, when set, replaces that.
type fakeOllama struct {
	t      *testing.T
	srv    *httptest.Server
	answer func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int)

	mu       sync.Mutex
	calls    int
	sizes    []int
	bodies   []map[string]any
	requests []*http.Request
}

func newFakeOllama(t *testing.T) *fakeOllama {
	t.Helper()
	f := &fakeOllama{t: t}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOllama) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("reading request: %v", err)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
		// What Ollama (gin) answers for an unknown route.
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	var req ollamaRequest
	var generic map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":%q}`, err.Error())
		return
	}
	json.Unmarshal(body, &generic)
	f.mu.Lock()
	f.calls++
	call := f.calls
	f.sizes = append(f.sizes, len(req.Input))
	f.bodies = append(f.bodies, generic)
	f.requests = append(f.requests, r)
	f.mu.Unlock()
	if f.answer != nil {
		f.answer(w, r, req, call)
		return
	}
	writeOllama(w, req.Model, vectorsFor(req.Input))
}

// vectorsFor returns [1+n, 1, 0] for each input ending in "t<n>".
func vectorsFor(inputs []string) [][]float32 {
	out := make([][]float32, len(inputs))
	for i, in := range inputs {
		n, _ := strconv.Atoi(in[strings.LastIndex(in, "t")+1:])
		out[i] = []float32{float32(1 + n), 1, 0}
	}
	return out
}

func writeOllama(w http.ResponseWriter, model string, vecs [][]float32) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	json.NewEncoder(w).Encode(map[string]any{
		"model": model, "embeddings": vecs,
		"total_duration": 14143917, "load_duration": 1019500, "prompt_eval_count": 8,
	})
}

func (f *fakeOllama) callCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "t" + strconv.Itoa(i)
	}
	return out
}

func TestOllamaRequest(t *testing.T) {
	f := newFakeOllama(t)
	o := NewOllama(OllamaConfig{BaseURL: f.srv.URL, Model: "multilingual-e5-small", KeepAlive: "30m"})
	vecs, err := o.Embed(t.Context(), Query, []string{"¿quién es Harbin? t4"})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]float32{{5, 1, 0}}; !equalVecs(vecs, want) {
		t.Errorf("vectors = %v, want %v", vecs, want)
	}
	r := f.requests[0]
	if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
		t.Errorf("request = %s %s, want POST /api/embed", r.Method, r.URL.Path)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if a := r.Header.Get("Authorization"); a != "" {
		t.Errorf("Authorization = %q, want none", a)
	}
	body := f.bodies[0]
	if body["model"] != "multilingual-e5-small" {
		t.Errorf("model = %v", body["model"])
	}
	input, ok := body["input"].([]any)
	if !ok || len(input) != 1 || input[0] != "query: ¿quién es Harbin? t4" {
		t.Errorf("input = %#v, want an array with the e5 query prefix", body["input"])
	}
	if body["truncate"] != true {
		t.Errorf("truncate = %v, want true", body["truncate"])
	}
	if body["keep_alive"] != "30m" {
		t.Errorf("keep_alive = %v, want \"30m\"", body["keep_alive"])
	}
	if _, ok := body["dimensions"]; ok {
		t.Errorf("dimensions sent although not configured: %v", body)
	}

	if _, err := o.Embed(t.Context(), Passage, []string{"Harbin es el capataz. t1", "t2"}); err != nil {
		t.Fatal(err)
	}
	input = f.bodies[1]["input"].([]any)
	if input[0] != "passage: Harbin es el capataz. t1" || input[1] != "passage: t2" {
		t.Errorf("passage input = %v", input)
	}
}

func TestOllamaDefaults(t *testing.T) {
	f := newFakeOllama(t)
	t.Setenv("OLLAMA_HOST", strings.TrimPrefix(f.srv.URL, "http://"))
	o := NewOllama(OllamaConfig{})
	if o.ID() != "ollama/bge-m3" {
		t.Errorf("ID = %q", o.ID())
	}
	if o.BaseURL() != f.srv.URL {
		t.Errorf("BaseURL = %q, want %q from OLLAMA_HOST", o.BaseURL(), f.srv.URL)
	}
	if _, err := o.Embed(t.Context(), Query, []string{"t0"}); err != nil {
		t.Fatal(err)
	}
	body := f.bodies[0]
	if body["model"] != "bge-m3" || body["input"].([]any)[0] != "t0" {
		t.Errorf("body = %v, want model bge-m3 and no prefix", body)
	}
	if _, ok := body["keep_alive"]; ok {
		t.Errorf("keep_alive sent although not configured")
	}
	// Nothing to embed: no request.
	vecs, err := o.Embed(t.Context(), Query, nil)
	if err != nil || len(vecs) != 0 || f.callCount() != 1 {
		t.Errorf("Embed(nil) = %v, %v after %d calls", vecs, err, f.callCount())
	}
}

func TestOllamaIDAndOptions(t *testing.T) {
	for _, tc := range []struct {
		cfg  OllamaConfig
		id   string
		keep any
	}{
		{OllamaConfig{Model: "bge-m3:latest"}, "ollama/bge-m3", nil},
		{OllamaConfig{Model: "BGE-M3:567m"}, "ollama/bge-m3:567m", nil},
		{OllamaConfig{Model: "bge-m3", Dimensions: 256}, "ollama/bge-m3@256", nil},
		{OllamaConfig{KeepAlive: "-1"}, "ollama/bge-m3", float64(-1)},
		{OllamaConfig{KeepAlive: "1h"}, "ollama/bge-m3", "1h"},
	} {
		f := newFakeOllama(t)
		tc.cfg.BaseURL = f.srv.URL
		f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
			v := make([]float32, max(req.Dimensions, 3))
			v[0] = 1
			writeOllama(w, req.Model, [][]float32{v})
		}
		o := NewOllama(tc.cfg)
		if o.ID() != tc.id {
			t.Errorf("%+v: ID = %q, want %q", tc.cfg, o.ID(), tc.id)
		}
		if _, err := o.Embed(t.Context(), Query, []string{"hola"}); err != nil {
			t.Fatalf("%+v: %v", tc.cfg, err)
		}
		body := f.bodies[0]
		if body["keep_alive"] != tc.keep {
			t.Errorf("%+v: keep_alive = %#v, want %#v", tc.cfg, body["keep_alive"], tc.keep)
		}
		if tc.cfg.Dimensions > 0 && body["dimensions"] != float64(tc.cfg.Dimensions) {
			t.Errorf("%+v: dimensions = %v", tc.cfg, body["dimensions"])
		}
	}
}

func TestOllamaConfigErrors(t *testing.T) {
	for _, cfg := range []OllamaConfig{
		{BaseURL: "tcp://host:1"},
		{BaseURL: "host:notaport"},
		{KeepAlive: "soon"},
	} {
		_, err := NewOllama(cfg).Embed(t.Context(), Query, []string{"x"})
		if err == nil || Retryable(err) || !strings.HasPrefix(err.Error(), "ollama: ") {
			t.Errorf("%+v: err = %v, want a non-retryable configuration error", cfg, err)
		}
	}
}

func TestOllamaBatching(t *testing.T) {
	f := newFakeOllama(t)
	o := NewOllama(OllamaConfig{BaseURL: f.srv.URL})
	in := texts(70)
	got := make([][]float32, len(in))
	var starts []int
	var mu sync.Mutex
	err := Batch{Size: 32, Done: func(start int, vecs [][]float32) error {
		mu.Lock()
		defer mu.Unlock()
		starts = append(starts, start)
		copy(got[start:], vecs)
		return nil
	}}.Run(t.Context(), o, Passage, in)
	if err != nil {
		t.Fatal(err)
	}
	sizes := slices.Clone(f.sizes)
	slices.Sort(sizes)
	if !slices.Equal(sizes, []int{6, 32, 32}) {
		t.Errorf("request sizes = %v, want 32, 32 and 6", f.sizes)
	}
	slices.Sort(starts)
	if !slices.Equal(starts, []int{0, 32, 64}) {
		t.Errorf("Done starts = %v, want 0, 32, 64", starts)
	}
	for i, v := range got {
		if len(v) != 3 || v[0] != float32(1+i) {
			t.Fatalf("vector %d = %v, want [%d 1 0]", i, v, 1+i)
		}
	}
}

func TestOllamaModelNotFound(t *testing.T) {
	f := newFakeOllama(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":"model %q not found, try pulling it first"}`, req.Model)
	}
	o := NewOllama(OllamaConfig{BaseURL: f.srv.URL, Model: "bge-m3"})
	err := Batch{Backoff: time.Millisecond}.Run(t.Context(), o, Passage, texts(3))
	if !errors.Is(err, ErrModel) {
		t.Fatalf("err = %v, want ErrModel", err)
	}
	if errors.Is(err, ErrUnreachable) || Retryable(err) {
		t.Errorf("err = %v: must not be unreachable nor retryable", err)
	}
	if f.callCount() != 1 {
		t.Errorf("%d requests, want 1 (ErrModel is not retried)", f.callCount())
	}
	msg := err.Error()
	for _, want := range []string{
		fmt.Sprintf("ollama at %q", f.srv.URL),
		`model "bge-m3"`,
		`model "bge-m3" not found, try pulling it first`,
		`"ollama pull bge-m3"`,
		"HTTP 404",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	var e *Error
	if !errors.As(err, &e) || e.Status != 404 || e.Provider != "ollama" || e.Model != "bge-m3" {
		t.Errorf("err = %#v, want an *Error with status 404", e)
	}
}

func TestOllamaOldServer(t *testing.T) {
	// An Ollama older than 0.3.0 has no /api/embed: gin answers 404 in
	// plain text. That is not a missing model.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "404 page not found", http.StatusNotFound)
	}))
	defer srv.Close()
	_, err := NewOllama(OllamaConfig{BaseURL: srv.URL}).Embed(t.Context(), Query, []string{"hola"})
	if err == nil || errors.Is(err, ErrModel) || Retryable(err) {
		t.Fatalf("err = %v, want a non-retryable error that is not ErrModel", err)
	}
	if !strings.Contains(err.Error(), "0.3.0") {
		t.Errorf("message %q does not suggest upgrading", err)
	}
}

func TestOllamaNotAnEmbeddingModel(t *testing.T) {
	f := newFakeOllama(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":"\"%s\" does not support embeddings"}`, req.Model)
	}
	_, err := NewOllama(OllamaConfig{BaseURL: f.srv.URL, Model: "llama3.2"}).Embed(t.Context(), Query, []string{"hola"})
	if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "bge-m3") {
		t.Errorf("err = %v, want ErrModel suggesting an embedding model", err)
	}
}

func TestOllamaRetry500(t *testing.T) {
	f := newFakeOllama(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
		if call == 1 {
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":"llama runner process has terminated: signal: killed"}`)
			return
		}
		writeOllama(w, req.Model, vectorsFor(req.Input))
	}
	o := NewOllama(OllamaConfig{BaseURL: f.srv.URL})

	// Alone, the 500 is a retryable error quoting the server.
	_, err := o.Embed(t.Context(), Passage, texts(2))
	if err == nil || !Retryable(err) || !strings.Contains(err.Error(), "llama runner process has terminated") {
		t.Fatalf("err = %v, want a retryable error quoting the server", err)
	}

	f.mu.Lock()
	f.calls = 0
	f.mu.Unlock()
	var got [][]float32
	err = Batch{Backoff: time.Millisecond, Done: func(start int, vecs [][]float32) error {
		got = vecs
		return nil
	}}.Run(t.Context(), o, Passage, texts(2))
	if err != nil {
		t.Fatalf("Run = %v, want success after a retry", err)
	}
	if f.callCount() != 2 || !equalVecs(got, [][]float32{{1, 1, 0}, {2, 1, 0}}) {
		t.Errorf("%d requests, vectors %v; want 2 requests and both vectors", f.callCount(), got)
	}
}

func TestOllamaTimeout(t *testing.T) {
	f := newFakeOllama(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
		select { // hang, as a server loading a big model does
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	o := NewOllama(OllamaConfig{BaseURL: f.srv.URL, Timeout: 100 * time.Millisecond})
	began := time.Now()
	_, err := o.Embed(t.Context(), Query, []string{"hola"})
	took := time.Since(began)
	if !errors.Is(err, ErrUnreachable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want ErrUnreachable and DeadlineExceeded", err)
	}
	if took > time.Second {
		t.Errorf("took %v, want about 100ms", took)
	}
	if !Retryable(err) || !strings.Contains(err.Error(), "no answer within 100ms") {
		t.Errorf("err = %v, want a retryable timeout naming the limit", err)
	}
}

func TestOllamaConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	o := NewOllama(OllamaConfig{BaseURL: url, Timeout: 2 * time.Second})
	_, err := o.Embed(t.Context(), Query, []string{"hola"})
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	if !strings.Contains(err.Error(), "ollama serve") || !strings.Contains(err.Error(), strconv.Quote(url)) {
		t.Errorf("message %q should name the URL and suggest \"ollama serve\"", err)
	}
	// With no retries, Batch returns it at once.
	err = Batch{Retries: -1}.Run(t.Context(), o, Query, []string{"hola"})
	if !errors.Is(err, ErrUnreachable) {
		t.Errorf("Batch err = %v, want ErrUnreachable", err)
	}
}

func TestOllamaCanceled(t *testing.T) {
	f := newFakeOllama(t)
	ctx, cancel := context.WithCancel(t.Context())
	f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
		cancel()
		<-r.Context().Done()
	}
	_, err := NewOllama(OllamaConfig{BaseURL: f.srv.URL}).Embed(ctx, Query, []string{"hola"})
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrUnreachable) || Retryable(err) {
		t.Errorf("err = %v, want context.Canceled only", err)
	}
}

func TestOllamaAuth(t *testing.T) {
	f := newFakeOllama(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":"unauthorized"}`)
	}
	_, err := NewOllama(OllamaConfig{BaseURL: f.srv.URL}).Embed(t.Context(), Query, []string{"hola"})
	if !errors.Is(err, ErrAuth) {
		t.Errorf("err = %v, want ErrAuth", err)
	}
}

func TestOllamaEmptyText(t *testing.T) {
	f := newFakeOllama(t)
	_, err := NewOllama(OllamaConfig{BaseURL: f.srv.URL}).Embed(t.Context(), Query, []string{"hola", " \n"})
	if !errors.Is(err, ErrEmptyText) || !strings.Contains(err.Error(), "text 1") {
		t.Errorf("err = %v, want ErrEmptyText for text 1", err)
	}
	if f.callCount() != 0 {
		t.Errorf("%d requests sent for an empty text", f.callCount())
	}
}

func TestOllamaBadResponses(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
		dims             int
	}{
		{"too few vectors", `{"embeddings":[[1,0,0]]}`, "got 1 vectors for 2 texts", 0},
		{"no vectors", `{"model":"bge-m3"}`, "got 0 vectors for 2 texts", 0},
		{"zero vector", `{"embeddings":[[1,0,0],[0,0,0]]}`, "vector 1 is all zeros", 0},
		{"empty vector", `{"embeddings":[[1,0,0],[]]}`, "vector 1 is empty", 0},
		{"inconsistent dims", `{"embeddings":[[1,0,0],[1,0]]}`, "vector 1 has 2 dimensions, vector 0 has 3", 0},
		{"dims not honoured", `{"embeddings":[[1,0,0],[1,0,0]]}`, "vector 0 has 3 dimensions, want 2", 2},
		{"malformed JSON", `{"embeddings":[[1,0,0],[1,0`, "malformed JSON", 0},
		{"HTML", `<html><body>proxy login</body></html>`, "proxy login", 0},
		{"NaN", `{"embeddings":[[1,0,0],[NaN,0,0]]}`, "NaN", 0},
		{"number out of float32 range", `{"embeddings":[[1,0,0],[1e39,0,0]]}`, "malformed JSON", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeOllama(t)
			f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
				io.WriteString(w, tc.body)
			}
			o := NewOllama(OllamaConfig{BaseURL: f.srv.URL, Dimensions: tc.dims})
			err := Batch{Backoff: time.Millisecond}.Run(t.Context(), o, Passage, texts(2))
			if !errors.Is(err, ErrResponse) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrResponse saying %q", err, tc.want)
			}
			if f.callCount() != 1 {
				t.Errorf("%d requests, want 1 (ErrResponse is not retried)", f.callCount())
			}
		})
	}
}

func TestOllamaDimsChangeBetweenBatches(t *testing.T) {
	f := newFakeOllama(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
		vecs := make([][]float32, len(req.Input))
		for i := range vecs {
			vecs[i] = make([]float32, 3+call-1) // 3 dims, then 4
			vecs[i][0] = 1
		}
		writeOllama(w, req.Model, vecs)
	}
	var done int
	err := Batch{Size: 2, Concurrency: 1, Done: func(int, [][]float32) error { done++; return nil }}.
		Run(t.Context(), NewOllama(OllamaConfig{BaseURL: f.srv.URL}), Passage, texts(4))
	if !errors.Is(err, ErrResponse) || !strings.Contains(err.Error(), "vector 0 has 4 dimensions, want 3") {
		t.Errorf("err = %v, want ErrResponse about dimensions", err)
	}
	if done != 1 {
		t.Errorf("Done called %d times, want 1 (the first batch only)", done)
	}
}

func TestOllamaEndpointWithPath(t *testing.T) {
	var path atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path.Store(r.URL.Path)
		writeOllama(w, "bge-m3", [][]float32{{1, 0}})
	}))
	defer srv.Close()
	if _, err := NewOllama(OllamaConfig{BaseURL: srv.URL + "/ollama/"}).Embed(t.Context(), Query, []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if p := path.Load(); p != "/ollama/api/embed" {
		t.Errorf("path = %v, want /ollama/api/embed", p)
	}
}

func equalVecs(a, b [][]float32) bool {
	return slices.EqualFunc(a, b, func(x, y []float32) bool { return slices.Equal(x, y) })
}
