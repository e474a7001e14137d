package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat/chattest"
)

// lockedBuffer is a buffer a running command writes while a test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var servedURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)

// startServe runs cmdServe until the returned cancel; it waits for the
// URL it prints.
func startServe(t *testing.T, args ...string) (url string, stdout, stderr *lockedBuffer, stop func() error) {
	t.Helper()
	stdout, stderr = &lockedBuffer{}, &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runCommand(ctx, "serve", append([]string{"--addr", "127.0.0.1:0"}, args...), nil, stdout, stderr)
	}()
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(15 * time.Second):
			t.Fatal("serve did not stop")
			return nil
		}
	}
	t.Cleanup(func() { stop() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		if url = servedURL.FindString(stdout.String()); url != "" {
			return url, stdout, stderr, stop
		}
		select {
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s%s", err, stdout, stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve printed no URL:\n%s%s", stdout, stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func ingestSmall(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", smallNotes(t)); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	return db
}

func TestServeRefusesRemoteWithoutTokens(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_TOKENS", "")
	db := ingestSmall(t)
	for _, addr := range []string{"0.0.0.0:8080", ":8080", "192.0.2.1:80"} {
		_, errOut, code := runCLI(t, "", "serve", "--db", db, "--addr", addr)
		if code != 2 || !strings.Contains(errOut, "is not a loopback address") {
			t.Errorf("serve --addr %s without tokens: exit %d, %s", addr, code, errOut)
		}
	}
	_, errOut, code := runCLI(t, "", "serve", "--db", db, "--tokens", filepath.Join(t.TempDir(), "missing.yaml"))
	if code != 1 || !strings.Contains(errOut, "missing.yaml") {
		t.Errorf("a missing tokens file: exit %d, %s", code, errOut)
	}
}

// TestServeGracefulShutdown stops the server while an answer is being
// written: the answer still arrives, then serve returns.
func TestServeGracefulShutdown(t *testing.T) {
	t.Setenv("ORACULO_TOKENS", "")
	db := ingestSmall(t)
	chat := chattest.NewOllama(t, func(c chattest.Call) string {
		if c.JSON {
			return `{"ids":[]}`
		}
		return "Norkiel cayó en combate. [Sesión 1]"
	})
	chat.Fail(chattest.Fault{Delay: 700 * time.Millisecond})
	url, stdout, stderr, stop := startServe(t, "--db", db, "--chat", "ollama", "--chat-url", chat.URL, "--chat-model", "fake")
	if !strings.Contains(stdout.String(), "loopback") {
		t.Errorf("serve does not say it serves the local user only:\n%s", stdout)
	}

	type result struct {
		status int
		body   []byte
		err    error
	}
	answered := make(chan result, 1)
	go func() {
		resp, err := http.Post(url+"api/ask", "application/json", strings.NewReader(`{"question": "¿Quién cayó en combate?"}`))
		if err != nil {
			answered <- result{err: err}
			return
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		answered <- result{resp.StatusCode, body, err}
	}()
	for len(chat.Calls()) == 0 { // the answer is being written
		time.Sleep(5 * time.Millisecond)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()

	res := <-answered
	if res.err != nil || res.status != 200 || !bytes.Contains(res.body, []byte(`"mode":"generated"`)) {
		t.Fatalf("the answer in flight: %d %v %s", res.status, res.err, res.body)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if _, err := http.Get(url + "api/health"); err == nil {
		t.Error("the server still answers after stopping")
	}
	// The logs are JSON lines, one per request, without the question.
	var sawAsk bool
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("not a JSON log line: %q", line)
		}
		sawAsk = sawAsk || (rec["path"] == "/api/ask" && rec["status"] == float64(200) && rec["role"] == "dm")
	}
	if !sawAsk || strings.Contains(stderr.String(), "combate") {
		t.Errorf("logs:\n%s", stderr)
	}
}

func TestServeTokens(t *testing.T) {
	defer func(d time.Duration) { tokensPollEvery = d }(tokensPollEvery)
	tokensPollEvery = 20 * time.Millisecond
	t.Setenv("ORACULO_UI_LANG", "en")
	db := ingestSmall(t)
	tokens := filepath.Join(t.TempDir(), "tokens.yaml")
	t.Setenv("ORACULO_TOKENS", tokens)
	out, errOut, code := runCLI(t, "", "token", "add", "ana", "--role", "player")
	if code != 0 || !strings.HasPrefix(out, "orc_") || !strings.Contains(errOut, "only this once") {
		t.Fatalf("token add: %d %q %q", code, out, errOut)
	}
	ana := strings.TrimSpace(out)
	url, stdout, _, _ := startServe(t, "--db", db)
	if !strings.Contains(stdout.String(), "1 tokens from "+tokens) {
		t.Errorf("serve does not name its tokens:\n%s", stdout)
	}
	get := func(token string) int {
		req, _ := http.NewRequest("GET", url+"api/compendium", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := get(""); s != 401 {
		t.Errorf("no token: %d", s)
	}
	if s := get(ana); s != 200 {
		t.Errorf("ana's token: %d", s)
	}
	// A token removed while serving stops working without a restart.
	if _, errOut, code := runCLI(t, "", "token", "remove", "ana"); code != 0 {
		t.Fatalf("token remove: %s", errOut)
	}
	deadline := time.Now().Add(5 * time.Second)
	for get(ana) != 401 {
		if time.Now().After(deadline) {
			t.Fatal("a removed token still works")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeIngestTimeout: --ingest-timeout bounds the background ingest,
// and GET /api/ingest says it was stopped at its deadline.
func TestServeIngestTimeout(t *testing.T) {
	t.Setenv("ORACULO_TOKENS", "")
	db := ingestSmall(t)
	url, _, _, _ := startServe(t, "--db", db, "--ingest-timeout", "1ns")
	resp, err := http.Post(url+"api/ingest", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST /api/ingest: %d", resp.StatusCode)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(url + "api/ingest")
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Running bool   `json:"running"`
			Error   string `json:"error"`
		}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !st.Running {
			if !strings.Contains(st.Error, "ingest stopped at its deadline (1ns)") {
				t.Errorf("the ingest's error: %q", st.Error)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the ingest does not end")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTokenCommands(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_TOKENS", "")
	dir := t.TempDir()
	db := filepath.Join(dir, "o.db")
	// Without --tokens or $ORACULO_TOKENS, the file is beside the index.
	out, _, code := runCLI(t, "", "token", "list", "--db", db)
	if code != 0 || !strings.Contains(out, "No tokens in "+filepath.Join(dir, "tokens.yaml")) {
		t.Errorf("empty list: %d %q", code, out)
	}
	for _, name := range []string{"ana", "bea"} {
		if _, errOut, code := runCLI(t, "", "token", "add", name, "--role", "player", "--db", db); code != 0 {
			t.Fatalf("add %s: %s", name, errOut)
		}
	}
	if _, errOut, code := runCLI(t, "", "token", "add", "--db", db, "dm", "--role", "dm"); code != 0 {
		t.Fatalf("add dm: %s", errOut)
	}
	out, _, _ = runCLI(t, "", "token", "list", "--db", db, "--json")
	var list []map[string]string
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 3 || list[2]["name"] != "dm" || list[2]["role"] != "dm" || len(list[0]) != 2 {
		t.Errorf("list --json: %v %s", err, out)
	}
	if _, _, code := runCLI(t, "", "token", "remove", "bea", "--db", db); code != 0 {
		t.Error("remove bea failed")
	}
	out, _, _ = runCLI(t, "", "token", "list", "--db", db)
	if !strings.Contains(out, "ana") || strings.Contains(out, "bea") || strings.Contains(out, "orc_") {
		t.Errorf("list after remove:\n%s", out)
	}
	for _, args := range [][]string{
		{"token"}, {"token", "frob"}, {"token", "add", "x"}, {"token", "add", "--role", "dm"},
		{"token", "add", "x", "--role", "god"}, {"token", "remove"},
	} {
		if _, _, code := runCLI(t, "", append(args, "--db", db)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if _, errOut, code := runCLI(t, "", "token", "remove", "nadie", "--db", db); code != 1 || !strings.Contains(errOut, `"nadie"`) {
		t.Errorf("remove a missing token: %d %s", code, errOut)
	}
}

// TestAskJSONMarkdownLinks: ask --json's "markdown" carries each citation
// as a link to its passage on the server that serves the index (signed
// with the index's link key, so it opens without a token), the sources
// list, and with --obsidian-vault each source's obsidian:// link.
func TestAskJSONMarkdownLinks(t *testing.T) {
	t.Setenv("ORACULO_TOKENS", "")
	db := ingestSmall(t)
	url, _, _, _ := startServe(t, "--db", db, "--obsidian-vault", "Mi campaña")
	out, errOut, code := runCLI(t, "", "ask", "--db", db, "--json", "--public-url", url, "--obsidian-vault", "Mi campaña", "¿Quién cruzó el puente de Galerna?")
	if code != 0 {
		t.Fatalf("ask --json: exit %d: %s", code, errOut)
	}
	var a struct {
		Answer   string `json:"answer"`
		Markdown string `json:"markdown"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Markdown, "**Fuentes:**") || !strings.Contains(a.Markdown, "[Obsidian](obsidian://open?vault=Mi%20campa%C3%B1a&file=Sesiones%2FCampa%C3%B1a.md)") {
		t.Fatalf("markdown:\n%s", a.Markdown)
	}
	openPassageLinks(t, a.Markdown, "Galerna", "obsidian://open?vault=Mi%20campa%C3%B1a")
}

// openPassageLinks checks that text links [Sesión 1] to its passage, in
// the answer and in its sources, and that each link opens, without a
// token, a page that holds every one of want.
func openPassageLinks(t *testing.T, text string, want ...string) {
	t.Helper()
	links := regexp.MustCompile(`\[Sesión 1\]\((http://[^)\s]+/c/[^)\s]+)\)`).FindAllStringSubmatch(text, -1)
	if len(links) < 2 {
		t.Fatalf("no links to the passages in %q", text)
	}
	for _, l := range links {
		resp, err := http.Get(l[1])
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, w := range want {
			if resp.StatusCode != 200 || !strings.Contains(string(page), w) {
				t.Errorf("link %s: %d, want %q in %.300s", l[1], resp.StatusCode, w, page)
			}
		}
	}
}
