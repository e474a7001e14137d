package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	_ "github.com/oraculo/oraculo/internal/golden"
)

// The providers are Models.
var (
	_ Model = (*Ollama)(nil)
	_ Model = (*OpenAI)(nil)
)

// recorded is one request a test server received.
type recorded struct {
	method, path string
	header       http.Header
	body         map[string]any
}

// recorder is an httptest server that records requests and answers with
// answer; it is independent of package chattest, so that the client and
// the fake cannot share a misreading of the wire format.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

func newRecorder(t *testing.T, answer func(w http.ResponseWriter, r *http.Request)) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			t.Errorf("request body is not JSON: %v: %s", err, b)
		}
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, recorded{r.Method, r.URL.Path, r.Header.Clone(), body})
		rec.mu.Unlock()
		answer(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) requests() []recorded {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.reqs)
}

// reply answers with status and body, of Content-Type ctype.
func reply(status int, ctype, body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// jsonOf renders v as compact JSON, to compare decoded request bodies.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// generic returns v as a decoded request body holds it.
func generic(v any) any {
	var g any
	json.Unmarshal([]byte(jsonOf(v)), &g)
	return g
}

var conversation = []Message{
	{Role: RoleSystem, Content: "Answer from the notes."},
	{Role: RoleUser, Content: "¿Quién fundó Numancia?"},
}

const (
	ollamaStream = `{"model":"m","created_at":"2026-03-01T12:00:00Z","message":{"role":"assistant","content":"Los "},"done":false}
{"model":"m","created_at":"2026-03-01T12:00:00Z","message":{"role":"assistant","content":"arévacos"},"done":false}

{"model":"m","created_at":"2026-03-01T12:00:00Z","message":{"role":"assistant","content":"."},"done":false}
{"model":"m","created_at":"2026-03-01T12:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":4883583458,"eval_count":3}
`
	ollamaWhole = `{"model":"m","created_at":"2026-03-01T12:00:00Z","message":{"role":"assistant","content":"{\"ids\":[3,1]}"},"done":true,"done_reason":"stop"}`
)

func TestOllamaRequest(t *testing.T) {
	yes := true
	for _, tc := range []struct {
		name   string
		cfg    OllamaConfig
		req    Request
		stream bool
		want   map[string]string // top-level body fields, as JSON
	}{
		{
			name: "streamed", cfg: OllamaConfig{Model: "m"},
			req: Request{Messages: conversation, MaxTokens: 300}, stream: true,
			want: map[string]string{"model": `"m"`, "stream": "true", "think": "false", "keep_alive": `"30m"`,
				"options": `{"num_predict":300,"temperature":0}`, "messages": jsonOf(generic(conversation)), "format": ""},
		},
		{
			name: "whole JSON", cfg: OllamaConfig{Model: "m", KeepAlive: "-1", Think: &yes},
			req: Request{Messages: conversation, JSON: true, Temperature: 0.2},
			want: map[string]string{"stream": "false", "think": "true", "keep_alive": "-1", "format": `"json"`,
				"options": `{"temperature":0.2}`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.stream {
					reply(200, "application/x-ndjson", ollamaStream)(w, r)
				} else {
					reply(200, "application/json; charset=utf-8", ollamaWhole)(w, r)
				}
			})
			tc.cfg.BaseURL = rec.URL
			exchange(t, NewOllama(tc.cfg), tc.req, tc.stream)
			sentOne(t, rec, "/api/chat", map[string]string{"Content-Type": "application/json", "Authorization": ""}, tc.want)
		})
	}
}

// exchange runs req through m, streamed or not, and checks the reply
// against the test answers (ollamaStream, openAIStream: "Los arévacos."
// in three pieces; ollamaWhole, openAIWhole: {"ids":[3,1]}).
func exchange(t *testing.T, m Model, req Request, stream bool) {
	t.Helper()
	var onDelta func(string)
	var deltas []string
	if stream {
		onDelta = func(s string) { deltas = append(deltas, s) }
	}
	got, err := m.Chat(t.Context(), req, onDelta)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ids":[3,1]}`
	if stream {
		want = "Los arévacos."
		if !slices.Equal(deltas, []string{"Los ", "arévacos", "."}) {
			t.Errorf("deltas = %q", deltas)
		}
	}
	if got != want {
		t.Errorf("reply = %q, want %q", got, want)
	}
}

// sentOne checks that rec received one POST to path, with the headers and
// top-level body fields (as JSON; "" for absent) of want.
func sentOne(t *testing.T, rec *recorder, path string, headers, fields map[string]string) {
	t.Helper()
	reqs := rec.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.method != http.MethodPost || r.path != path {
		t.Errorf("request = %s %s, want POST %s", r.method, r.path, path)
	}
	for name, want := range headers {
		if got := r.header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	for field, want := range fields {
		got := ""
		if v, ok := r.body[field]; ok {
			got = jsonOf(v)
		}
		if got != want {
			t.Errorf("body %s = %s, want %s", field, got, want)
		}
	}
}

func TestOllamaDefaults(t *testing.T) {
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.Path
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		if body["model"] != DefaultOllamaModel {
			t.Errorf("model = %v, want %s", body["model"], DefaultOllamaModel)
		}
		reply(200, "application/json", ollamaWhole)(w, r)
	}))
	defer srv.Close()
	// OLLAMA_HOST without a scheme, and a path prefix (a proxy).
	t.Setenv("OLLAMA_HOST", strings.TrimPrefix(srv.URL, "http://")+"/ollama")
	o := NewOllama(OllamaConfig{})
	if o.ID() != "ollama/qwen2.5:7b" {
		t.Errorf("ID = %q", o.ID())
	}
	if _, err := o.Chat(t.Context(), Request{Messages: conversation}, nil); err != nil {
		t.Fatal(err)
	}
	if path != "/ollama/api/chat" {
		t.Errorf("path = %q, want /ollama/api/chat", path)
	}
	if id := NewOllama(OllamaConfig{Model: "Llama3.2:latest"}).ID(); id != "ollama/llama3.2" {
		t.Errorf("ID = %q, want ollama/llama3.2", id)
	}
}

func TestOllamaConfigErrors(t *testing.T) {
	for _, cfg := range []OllamaConfig{
		{BaseURL: "tcp://host:1"},
		{BaseURL: "host:99999"},
		{KeepAlive: "soon"},
	} {
		_, err := NewOllama(cfg).Chat(t.Context(), Request{Messages: conversation}, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "ollama: ") {
			t.Errorf("%+v: err = %v, want a configuration error", cfg, err)
		}
	}
	for _, req := range []Request{
		{},
		{Messages: conversation, Temperature: -1},
		{Messages: conversation, MaxTokens: -5},
	} {
		if _, err := NewOllama(OllamaConfig{}).Chat(t.Context(), req, nil); err == nil {
			t.Errorf("%+v: no error", req)
		}
	}
}

// errorCase is a server answer and the error it must give.
type errorCase struct {
	name   string
	status int
	ctype  string
	body   string
	stream bool
	kind   error
	want   []string // in the message
}

func TestOllamaErrors(t *testing.T) {
	for _, tc := range []errorCase{
		{name: "model not pulled", status: 404, body: `{"error":"model 'x' not found, try pulling it first"}`,
			kind: ErrModel, want: []string{"model 'x' not found", "HTTP 404", `run "ollama pull x"`, "chat with model"}},
		{name: "model not found (older wording)", status: 404, body: `{"error":"model \"x\" not found, try pulling it first"}`, stream: true,
			kind: ErrModel},
		{name: "no such route", status: 404, ctype: "text/plain", body: "404 page not found",
			kind: ErrResponse, want: []string{"404 page not found", "no /api/chat here"}},
		{name: "proxy wants credentials", status: 401, body: `{"error":"unauthorized"}`,
			kind: ErrAuth, want: []string{"unauthorized", "wants credentials"}},
		{name: "cannot think", status: 400, body: `{"error":"\"x\" does not support thinking"}`,
			kind: ErrModel, want: []string{"leave Think unset"}},
		{name: "embedding model", status: 400, body: `{"error":"\"x\" does not support chat"}`,
			kind: ErrModel, want: []string{"not a chat model"}},
		{name: "out of memory", status: 500, body: `{"error":"model requires more system memory (9.1 GiB) than is available (4.0 GiB)"}`,
			kind: ErrModel, want: []string{"smaller"}},
		{name: "server error", status: 500, body: `{"error":"llama runner process has terminated: exit status 2"}`,
			kind: ErrResponse, want: []string{"llama runner process has terminated", "HTTP 500"}},
		{name: "malformed whole", status: 200, body: `{"message":{"content":"tru`,
			kind: ErrResponse, want: []string{"malformed JSON"}},
		{name: "malformed line", status: 200, body: `{"message":{"content":"a"},"done":false}` + "\n{oops\n", stream: true,
			kind: ErrResponse, want: []string{"malformed JSON", "{oops"}},
		{name: "error line", status: 200, body: `{"message":{"content":"a"},"done":false}` + "\n" + `{"error":"an error was encountered while running the model: unexpected EOF"}` + "\n", stream: true,
			kind: ErrResponse, want: []string{"the server reported: an error was encountered"}},
		{name: "no done line", status: 200, body: `{"message":{"content":"a"},"done":false}` + "\n", stream: true,
			kind: ErrResponse, want: []string{`"done": true`}},
		{name: "empty reply", status: 200, body: `{"message":{"role":"assistant","content":"  "},"done":true}`,
			kind: ErrResponse, want: []string{"the reply is empty"}},
		{name: "error in 2xx", status: 200, body: `{"error":"something broke"}`,
			kind: ErrResponse, want: []string{"something broke"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctype := tc.ctype
			if ctype == "" {
				ctype = "application/json; charset=utf-8"
				if tc.stream && tc.status == 200 {
					ctype = "application/x-ndjson"
				}
			}
			rec := newRecorder(t, reply(tc.status, ctype, tc.body))
			checkError(t, NewOllama(OllamaConfig{BaseURL: rec.URL, Model: "x"}), rec, tc)
		})
	}
}

// checkError runs tc against m and checks the error.
func checkError(t *testing.T, m Model, rec *recorder, tc errorCase) {
	t.Helper()
	var onDelta func(string)
	if tc.stream {
		onDelta = func(string) {}
	}
	_, err := m.Chat(t.Context(), Request{Messages: conversation}, onDelta)
	if err == nil {
		t.Fatal("no error")
	}
	if !errors.Is(err, tc.kind) {
		t.Errorf("err = %v, want %v", err, tc.kind)
	}
	for _, sentinel := range []error{ErrUnreachable, ErrModel, ErrAuth, ErrResponse} {
		if sentinel != tc.kind && errors.Is(err, sentinel) {
			t.Errorf("err = %v also wraps %v", err, sentinel)
		}
	}
	msg := err.Error()
	if msg != strings.ToLower(msg[:1])+msg[1:] {
		t.Errorf("message %q does not start in lowercase", msg)
	}
	if !strings.Contains(msg, fmt.Sprintf("%q", strings.TrimSuffix(rec.URL, "/"))) {
		t.Errorf("message %q does not name the server %s", msg, rec.URL)
	}
	for _, w := range tc.want {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not say %q", msg, w)
		}
	}
	if n := len(rec.requests()); n != 1 {
		t.Errorf("%d requests, want 1 (not retried)", n)
	}
}
