package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
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
