package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/mcpserver"
)

// shedServer serves cfg on loopback and returns the Server too, whose
// gates the tests fill.
func shedServer(t *testing.T, cfg Config) (*httptest.Server, *Server) {
	t.Helper()
	h := New(cfg)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		h.Close()
	})
	return ts, h
}

// fill takes every slot of class c, as requests running would; the
// returned function gives them back.
func fill(t *testing.T, s *Server, c routeClass) func() {
	t.Helper()
	g := s.gates[c]
	n := cap(g.slots)
	for range n {
		if err := g.enter(context.Background()); err != nil {
			t.Fatalf("filling %s: %v", classNames[c], err)
		}
	}
	return func() {
		for range n {
			g.release()
		}
	}
}

// mcpCall is the JSON-RPC body of a call of an MCP tool.
func mcpCall(id int, tool string, args map[string]any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}}
}

var mcpHeaders = []string{"Accept", "application/json, text/event-stream", "Content-Type", "application/json"}

// TestShedEachRouteClass: when a class's slots are all taken and its
// queue is none, its requests get 503 with Retry-After, in the error shape
// of their API ({"error"} under /api, OpenAI's under /v1, a JSON-RPC
// error with the request's id for MCP), while the other classes are
// served; once the slots are free, the same request is served.
func TestShedEachRouteClass(t *testing.T) {
	tokens, player, _ := testTokens(t)
	extractive := testEngine(t)
	_, withModel := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	generative := testEngine(t, withModel)
	limits := Limits{Search: 2, Ask: 2, Model: 2, Queue: -1, QueueWait: 1500 * time.Millisecond}
	plain, plainSrv := shedServer(t, Config{Engine: extractive, Tokens: tokens, Limits: limits, MCP: mcpserver.HTTPHandler(extractive, "test")})
	model, modelSrv := shedServer(t, Config{Engine: generative, Tokens: tokens, Limits: limits, MCP: mcpserver.HTTPHandler(generative, "test")})

	question := "¿Quién cayó en el puente?"
	openAI := func(m string) map[string]any {
		return map[string]any{"model": m, "messages": []map[string]string{{"role": "user", "content": question}}}
	}
	tests := []struct {
		name    string
		ts      *httptest.Server
		srv     *Server
		class   routeClass
		path    string
		body    any
		headers []string
	}{
		{"search", plain, plainSrv, classSearch, "/api/search", map[string]any{"question": question}, nil},
		{"extractive ask", plain, plainSrv, classAsk, "/api/ask", map[string]any{"question": question, "extractive": true}, nil},
		{"ask without a chat model", plain, plainSrv, classAsk, "/api/ask", map[string]any{"question": question}, nil},
		{"extractive ask with a chat model", model, modelSrv, classAsk, "/api/ask", map[string]any{"question": question, "extractive": true}, nil},
		{"ask of the chat model", model, modelSrv, classModel, "/api/ask", map[string]any{"question": question}, nil},
		{"streamed ask of the chat model", model, modelSrv, classModel, "/api/ask", map[string]any{"question": question, "stream": true}, nil},
		{"openai extractive", model, modelSrv, classAsk, "/v1/chat/completions", openAI(ModelIDExtractive), nil},
		{"openai with the chat model", model, modelSrv, classModel, "/v1/chat/completions", openAI(ModelID), nil},
		{"openai without a chat model", plain, plainSrv, classAsk, "/v1/chat/completions", openAI(ModelID), nil},
		{"mcp search", plain, plainSrv, classSearch, "/mcp", mcpCall(7, "search", map[string]any{"question": question}), mcpHeaders},
		{"mcp ask without a chat model", plain, plainSrv, classAsk, "/mcp", mcpCall(8, "ask", map[string]any{"question": question}), mcpHeaders},
		{"mcp ask of the chat model", model, modelSrv, classModel, "/mcp", mcpCall(9, "ask", map[string]any{"question": question}), mcpHeaders},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release := fill(t, tt.srv, tt.class)
			resp, data := call(t, tt.ts, "POST", tt.path, player, tt.body, tt.headers...)
			if resp.StatusCode != http.StatusServiceUnavailable {
				release()
				t.Fatalf("with every %s slot taken: status %d, want 503: %s", classNames[tt.class], resp.StatusCode, data)
			}
			if got := resp.Header.Get("Retry-After"); got != "2" {
				t.Errorf("Retry-After %q, want 2 (the queue's wait, 1.5 s, rounded up)", got)
			}
			switch {
			case tt.path == "/mcp":
				var e struct {
					JSONRPC string          `json:"jsonrpc"`
					ID      json.RawMessage `json:"id"`
					Error   struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				id, _ := json.Marshal(tt.body.(map[string]any)["id"])
				if err := json.Unmarshal(data, &e); err != nil || e.JSONRPC != "2.0" || string(e.ID) != string(id) || e.Error.Code != mcpBusyCode || !strings.Contains(e.Error.Message, "busy") {
					t.Errorf("not a JSON-RPC error for id %s (%v): %s", id, err, data)
				}
			default:
				wantStatus(t, resp, data, http.StatusServiceUnavailable)
				if !strings.Contains(string(data), "busy") {
					t.Errorf("the error does not say the server is busy: %s", data)
				}
			}
			// Another class is not held back by this one's.
			other := map[routeClass]struct {
				path string
				body any
			}{
				classSearch: {"/api/ask", map[string]any{"question": question, "extractive": true}},
				classAsk:    {"/api/search", map[string]any{"question": question}},
				classModel:  {"/api/search", map[string]any{"question": question}},
			}[tt.class]
			if resp, data := call(t, tt.ts, "POST", other.path, player, other.body); resp.StatusCode != http.StatusOK {
				t.Errorf("%s while %s are full: status %d: %s", other.path, classNames[tt.class], resp.StatusCode, data)
			}
			release()
			resp, data = call(t, tt.ts, "POST", tt.path, player, tt.body, tt.headers...)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("with the slots free again: status %d, want 200: %s", resp.StatusCode, data)
			}
			if strings.Contains(string(data), `"error"`) && tt.path == "/mcp" {
				t.Errorf("the MCP call failed with the slots free: %s", data)
			}
		})
	}
	for _, s := range []*Server{plainSrv, modelSrv} {
		for c := classSearch; c < numClasses; c++ {
			if n := s.gates[c].running(); n != 0 {
				t.Errorf("%d %s slots still taken after every request ended", n, classNames[c])
			}
		}
	}
}

// TestShedQueue: a request that finds its class full waits in the queue
// and is served when a slot frees within the queue's wait; one that finds
// the queue full, or waits longer than the wait, gets 503.
func TestShedQueue(t *testing.T) {
	eng := testEngine(t)
	ts, srv := shedServer(t, Config{Engine: eng, Limits: Limits{Search: 1, Queue: 1, QueueWait: 300 * time.Millisecond}})
	search := map[string]any{"question": "puente"}

	// The wait runs out.
	release := fill(t, srv, classSearch)
	start := time.Now()
	resp, data := call(t, ts, "POST", "/api/search", "", search)
	if resp.StatusCode != http.StatusServiceUnavailable || time.Since(start) < 300*time.Millisecond {
		t.Fatalf("a search queued behind a full class: status %d after %v, want 503 after the 300 ms wait: %s", resp.StatusCode, time.Since(start), data)
	}
	if resp.Header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", resp.Header.Get("Retry-After"))
	}

	release()

	// The slot frees while one waits; a second finds the queue full.
	ts, srv = shedServer(t, Config{Engine: eng, Limits: Limits{Search: 1, Queue: 1, QueueWait: 10 * time.Second}})
	g := srv.gates[classSearch]
	release = fill(t, srv, classSearch)
	done := make(chan int, 1)
	go func() {
		resp, _ := call(t, ts, "POST", "/api/search", "", search)
		done <- resp.StatusCode
	}()
	for deadline := time.Now().Add(5 * time.Second); g.waiting.Load() != 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the search never queued")
		}
	}
	start = time.Now()
	resp, data = call(t, ts, "POST", "/api/search", "", search)
	if resp.StatusCode != http.StatusServiceUnavailable || time.Since(start) > 2*time.Second {
		t.Errorf("a search with the queue full: status %d after %v, want 503 at once: %s", resp.StatusCode, time.Since(start), data)
	}
	release()
	select {
	case status := <-done:
		if status != http.StatusOK {
			t.Errorf("the queued search: status %d once the slot freed, want 200", status)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the queued search was not served once the slot freed")
	}
}

// TestShedStreamHoldsSlot: a streamed answer from the chat model holds
// its slot while it streams, so that another gets 503; the slot is free
// again when the stream ends, and when its client goes away mid-stream.
func TestShedStreamHoldsSlot(t *testing.T) {
	fake, _ := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	// The stalled reply must outlast the test, not end in the model's
	// inactivity deadline (which would answer from the notes).
	withModel := oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: fake.URL, Model: "fake", IdleTimeout: time.Hour}))
	eng := testEngine(t, withModel)
	ts, srv := shedServer(t, Config{Engine: eng, Limits: Limits{Model: 1, Queue: -1, QueueWait: time.Second}})
	g := srv.gates[classModel]
	ask := map[string]any{"question": "¿Quién cayó en el puente?", "stream": true}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting until %s", what)
			}
		}
	}

	// A stream that ends frees its slot.
	resp, data := call(t, ts, "POST", "/api/ask", "", ask)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(data), "event: answer") {
		t.Fatalf("streamed ask: status %d: %s", resp.StatusCode, data)
	}
	waitFor("the ended stream's slot is free", func() bool { return g.running() == 0 })

	// A stalled stream holds it; its client leaving frees it.
	fake.Fail(chattest.Fault{Stall: true, After: 1})
	before := len(fake.Calls())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body, _ := json.Marshal(ask)
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/ask", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	streamResp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer streamResp.Body.Close()
	if streamResp.StatusCode != http.StatusOK {
		t.Fatalf("stalled stream: status %d", streamResp.StatusCode)
	}
	// Wait until the model has been asked to write the answer, so the
	// answer is underway (only verified text is streamed: the stalled
	// reply has none to send).
	waitFor("the model writes the answer", func() bool {
		for _, c := range fake.Calls()[before:] {
			if !c.JSON && c.Stream {
				return true
			}
		}
		return false
	})
	if g.running() != 1 {
		t.Fatalf("%d model slots taken during the stream, want 1", g.running())
	}
	resp, data = call(t, ts, "POST", "/api/ask", "", ask)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a second answer while the stream holds the only slot: status %d, Retry-After %q: %s", resp.StatusCode, resp.Header.Get("Retry-After"), data)
	}
	// Extractive work is another class: served meanwhile.
	if resp, data := call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "puente", "extractive": true}); resp.StatusCode != http.StatusOK {
		t.Errorf("an extractive answer while the model's slot is taken: status %d: %s", resp.StatusCode, data)
	}
	cancel()
	streamResp.Body.Close()
	waitFor("the departed client's slot is free", func() bool { return g.running() == 0 })
	fake.Fail(chattest.Fault{})
	resp, data = call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en el puente?"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("an answer after the client left: status %d: %s", resp.StatusCode, data)
	}
}

// TestHealthz: /healthz answers without a token, says that the index is
// open and nothing else; with the index closed it answers 503.
func TestHealthz(t *testing.T) {
	old := healthProbeEvery
	healthProbeEvery = 0
	defer func() { healthProbeEvery = old }()
	tokens, _, _ := testTokens(t)
	eng := testEngine(t)
	ts, _ := shedServer(t, Config{Engine: eng, Tokens: tokens, Version: "9.9.9-secret"})

	resp, err := ts.Client().Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz without a token: status %d: %s", resp.StatusCode, data)
	}
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil || body["status"] != "ok" || body["index"] != "open" || len(body) != 2 {
		t.Errorf(`/healthz: want exactly {"status":"ok","index":"open"} (%v): %s`, err, data)
	}
	for _, secret := range []string{"9.9.9", eng.DBPath(), "tokens"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("/healthz reveals %q: %s", secret, data)
		}
	}

	eng.Close()
	resp, err = ts.Client().Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	data, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(data), `"index":"unavailable"`) {
		t.Errorf("/healthz with the index closed: status %d: %s", resp.StatusCode, data)
	}
}

// TestShedRetryAfterReadableByPages: a page of an allowed origin (serve
// --cors) can read a refusal's Retry-After, which browsers hide unless
// exposed.
func TestShedRetryAfterReadableByPages(t *testing.T) {
	eng := testEngine(t)
	ts, srv := shedServer(t, Config{Engine: eng, CORSOrigins: []string{"app://obsidian.md"}, Limits: Limits{Search: 1, Queue: -1}})
	defer fill(t, srv, classSearch)()
	resp, data := call(t, ts, "POST", "/api/search", "", map[string]any{"question": "puente"}, "Origin", "app://obsidian.md")
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503: %s", resp.StatusCode, data)
	}
	if exposed := resp.Header.Get("Access-Control-Expose-Headers"); !strings.Contains(exposed, "Retry-After") {
		t.Errorf("Access-Control-Expose-Headers %q lacks Retry-After", exposed)
	}
}

// TestShedMCPClient: the MCP SDK's client sees a shed tool call as a
// failed call (not a hang, not a result), and its session goes on: the
// next call, with a slot free, is answered.
func TestShedMCPClient(t *testing.T) {
	eng := testEngine(t)
	ts, srv := shedServer(t, Config{Engine: eng, Limits: Limits{Search: 1, Queue: -1}, MCP: mcpserver.HTTPHandler(eng, "test")})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"question": "puente"}}
	release := fill(t, srv, classSearch)
	res, err := cs.CallTool(context.Background(), params)
	release()
	if err == nil || !strings.Contains(err.Error(), "Service Unavailable") {
		t.Fatalf("a shed search over MCP: result %+v, error %v; want the call to fail as unavailable", res, err)
	}
	if res, err := cs.CallTool(context.Background(), params); err != nil || res.IsError {
		t.Fatalf("the next search over the same session: %+v, %v", res, err)
	}
}
