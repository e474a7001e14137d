package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

// testNotes is a small campaign: two sessions, an NPC, and a DM-only note
// (the DM/ folder) whose word "Vermitrax" no other note has.
var testNotes = map[string]string{
	"Sesiones/Campaña.md": `# Campaña

## Sesión 1 — El puente

Cruzamos el puente de Galerna. Norkiel cayó en combate contra los trolls.

## Sesión 2 — La cripta

En la cripta encontramos el mapa del archiduque, como ya vimos en la sesión 1.
`,
	"NPCs/Harbin Wester.md": "---\ntitle: Harbin Wester\naliases: [el viejo]\n---\n# Harbin Wester\n\nTabernero de Puertogris, vende mapas falsos del archiduque.\n",
	"DM/Secretos.md":        "# Secretos\n\nEl archiduque es en realidad el dragón Vermitrax, y Harbin Wester lo sabe.\n",
}

const secretFile = "DM/Secretos.md"

func writeNotes(t testing.TB) string {
	t.Helper()
	return writeNoteFiles(t, testNotes)
}

// writeNoteFiles writes notes (a path relative to the folder → the note's
// text) into a new folder and returns it.
func writeNoteFiles(t testing.TB, notes map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range notes {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), text)
	}
	return dir
}

// writeFile writes text to path, making its folder.
func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ingested is an engine over notes (see writeNoteFiles), ingested without
// models, closed when the test ends, with the path of its index.
func ingested(t testing.TB, notes map[string]string) (*oraculo.Engine, string) {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "o.db")
	eng, err := oraculo.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.Ingest(ctx, []string{writeNoteFiles(t, notes)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	return eng, db
}

// testEngine is an engine over testNotes, closed when the test ends. The
// notes are ingested without models; the engine returned uses those opts
// name (a fake chat model, say).
func testEngine(t testing.TB, opts ...oraculo.Option) *oraculo.Engine {
	t.Helper()
	eng, db := ingested(t, testNotes)
	if len(opts) == 0 {
		return eng
	}
	with, err := oraculo.Open(context.Background(), db, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { with.Close() })
	return with
}

// fakeChat starts a fake Ollama model answering reply (JSON requests, the
// reranker's, get an empty pick) and returns it with the option that makes
// an engine use it.
func fakeChat(t testing.TB, reply func(chattest.Call) string) (*chattest.Server, oraculo.Option) {
	t.Helper()
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		if c.JSON {
			return `{"ids":[]}`
		}
		return reply(c)
	})
	return srv, oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"}))
}

// syncBuffer is a bytes.Buffer safe for the logger's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testServer serves cfg on loopback; logs go to the returned buffer.
func testServer(t testing.TB, cfg Config) (*httptest.Server, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	}
	h := New(cfg)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		h.Close()
	})
	return ts, logs
}

// testTokens makes a tokens file with a player (ana) and a DM (dm).
func testTokens(t testing.TB) (tokens *Tokens, player, dm string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tokens.yaml")
	player, err := AddToken(path, "ana", oraculo.RolePlayer)
	if err != nil {
		t.Fatal(err)
	}
	if dm, err = AddToken(path, "dm", oraculo.RoleDM); err != nil {
		t.Fatal(err)
	}
	if tokens, err = LoadTokens(path); err != nil {
		t.Fatal(err)
	}
	return tokens, player, dm
}

// call makes a request: body is sent as is when a string, as JSON
// otherwise; headers come in pairs.
func call(t testing.TB, ts *httptest.Server, method, path, token string, body any, headers ...string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if strings.EqualFold(headers[i], "Host") {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, data
}

// wantStatus checks a response's status and, for errors, the JSON error
// shape ({"error": "..."} under /api, OpenAI's under /v1).
func wantStatus(t testing.TB, resp *http.Response, data []byte, status int) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d: %s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, status, data)
	}
	if status < 400 {
		return
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("error with Content-Type %q: %s", ct, data)
	}
	if strings.HasPrefix(resp.Request.URL.Path, "/v1/") {
		var e struct {
			Error struct {
				Message string `json:"message"`
				Type    string `json:"type"`
			} `json:"error"`
		}
		if err := json.Unmarshal(data, &e); err != nil || e.Error.Message == "" || e.Error.Type == "" {
			t.Fatalf("not an OpenAI error (%v): %s", err, data)
		}
		return
	}
	var e map[string]string
	if err := json.Unmarshal(data, &e); err != nil || e["error"] == "" || len(e) != 1 {
		t.Fatalf(`not {"error": "..."} (%v): %s`, err, data)
	}
}

func decodeJSON[T any](t testing.TB, data []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	return v
}

// sseEvent is one server-sent event; a comment has Comment set.
type sseEvent struct {
	Name, Data, Comment string
}

// readSSE parses an event stream to its end.
func readSSE(t testing.TB, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	var data []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Name != "" || data != nil {
				cur.Data = strings.Join(data, "\n")
				out = append(out, cur)
			}
			cur, data = sseEvent{}, nil
		case strings.HasPrefix(line, ":"):
			out = append(out, sseEvent{Comment: strings.TrimSpace(line[1:])})
		case strings.HasPrefix(line, "event: "):
			cur.Name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = append(data, line[len("data: "):])
		default:
			t.Fatalf("not an event-stream line: %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur.Name != "" || data != nil {
		t.Fatalf("stream ended inside an event: %+v %q", cur, data)
	}
	return out
}

func TestHealth(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng, Version: "1.2.3"})
	resp, data := call(t, ts, "GET", "/api/health", "", nil)
	wantStatus(t, resp, data, 200)
	h := decodeJSON[map[string]any](t, data)
	if h["status"] != "ok" || h["version"] != "1.2.3" || h["auth"] != false || h["role"] != "dm" {
		t.Fatalf("health without tokens: %s", data)
	}

	tokens, player, _ := testTokens(t)
	ts, _ = testServer(t, Config{Engine: eng, Tokens: tokens})
	for _, c := range []struct{ token, role string }{{"", ""}, {"orc_wrong", ""}, {player, "player"}} {
		resp, data := call(t, ts, "GET", "/api/health", c.token, nil)
		wantStatus(t, resp, data, 200)
		h := decodeJSON[map[string]any](t, data)
		if h["auth"] != true || h["role"] != c.role {
			t.Errorf("health with token %q: %s, want role %q", c.token, data, c.role)
		}
	}
}

func TestAuth(t *testing.T) {
	eng := testEngine(t)
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	search := map[string]any{"question": "puente"}
	for _, c := range []struct {
		method, path, token string
		body                any
		status              int
	}{
		{"POST", "/api/search", "", search, 401},
		{"POST", "/api/search", "orc_not-a-token", search, 401},
		{"POST", "/api/search", "not-even-prefixed", search, 401},
		{"POST", "/api/search", player, search, 200},
		{"POST", "/api/search", dm, search, 200},
		{"GET", "/api/stats", "", nil, 401},
		{"GET", "/api/stats", player, nil, 403},
		{"GET", "/api/stats", dm, nil, 200},
		{"GET", "/api/ingest", player, nil, 403},
		{"POST", "/api/ingest", player, nil, 403},
		{"GET", "/api/compendium", "", nil, 401},
		{"GET", "/v1/models", "", nil, 401},
		{"GET", "/v1/models", "orc_x", nil, 401},
		{"GET", "/v1/models", player, nil, 200},
	} {
		resp, data := call(t, ts, c.method, c.path, c.token, c.body)
		wantStatus(t, resp, data, c.status)
		if c.status == 401 && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s %s: 401 without WWW-Authenticate", c.method, c.path)
		}
	}
	// A token in another header or the query does not count.
	resp, data := call(t, ts, "POST", "/api/search?token="+player, "", search, "X-Api-Key", player)
	wantStatus(t, resp, data, 401)
}

// roleProbe stands for the MCP handler: it reports the role and the
// player's name the server put in the request's context.
var roleProbe = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]string{"role": oraculo.RoleFrom(r.Context()), "player": oraculo.PlayerFrom(r.Context())})
})

func TestRoleInContext(t *testing.T) {
	eng := testEngine(t)
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens, MCP: roleProbe})
	for token, want := range map[string][2]string{player: {oraculo.RolePlayer, "ana"}, dm: {oraculo.RoleDM, ""}} {
		resp, data := call(t, ts, "POST", "/mcp", token, "{}")
		wantStatus(t, resp, data, 200)
		got := decodeJSON[map[string]string](t, data)
		if got["role"] != want[0] || got["player"] != want[1] {
			t.Errorf("role and player in context %q, %q; want %q, %q", got["role"], got["player"], want[0], want[1])
		}
	}
	resp, data := call(t, ts, "POST", "/mcp", "", "{}")
	wantStatus(t, resp, data, 401)

	// Without tokens: the local role, the DM's unless told otherwise.
	for local, want := range map[string]string{"": oraculo.RoleDM, oraculo.RolePlayer: oraculo.RolePlayer} {
		ts, _ := testServer(t, Config{Engine: eng, LocalRole: local, MCP: roleProbe})
		resp, data := call(t, ts, "GET", "/mcp", "", nil)
		wantStatus(t, resp, data, 200)
		if got := decodeJSON[map[string]string](t, data); got["role"] != want || got["player"] != "" {
			t.Errorf("LocalRole %q: role and player in context %q, %q; want %q and no player", local, got["role"], got["player"], want)
		}
	}
}

// TestPlayerNeverSeesDMNotes checks the role through what the engine
// returns: the DM-only note is found for the DM and absent, or a plain
// 404, for a player, on every route.
func TestPlayerNeverSeesDMNotes(t *testing.T) {
	eng := testEngine(t)
	tokens, player, dm := testTokens(t)
	ts, logs := testServer(t, Config{Engine: eng, Tokens: tokens})

	secretID := ""
	resp, data := call(t, ts, "POST", "/api/search", dm, map[string]any{"question": "Vermitrax"})
	wantStatus(t, resp, data, 200)
	for _, h := range decodeJSON[searchResponse](t, data).Hits {
		if h.File == secretFile {
			secretID = h.ID
		}
	}
	if secretID == "" {
		t.Fatalf("the DM does not find the secret: %s", data)
	}
	resp, data = call(t, ts, "GET", "/api/chunks/"+secretID, dm, nil)
	wantStatus(t, resp, data, 200)
	resp, data = call(t, ts, "GET", "/api/note?file="+secretFile, dm, nil)
	wantStatus(t, resp, data, 200)

	leaks := func(what string, data []byte) {
		t.Helper()
		for _, s := range []string{"Vermitrax", secretFile, secretID} {
			if bytes.Contains(data, []byte(s)) {
				t.Errorf("%s shows a player %q: %s", what, s, data)
			}
		}
	}
	resp, data = call(t, ts, "POST", "/api/search", player, map[string]any{"question": "el archiduque es en realidad un dragón"})
	wantStatus(t, resp, data, 200)
	leaks("search", data)
	resp, data = call(t, ts, "POST", "/api/ask", player, map[string]any{"question": "¿Qué es en realidad el archiduque? ¿Un dragón?", "extractive": true})
	wantStatus(t, resp, data, 200)
	leaks("ask", data)
	resp, data = call(t, ts, "POST", "/v1/chat/completions", player, map[string]any{"model": "oraculo", "messages": []map[string]string{{"role": "user", "content": "¿Qué es el archiduque en realidad? ¿Quién lo sabe?"}}})
	wantStatus(t, resp, data, 200)
	leaks("chat completion", data)
	resp, data = call(t, ts, "GET", "/api/chunks/"+secretID, player, nil)
	wantStatus(t, resp, data, 404)
	if string(bytes.TrimSpace(data)) != `{"error":"not found"}` {
		t.Errorf("hidden chunk: %s", data)
	}
	resp, data = call(t, ts, "GET", "/api/note?file="+secretFile, player, nil)
	wantStatus(t, resp, data, 404)
	if string(bytes.TrimSpace(data)) != `{"error":"not found"}` {
		t.Errorf("hidden note: %s", data)
	}
	resp, data = call(t, ts, "GET", "/api/compendium", player, nil)
	wantStatus(t, resp, data, 200)
	leaks("compendium", data)

	// The access log names the caller and role, never a token or question.
	out := logs.String()
	if strings.Contains(out, "orc_") || strings.Contains(out, "Vermitrax") || strings.Contains(out, "archiduque") {
		t.Errorf("the access log shows a token or a question:\n%s", out)
	}
	if !strings.Contains(out, `"role":"player","user":"ana"`) || !strings.Contains(out, `"role":"dm","user":"dm"`) {
		t.Errorf("the access log lacks the callers:\n%s", out)
	}
}

func TestLocalOnly(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	for _, c := range []struct {
		headers []string
		status  int
	}{
		{nil, 200},
		{[]string{"Host", "localhost:8080"}, 200},
		{[]string{"Origin", "http://localhost:5173"}, 200},
		{[]string{"Origin", "http://[::1]:8080"}, 200},
		{[]string{"Host", "evil.example"}, 403}, // DNS rebinding
		{[]string{"Origin", "https://evil.example"}, 403},
		{[]string{"Origin", "null"}, 403},
	} {
		resp, data := call(t, ts, "GET", "/api/health", "", nil, c.headers...)
		wantStatus(t, resp, data, c.status)
	}
	// A client that is not on loopback.
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "http://127.0.0.1/api/health", nil)
	req.RemoteAddr = "192.0.2.7:4242"
	New(Config{Engine: eng}).ServeHTTP(rec, req)
	if rec.Code != 403 {
		t.Errorf("a remote client without tokens: %d %s", rec.Code, rec.Body)
	}
}

func TestBadRequests(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng, MaxBodyBytes: 512})
	big := `{"question": "` + strings.Repeat("x", 1000) + `"}`
	for _, c := range []struct {
		method, path string
		body         any
		status       int
	}{
		{"POST", "/api/search", `{"question": `, 400},
		{"POST", "/api/search", `{"question": "a"} {"question": "b"}`, 400},
		{"POST", "/api/search", `{"question": "a", "bogus": 1}`, 400},
		{"POST", "/api/search", `{"question": "  "}`, 400},
		{"POST", "/api/search", `{"question": "a", "k": 1000}`, 400},
		{"POST", "/api/search", `{"question": "a", "paths": ["nope"]}`, 400},
		{"POST", "/api/ask", `[]`, 400},
		{"POST", "/api/ask", `{"question": "a", "lang": "fr"}`, 400},
		{"POST", "/api/ask", ``, 400},
		{"POST", "/api/search", big, 413},
		{"POST", "/api/ask", big, 413},
		{"POST", "/v1/chat/completions", big, 413},
		{"POST", "/v1/chat/completions", `{"messages": []}`, 400},
		{"POST", "/v1/chat/completions", `{"messages": [{"role": "assistant", "content": "hola"}]}`, 400},
		{"POST", "/v1/chat/completions", `{"messages": [{"role": "user", "content": 7}]}`, 400},
		{"GET", "/api/note", nil, 400},
		{"GET", "/api/chunks/ffffffffffffffff", nil, 404},
		{"GET", "/api/note?file=nope.md", nil, 404},
		{"GET", "/api/compendium/Nadie%20Nunca", nil, 404},
		{"GET", "/api/nope", nil, 404},
		{"GET", "/v1/nope", nil, 404},
		{"GET", "/", nil, 404},
		{"GET", "/api/search", nil, 405},
		{"DELETE", "/api/ingest", nil, 405},
		{"POST", "/v1/models", nil, 405},
	} {
		resp, data := call(t, ts, c.method, c.path, "", c.body)
		wantStatus(t, resp, data, c.status)
		if c.status == 405 && resp.Header.Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", c.method, c.path)
		}
	}
	// A body of unknown length is cut while reading.
	req, _ := http.NewRequest("POST", ts.URL+"/api/search", io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	wantStatus(t, resp, data, 413)
}

func TestPanicIs500(t *testing.T) {
	eng := testEngine(t)
	ts, logs := testServer(t, Config{Engine: eng, MCP: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })})
	resp, data := call(t, ts, "POST", "/mcp", "", "{}")
	wantStatus(t, resp, data, 500)
	if !strings.Contains(logs.String(), `"panic":"boom"`) {
		t.Errorf("the panic is not logged:\n%s", logs)
	}
	// The server still serves.
	resp, data = call(t, ts, "GET", "/api/health", "", nil)
	wantStatus(t, resp, data, 200)
}

func TestWebMount(t *testing.T) {
	eng := testEngine(t)
	web := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page "+r.URL.Path) })
	ts, _ := testServer(t, Config{Engine: eng, Web: web})
	resp, data := call(t, ts, "GET", "/static/app.js", "", nil)
	if resp.StatusCode != 200 || string(data) != "page /static/app.js" {
		t.Fatalf("web: %d %s", resp.StatusCode, data)
	}
	resp, data = call(t, ts, "GET", "/api/nope", "", nil)
	wantStatus(t, resp, data, 404)
}

func TestSearch(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	q := "el mapa del archiduque"
	resp, data := call(t, ts, "POST", "/api/search", "", map[string]any{"question": q, "k": 2, "paths": []string{"bm25"}})
	wantStatus(t, resp, data, 200)
	got := decodeJSON[map[string]any](t, data)
	if got["question"] != q {
		t.Errorf("question: %v", got["question"])
	}
	hits := got["hits"].([]any)
	if len(hits) != 2 {
		t.Fatalf("%d hits, want 2: %s", len(hits), data)
	}
	first := hits[0].(map[string]any)
	for _, field := range []string{"rank", "id", "file", "label", "headings", "session", "words", "text", "score", "paths", "title", "passage"} {
		if _, ok := first[field]; !ok {
			t.Errorf("a hit lacks %q: %v", field, first)
		}
	}
	// The same hits as the engine's.
	var an oraculo.QueryAnalysis
	want, err := eng.Search(context.Background(), q, oraculo.SearchOptions{K: 2, Paths: []string{"bm25"}, Analysis: &an})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := marshal(searchResponse{Question: q, Hits: want, Analysis: an})
	if string(bytes.TrimSpace(data)) != string(wantJSON) {
		t.Errorf("search body differs from the engine's:\n%s\n%s", data, wantJSON)
	}
}

func TestChunkNoteCompendium(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	ctx := context.Background()
	chunks, err := eng.Chunks(ctx, []string{"Sesiones/Campaña.md"})
	if err != nil || len(chunks) == 0 {
		t.Fatal(chunks, err)
	}
	resp, data := call(t, ts, "GET", "/api/chunks/"+chunks[0].ID, "", nil)
	wantStatus(t, resp, data, 200)
	if c := decodeJSON[oraculo.ChunkInfo](t, data); c.ID != chunks[0].ID || c.Text != chunks[0].Text {
		t.Errorf("chunk: %s", data)
	}
	resp, data = call(t, ts, "GET", "/api/note?file=Sesiones/Campa%C3%B1a.md", "", nil)
	wantStatus(t, resp, data, 200)
	if n := decodeJSON[oraculo.NoteInfo](t, data); n.File != "Sesiones/Campaña.md" || len(n.Chunks) != len(chunks) {
		t.Errorf("note: %s", data)
	}
	resp, data = call(t, ts, "GET", "/api/compendium", "", nil)
	wantStatus(t, resp, data, 200)
	all := decodeJSON[struct {
		Entities []oraculo.CompendiumEntry `json:"entities"`
	}](t, data)
	found := false
	for _, e := range all.Entities {
		found = found || e.Name == "Harbin Wester"
	}
	if !found {
		t.Errorf("compendium lacks Harbin Wester: %s", data)
	}
	for _, name := range []string{"Harbin%20Wester", "harbin%20wester", "el%20viejo"} {
		resp, data = call(t, ts, "GET", "/api/compendium/"+name, "", nil)
		wantStatus(t, resp, data, 200)
		if e := decodeJSON[oraculo.CompendiumEntry](t, data); e.Name != "Harbin Wester" {
			t.Errorf("compendium/%s: %s", name, data)
		}
	}
}

func TestStats(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	resp, data := call(t, ts, "GET", "/api/stats", "", nil)
	wantStatus(t, resp, data, 200)
	st := decodeJSON[map[string]any](t, data)
	if st["documents"] != float64(len(testNotes)) {
		t.Errorf("stats: %s", data)
	}
}

func TestAskJSON(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	resp, data := call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en combate en el puente?", "extractive": true})
	wantStatus(t, resp, data, 200)
	a := decodeJSON[oraculo.Answer](t, data)
	if a.Mode != "extractive" || a.Abstained || !strings.Contains(a.Answer, "[Sesión 1]") || len(a.Citations) == 0 || !a.Citations[0].Valid {
		t.Fatalf("answer: %s", data)
	}
	// History makes a follow-up.
	resp, data = call(t, ts, "POST", "/api/ask", "", map[string]any{
		"question": "¿y después?", "extractive": true,
		"history": []map[string]string{{"question": "¿Quién cayó en combate en el puente?", "answer": a.Answer, "query": a.Query}},
	})
	wantStatus(t, resp, data, 200)
	if f := decodeJSON[oraculo.Answer](t, data); !f.FollowUp || !strings.Contains(f.Query, "puente") {
		t.Errorf("follow-up: query %q, follow_up %v", f.Query, f.FollowUp)
	}
}

// rawAnswer is what the fake model writes: one valid citation, one
// invented that verification removes.
const rawAnswer = "Norkiel cayó en combate contra los trolls. [Sesión 1] Luego se fueron a casa. [Sesión 99]"

// verifiedAnswer is rawAnswer verified: the invented citation removed,
// the sentence it left without support marked.
const verifiedAnswer = "Norkiel cayó en combate contra los trolls. [Sesión 1] Luego se fueron a casa. _(sin fuente)_"

func TestAskStream(t *testing.T) {
	_, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	ts, _ := testServer(t, Config{Engine: eng})
	for _, c := range []struct {
		body    map[string]any
		headers []string
	}{
		{map[string]any{"question": "¿Quién cayó en combate?", "stream": true}, nil},
		{map[string]any{"question": "¿Quién cayó en combate?"}, []string{"Accept", "text/event-stream"}},
	} {
		resp, data := call(t, ts, "POST", "/api/ask", "", c.body, c.headers...)
		wantStatus(t, resp, data, 200)
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
			t.Fatalf("Content-Type %q", ct)
		}
		events := readSSE(t, bytes.NewReader(data))
		var text strings.Builder
		answers := 0
		for i, e := range events {
			switch e.Name {
			case "delta":
				if answers > 0 {
					t.Fatalf("a delta after the answer: %s", data)
				}
				text.WriteString(decodeJSON[map[string]string](t, []byte(e.Data))["text"])
			case "answer":
				answers++
				if i != len(events)-1 {
					t.Fatalf("the answer is not the last event: %s", data)
				}
				a := decodeJSON[oraculo.Answer](t, []byte(e.Data))
				if a.Mode != "generated" || strings.Contains(a.Answer, "Sesión 99") || !strings.Contains(a.Answer, "[Sesión 1]") || len(a.Removed) != 1 {
					t.Errorf("verified answer: %s", e.Data)
				}
				if a.Answer != verifiedAnswer || a.Sentences != 2 || a.SupportedSentences != 1 {
					t.Errorf("answer %q, %d of %d sentences supported; want %q, 1 of 2", a.Answer, a.SupportedSentences, a.Sentences, verifiedAnswer)
				}
			case "":
			default:
				t.Fatalf("unexpected event %q: %s", e.Name, data)
			}
		}
		// Only verified text is streamed, the sentence whose citation was
		// invented marked.
		if answers != 1 || text.String() != verifiedAnswer {
			t.Errorf("%d answer events; deltas %q, want %q", answers, text.String(), verifiedAnswer)
		}
		if len(events) < 3 {
			t.Errorf("the answer was not streamed in pieces: %s", data)
		}
	}
}

// hiddenReasoning is what a thinking model reasons; it must never leave
// the server.
const hiddenReasoning = "RAZONAMIENTO-OCULTO"

// thinkingAnswer is rawAnswer as a thinking model writes it: reasoning
// first, and a block left unclosed at the end (out of tokens).
const thinkingAnswer = "<think>\nThe user asks who fell. " + hiddenReasoning + "\n</think>\n\n" + rawAnswer + " <think>\nWait, " + hiddenReasoning

// thinkingChat gives eng a fake thinking model behind an Ollama or an
// OpenAI-style server, streaming two runes a piece so that tags are cut.
func thinkingChat(t *testing.T, openAI bool) oraculo.Option {
	t.Helper()
	reply := func(c chattest.Call) string {
		if c.JSON {
			return `{"ids":[]}`
		}
		return thinkingAnswer
	}
	var srv *chattest.Server
	var model oraculo.Option
	if openAI {
		srv = chattest.NewOpenAI(t, reply)
		model = oraculo.WithChatModel(chat.NewOpenAI(chat.OpenAIConfig{BaseURL: srv.URL, Model: "fake"}))
	} else {
		srv, model = fakeChat(t, func(chattest.Call) string { return thinkingAnswer })
	}
	srv.Cut(chattest.Runes(2))
	return model
}

// noReasoning fails the test when data carries the model's reasoning.
func noReasoning(t *testing.T, what string, data []byte) {
	t.Helper()
	if bytes.Contains(data, []byte(hiddenReasoning)) || bytes.Contains(bytes.ToLower(data), []byte("think\u003e")) || bytes.Contains(bytes.ToLower(data), []byte("think>")) {
		t.Errorf("the model's reasoning reached %s: %s", what, data)
	}
}

// A thinking model: the stream says when it thinks, and its reasoning
// reaches no delta, no answer, and neither OpenAI-style completion.
func TestAskStreamThinking(t *testing.T) {
	for _, openAI := range []bool{false, true} {
		name := "ollama"
		if openAI {
			name = "openai"
		}
		t.Run(name, func(t *testing.T) {
			eng := testEngine(t, thinkingChat(t, openAI))
			ts, _ := testServer(t, Config{Engine: eng})
			resp, data := call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en combate?", "stream": true})
			wantStatus(t, resp, data, 200)
			noReasoning(t, "the event stream", data)
			var order, text strings.Builder
			for _, e := range readSSE(t, bytes.NewReader(data)) {
				switch e.Name {
				case "thinking":
					order.WriteString("T")
					if e.Data != "{}" {
						t.Errorf("thinking event data %q, want {}", e.Data)
					}
				case "delta":
					if !strings.HasSuffix(order.String(), "d") {
						order.WriteString("d")
					}
					text.WriteString(decodeJSON[map[string]string](t, []byte(e.Data))["text"])
				case "answer":
					order.WriteString("A")
					if a := decodeJSON[oraculo.Answer](t, []byte(e.Data)); a.Mode != "generated" || !strings.Contains(a.Answer, "[Sesión 1]") {
						t.Errorf("verified answer: %s", e.Data)
					}
				case "":
				default:
					t.Fatalf("unexpected event %q: %s", e.Name, data)
				}
			}
			if order.String() != "TdTdA" || text.String() != verifiedAnswer {
				t.Errorf("events %q (want thinking, deltas, thinking, the last delta, answer), deltas %q", order.String(), text.String())
			}

			for _, stream := range []bool{false, true} {
				resp, data := call(t, ts, "POST", "/v1/chat/completions", "", conversationBody(stream))
				wantStatus(t, resp, data, 200)
				noReasoning(t, "a chat completion", data)
				if !bytes.Contains(data, []byte("Norkiel")) {
					t.Errorf("no answer in the completion: %s", data)
				}
			}
		})
	}
}

func TestAskStreamHeartbeatAndErrors(t *testing.T) {
	defer func(d time.Duration) { heartbeat = d }(heartbeat)
	heartbeat = 20 * time.Millisecond
	srv, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	srv.Fail(chattest.Fault{Delay: 300 * time.Millisecond})
	ts, _ := testServer(t, Config{Engine: eng})
	resp, data := call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en combate?", "stream": true})
	wantStatus(t, resp, data, 200)
	events := readSSE(t, bytes.NewReader(data))
	if events[0].Comment != "ping" || events[len(events)-1].Name != "answer" {
		t.Errorf("want heartbeats, then the answer: %+v", events)
	}

	// A model slower than the time limit: the model's time ends first,
	// and the answer is extracted from the notes, never a 504.
	ts, _ = testServer(t, Config{Engine: eng, AskTimeout: 100 * time.Millisecond})
	resp, data = call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en combate?"})
	wantStatus(t, resp, data, 200)
	if a := decodeJSON[oraculo.Answer](t, data); a.Fallback != oraculo.FallbackTimeout || a.Mode != "extractive" {
		t.Errorf("over the time limit: %s", data)
	}
	resp, data = call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en combate?", "stream": true})
	wantStatus(t, resp, data, 200)
	events = readSSE(t, bytes.NewReader(data))
	last := events[len(events)-1]
	if last.Name != "answer" || decodeJSON[oraculo.Answer](t, []byte(last.Data)).Fallback != oraculo.FallbackTimeout {
		t.Errorf("want the extracted answer last: %+v", events)
	}

	// An engine that fails: the DM reads why, a player only a request id.
	broken := testEngine(t)
	broken.Close()
	tokens, player, dm := testTokens(t)
	ts, _ = testServer(t, Config{Engine: broken, Tokens: tokens})
	for token, want := range map[string]string{dm: "closed", player: "internal error (request "} {
		resp, data := call(t, ts, "POST", "/api/ask", token, map[string]any{"question": "¿Quién cayó?", "stream": true})
		wantStatus(t, resp, data, 200)
		events := readSSE(t, bytes.NewReader(data))
		last := events[len(events)-1]
		if last.Name != "error" || !strings.Contains(last.Data, want) {
			t.Errorf("error event %+v, want %q in it", last, want)
		}
		resp, data = call(t, ts, "POST", "/api/search", token, map[string]any{"question": "¿Quién cayó?"})
		wantStatus(t, resp, data, 500)
		if !strings.Contains(string(data), want) {
			t.Errorf("search error %s, want %q in it", data, want)
		}
	}
}

func TestAskClientGoneCancels(t *testing.T) {
	srv, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	srv.Fail(chattest.Fault{Delay: 30 * time.Second})
	ts, logs := testServer(t, Config{Engine: eng})
	ctx, cancel := context.WithCancel(context.Background())
	body := strings.NewReader(`{"question": "¿Quién cayó en combate?", "stream": true}`)
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/ask", body)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	start := time.Now()
	cancel()
	resp.Body.Close()
	for !strings.Contains(logs.String(), `"status":499`) {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("the answer was not cancelled with its client:\n%s", logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestIngest(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	annotating := make(chan struct{}, 100)
	_, model := fakeChat(t, func(chattest.Call) string {
		annotating <- struct{}{}
		<-release
		return "Una nota de prueba."
	})
	eng := testEngine(t, model)
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	tokens, _, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})

	resp, data := call(t, ts, "GET", "/api/ingest", dm, nil)
	wantStatus(t, resp, data, 200)
	if string(bytes.TrimSpace(data)) != `{"running":false,"last":null}` {
		t.Errorf("status before any ingest: %s", data)
	}
	resp, data = call(t, ts, "POST", "/api/ingest", dm, nil)
	wantStatus(t, resp, data, 202)
	if string(bytes.TrimSpace(data)) != `{"status":"started"}` {
		t.Errorf("start: %s", data)
	}
	<-annotating // the ingest is in its annotation stage, held there
	resp, data = call(t, ts, "GET", "/api/ingest", dm, nil)
	wantStatus(t, resp, data, 200)
	if st := decodeJSON[map[string]any](t, data); st["running"] != true || st["started"] == nil {
		t.Errorf("status while running: %s", data)
	}
	resp, data = call(t, ts, "POST", "/api/ingest", dm, nil)
	wantStatus(t, resp, data, 409)

	once.Do(func() { close(release) })
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, data = call(t, ts, "GET", "/api/ingest", dm, nil)
		wantStatus(t, resp, data, 200)
		if !bytes.Contains(data, []byte(`"running":true`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ingest does not finish: %s", data)
		}
		time.Sleep(20 * time.Millisecond)
	}
	st := decodeJSON[struct {
		Running bool `json:"running"`
		Last    *struct {
			Files    int `json:"files"`
			Annotate *struct {
				Annotated int `json:"annotated"`
			} `json:"annotate"`
		} `json:"last"`
		Error    string     `json:"error"`
		Started  *time.Time `json:"started"`
		Finished *time.Time `json:"finished"`
	}](t, data)
	if st.Last == nil || st.Error != "" || st.Finished == nil || st.Last.Files != len(testNotes) || st.Last.Annotate == nil || st.Last.Annotate.Annotated == 0 {
		t.Errorf("status after the ingest: %s", data)
	}
	// And again, now that none runs.
	resp, data = call(t, ts, "POST", "/api/ingest", dm, nil)
	wantStatus(t, resp, data, 202)
}

func TestIngestNeedsRoots(t *testing.T) {
	eng, err := oraculo.Open(context.Background(), filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ts, _ := testServer(t, Config{Engine: eng})
	resp, data := call(t, ts, "POST", "/api/ingest", "", nil)
	wantStatus(t, resp, data, 409)
}

// TestSearchAndAskFilters: "filters" in POST /api/search and /api/ask
// restrict the evidence (here to session 2, or to the NPCs folder).
func TestSearchAndAskFilters(t *testing.T) {
	ts, _ := testServer(t, Config{Engine: testEngine(t)})
	q := "archiduque"
	resp, data := call(t, ts, "POST", "/api/search", "", map[string]any{"question": q, "filters": map[string]any{"sessions": []int{2}}})
	wantStatus(t, resp, data, 200)
	hits := decodeJSON[searchResponse](t, data).Hits
	if len(hits) != 1 || hits[0].Session == nil || *hits[0].Session != 2 {
		t.Fatalf("search filtered to session 2: %s", data)
	}
	resp, data = call(t, ts, "POST", "/api/search", "", map[string]any{"question": q})
	wantStatus(t, resp, data, 200)
	if len(decodeJSON[searchResponse](t, data).Hits) < 2 {
		t.Fatalf("unfiltered, the archiduque is in more than one chunk: %s", data)
	}
	resp, data = call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién vende mapas del archiduque?", "filters": map[string]any{"folders": []string{"NPCs"}}})
	wantStatus(t, resp, data, 200)
	for _, ev := range decodeJSON[oraculo.Answer](t, data).Evidence {
		if !strings.HasPrefix(ev.File, "NPCs/") {
			t.Errorf("ask filtered to NPCs/ used %s", ev.File)
		}
	}
	resp, data = call(t, ts, "POST", "/api/search", "", map[string]any{"question": q, "filters": map[string]any{"until_session": 2}})
	wantStatus(t, resp, data, 200)
	hits = decodeJSON[searchResponse](t, data).Hits
	for _, h := range hits {
		if h.Session == nil || *h.Session > 2 {
			t.Errorf("search until session 2 found %s", h.Label)
		}
	}
	if len(hits) == 0 {
		t.Errorf("search until session 2 found nothing: %s", data)
	}
	resp, data = call(t, ts, "POST", "/api/search", "", map[string]any{"question": q, "filters": map[string]any{"session": 2}})
	wantStatus(t, resp, data, 400) // a misspelt filter is refused, not ignored
}

// The answer carries its text cut at its citations, resolved by the
// server, so that the page never parses citations itself: in the JSON
// answer and in the stream's answer event.
func TestAskSegments(t *testing.T) {
	_, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	ts, _ := testServer(t, Config{Engine: eng})
	check := func(how string, raw []byte) {
		t.Helper()
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(raw, &keys); err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		if s := string(keys["segments"]); !strings.HasPrefix(s, "[") {
			t.Fatalf("%s: segments is %s, want an array", how, s)
		}
		a := decodeJSON[oraculo.Answer](t, raw)
		evidence := map[string]bool{}
		for _, ev := range a.Evidence {
			evidence[ev.ID] = true
		}
		var joined strings.Builder
		cited := 0
		for _, s := range a.Segments {
			joined.WriteString(s.Text)
			for _, c := range s.Citations {
				if c.Evidence == nil || !evidence[*c.Evidence] || !c.Valid {
					t.Errorf("%s: segment %q cites %+v, not delivered evidence", how, s.Text, c)
				}
				cited++
			}
			if len(s.Citations) > 0 && s.Text != "[Sesión 1]" {
				t.Errorf("%s: cited segment %q, want [Sesión 1]", how, s.Text)
			}
		}
		if joined.String() != a.Answer || cited != 1 {
			t.Errorf("%s: segments join to %q with %d citations; answer %q", how, joined.String(), cited, a.Answer)
		}
	}
	resp, data := call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en combate?"})
	wantStatus(t, resp, data, 200)
	check("JSON", data)

	resp, data = call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en combate?", "stream": true})
	wantStatus(t, resp, data, 200)
	for _, e := range readSSE(t, bytes.NewReader(data)) {
		if e.Name == "answer" {
			check("stream", []byte(e.Data))
		}
	}
}
