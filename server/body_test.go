package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// rawPost writes a whole request on a fresh connection, body and all,
// before it reads a byte of the answer, as simple clients do; chunked
// sends the body in chunks without a Content-Length.
func rawPost(t *testing.T, addr, path string, body []byte, chunked bool) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	req, _ := http.NewRequest("POST", "http://"+addr+path, nil)
	w := bufio.NewWriterSize(conn, 64<<10)
	fmt.Fprintf(w, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", path, addr)
	if chunked {
		fmt.Fprintf(w, "Transfer-Encoding: chunked\r\n\r\n")
		for rest := body; len(rest) > 0; {
			n := min(len(rest), 32<<10)
			fmt.Fprintf(w, "%x\r\n", n)
			w.Write(rest[:n])
			w.WriteString("\r\n")
			rest = rest[n:]
		}
		w.WriteString("0\r\n\r\n")
	} else {
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(body))
		w.Write(body)
	}
	if err := w.Flush(); err != nil {
		t.Fatalf("writing the request: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the answer's body: %v", err)
	}
	return resp, data
}

// TestOversizedBody sends 10 MB bodies to a server that takes 1 MiB: every
// client, the one that writes its whole body before reading included,
// reads a JSON 413 rather than a reset connection.
func TestOversizedBody(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	addr := ts.Listener.Addr().String()
	body := []byte(`{"question": "` + strings.Repeat("x", 10<<20) + `"}`)
	for _, path := range []string{"/api/search", "/api/ask", "/v1/chat/completions", "/api/nope"} {
		for _, chunked := range []bool{false, true} {
			if path == "/api/nope" && chunked {
				continue // nothing reads the body of an unknown route
			}
			t.Run(fmt.Sprintf("raw %s chunked=%v", path, chunked), func(t *testing.T) {
				resp, data := rawPost(t, addr, path, body, chunked)
				wantStatus(t, resp, data, http.StatusRequestEntityTooLarge)
				if !resp.Close {
					t.Errorf("413 without Connection: close: %v", resp.Header)
				}
			})
			t.Run(fmt.Sprintf("client %s chunked=%v", path, chunked), func(t *testing.T) {
				req, _ := http.NewRequest("POST", ts.URL+path, bytes.NewReader(body))
				if chunked {
					req.Body = io.NopCloser(bytes.NewReader(body))
					req.ContentLength = -1
				}
				resp, err := ts.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				data, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					t.Fatal(err)
				}
				wantStatus(t, resp, data, http.StatusRequestEntityTooLarge)
			})
		}
	}
	// The server still serves.
	resp, data := call(t, ts, "GET", "/api/health", "", nil)
	wantStatus(t, resp, data, 200)
}

// TestOversizedBodyEarly: a body of unknown length is answered as soon as
// it passes the limit, while the client is still sending.
func TestOversizedBodyEarly(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng, MaxBodyBytes: 1 << 10})
	sent := make(chan struct{})
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(`{"question": "` + strings.Repeat("x", 4<<10)))
		<-sent // held open until the answer is in
		pw.Close()
	}()
	req, _ := http.NewRequest("POST", ts.URL+"/api/search", pr)
	resp, err := ts.Client().Do(req)
	close(sent)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	wantStatus(t, resp, data, http.StatusRequestEntityTooLarge)
}

// TestOversizedBodyDrainBounds: the server reads what is left of a refused
// body for drainTimeout at most, and none of one declared larger than
// drainMaxBytes; either way the client has its 413 and the connection
// ends.
func TestOversizedBodyDrainBounds(t *testing.T) {
	defer func(d time.Duration, n int64) { drainTimeout, drainMaxBytes = d, n }(drainTimeout, drainMaxBytes)
	drainTimeout, drainMaxBytes = 300*time.Millisecond, 1<<20
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng, MaxBodyBytes: 1 << 10})
	addr := ts.Listener.Addr().String()
	for _, length := range []int{512 << 10, 10 << 20} { // within and past drainMaxBytes
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		start := time.Now()
		conn.SetDeadline(start.Add(10 * time.Second))
		// The client sends the headers and a little of the body, then stalls.
		fmt.Fprintf(conn, "POST /api/search HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n{\"question\": \"xxxx", addr, length)
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("Content-Length %d: %v", length, err)
		}
		data, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 413 || !strings.Contains(string(data), `"error"`) {
			t.Errorf("Content-Length %d: %d %s", length, resp.StatusCode, data)
		}
		if _, err := br.ReadByte(); err != io.EOF {
			t.Errorf("Content-Length %d: after the answer, %v, want the connection closed", length, err)
		}
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("Content-Length %d: the connection closed after %s", length, took)
		}
	}
}

func TestJSONContentType(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	bodies := map[string]string{
		"/api/search":          `{"question": "puente"}`,
		"/api/ask":             `{"question": "¿Quién cayó?", "extractive": true}`,
		"/v1/chat/completions": `{"model": "oraculo-extractive", "messages": [{"role": "user", "content": "¿Quién cayó?"}]}`,
	}
	for path, body := range bodies {
		for _, c := range []struct {
			contentType string
			status      int
		}{
			{"", 200}, // curl scripts that do not say
			{"application/json", 200},
			{"application/json; charset=utf-8", 200},
			{"Application/JSON", 200},
			{"application/vnd.api+json", 200},
			{"application/x-www-form-urlencoded", 415}, // curl -d without -H
			{"text/plain", 415},
			{"text/json", 415},
			{"multipart/form-data; boundary=x", 415},
			{"application/jsonx", 415},
			{"application/json; charset", 415}, // not a media type
		} {
			var headers []string
			if c.contentType != "" {
				headers = []string{"Content-Type", c.contentType}
			}
			resp, data := call(t, ts, "POST", path, "", body, headers...)
			wantStatus(t, resp, data, c.status)
			if c.status == 415 && !strings.Contains(string(data), "application/json") {
				t.Errorf("POST %s as %q: the error does not name the expected type: %s", path, c.contentType, data)
			}
		}
	}
}

// TestErrorsAreJSON: every refusal under /api/ and /v1/ is JSON with an
// "error" (OpenAI's shape under /v1/), whatever refuses it: the mux, the
// middleware, the body rules or a handler.
func TestErrorsAreJSON(t *testing.T) {
	eng := testEngine(t)
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens, MaxBodyBytes: 512})
	big := `{"question": "` + strings.Repeat("x", 1000) + `"}`
	chat := `{"messages": [{"role": "user", "content": "hola"}]}`
	for _, c := range []struct {
		name, method, path, token string
		body                      any    // string: sent as is; nil: none
		contentType               string // "" sends none
		chunked                   bool
		status                    int
	}{
		{"unknown route", "GET", "/api/nope", dm, nil, "", false, 404},
		{"unknown route", "POST", "/api/nope", dm, `{}`, "", false, 404},
		{"unknown route", "GET", "/v1/nope", dm, nil, "", false, 404},
		{"unknown route", "GET", "/api/chunks/", dm, nil, "", false, 404},
		{"wrong method", "GET", "/api/search", dm, nil, "", false, 405},
		{"wrong method", "PUT", "/api/ask", dm, `{}`, "", false, 405},
		{"wrong method", "OPTIONS", "/api/search", dm, nil, "", false, 405},
		{"wrong method", "DELETE", "/api/ingest", dm, nil, "", false, 405},
		{"wrong method", "GET", "/v1/chat/completions", dm, nil, "", false, 405},
		{"wrong method", "POST", "/v1/models", dm, nil, "", false, 405},
		{"bad JSON", "POST", "/api/search", dm, `{"question": `, "", false, 400},
		{"bad JSON", "POST", "/api/ask", dm, `[]`, "application/json", false, 400},
		{"bad JSON", "POST", "/api/ask", dm, ``, "", false, 400},
		{"bad JSON", "POST", "/v1/chat/completions", dm, `{"messages": `, "", false, 400},
		{"bad request", "POST", "/api/search", dm, `{"question": "a", "k": -1}`, "", false, 400},
		{"bad request", "GET", "/api/note", dm, nil, "", false, 400},
		{"too large", "POST", "/api/search", dm, big, "", false, 413},
		{"too large", "POST", "/api/search", dm, big, "", true, 413},
		{"too large", "POST", "/api/ask", player, big, "application/json", true, 413},
		{"too large", "POST", "/v1/chat/completions", dm, big, "", false, 413},
		{"too large", "POST", "/v1/chat/completions", dm, big, "", true, 413},
		{"too large", "POST", "/api/nope", dm, big, "", false, 413},
		{"too large", "POST", "/api/search", "", big, "", false, 413}, // before authentication
		{"wrong content type", "POST", "/api/search", dm, `{"question": "a"}`, "application/x-www-form-urlencoded", false, 415},
		{"wrong content type", "POST", "/api/ask", player, `{"question": "a"}`, "text/plain", false, 415},
		{"wrong content type", "POST", "/v1/chat/completions", dm, chat, "multipart/form-data; boundary=x", false, 415},
		{"missing auth", "POST", "/api/search", "", `{"question": "a"}`, "", false, 401},
		{"missing auth", "POST", "/api/ask", "orc_wrong", `{"question": "a"}`, "", false, 401},
		{"missing auth", "GET", "/api/compendium", "", nil, "", false, 401},
		{"missing auth", "POST", "/v1/chat/completions", "", chat, "", false, 401},
		{"missing auth", "GET", "/v1/models", "orc_wrong", nil, "", false, 401},
		{"unknown route", "GET", "/api/nope", "", nil, "", false, 404}, // no token needed to learn nothing
		{"forbidden", "GET", "/api/stats", player, nil, "", false, 403},
		{"forbidden", "POST", "/api/ingest", player, nil, "", false, 403},
		{"not found", "GET", "/api/chunks/ffffffffffffffff", player, nil, "", false, 404},
		{"not found", "GET", "/api/compendium/Nadie%20Nunca", player, nil, "", false, 404},
	} {
		t.Run(c.name+" "+c.method+" "+c.path, func(t *testing.T) {
			var body io.Reader
			if s, ok := c.body.(string); ok {
				body = strings.NewReader(s)
			}
			req, err := http.NewRequest(c.method, ts.URL+c.path, body)
			if err != nil {
				t.Fatal(err)
			}
			if c.chunked {
				req.Body, req.ContentLength = io.NopCloser(body), -1
			}
			if c.token != "" {
				req.Header.Set("Authorization", "Bearer "+c.token)
			}
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			wantStatus(t, resp, data, c.status)
		})
	}
}

// TestBodyTimeoutIs408: a body that stops arriving before the server's
// read timeout is a JSON 408, not a 400 naming a socket.
func TestBodyTimeoutIs408(t *testing.T) {
	eng := testEngine(t)
	h := New(Config{Engine: eng})
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ReadTimeout = 300 * time.Millisecond
	ts.Start()
	t.Cleanup(func() {
		ts.Close()
		h.Close()
	})
	addr := ts.Listener.Addr().String()
	for _, path := range []string{"/api/search", "/v1/chat/completions"} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Length: 100\r\n\r\n{\"question\": ", path, addr)
		req, _ := http.NewRequest("POST", ts.URL+path, nil)
		resp, err := http.ReadResponse(bufio.NewReader(conn), req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		wantStatus(t, resp, data, http.StatusRequestTimeout)
	}
}

// TestPanicIsJSON500: a panic in a handler is a JSON 500 in the shape of
// its route.
func TestPanicIsJSON500(t *testing.T) {
	s := New(Config{})
	defer s.Close()
	h := s.observe(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	ts := httptest.NewServer(h)
	defer ts.Close()
	for _, path := range []string{"/api/search", "/v1/chat/completions"} {
		resp, data := call(t, ts, "POST", path, "", "{}")
		wantStatus(t, resp, data, http.StatusInternalServerError)
	}
}
