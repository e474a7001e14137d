package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/server/web"
)

// rawGet fetches path from srv with the given headers, through a client
// that neither asks for nor undoes compression, so the bytes on the wire
// are what the test sees.
func rawGet(t *testing.T, srv *httptest.Server, method, path string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	t.Cleanup(client.CloseIdleConnections)
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("bad gzip: %v", err)
	}
	return out
}

func varies(res *http.Response) bool {
	for _, v := range res.Header.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), "Accept-Encoding") {
				return true
			}
		}
	}
	return false
}

// Text files go gzipped to a client that accepts gzip, and as they are to
// one that does not, both saying that the answer varies with
// Accept-Encoding; each representation has its own ETag.
func TestHandlerGzip(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	for _, path := range []string{"/", "/static/app.js", "/static/i18n.js", "/static/app.css"} {
		t.Run(path, func(t *testing.T) {
			plain, want := rawGet(t, srv, "GET", path, nil)
			if plain.StatusCode != 200 || plain.Header.Get("Content-Encoding") != "" || !varies(plain) {
				t.Fatalf("without Accept-Encoding: status %d, Content-Encoding %q, Vary %q; want 200, none, Accept-Encoding",
					plain.StatusCode, plain.Header.Get("Content-Encoding"), plain.Header.Values("Vary"))
			}
			res, body := rawGet(t, srv, "GET", path, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
			if res.Header.Get("Content-Encoding") != "gzip" || !varies(res) {
				t.Fatalf("with gzip accepted: Content-Encoding %q, Vary %q; want gzip, Accept-Encoding", res.Header.Get("Content-Encoding"), res.Header.Values("Vary"))
			}
			if got := gunzip(t, body); !bytes.Equal(got, want) {
				t.Errorf("the gzipped body is not the file: %d bytes unzipped, want %d", len(got), len(want))
			}
			if len(body) >= len(want) || res.ContentLength != int64(len(body)) {
				t.Errorf("gzipped: %d bytes (Content-Length %d), the file %d", len(body), res.ContentLength, len(want))
			}
			if res.Header.Get("Content-Type") != plain.Header.Get("Content-Type") {
				t.Errorf("Content-Type %q gzipped, %q not", res.Header.Get("Content-Type"), plain.Header.Get("Content-Type"))
			}
			etag, plainTag := res.Header.Get("ETag"), plain.Header.Get("ETag")
			if etag == "" || etag == plainTag {
				t.Errorf("ETag gzipped %q, not %q: want two different tags", etag, plainTag)
			}

			// Conditional requests match the representation they were given.
			res, body = rawGet(t, srv, "GET", path, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
			if res.StatusCode != http.StatusNotModified || len(body) != 0 || res.Header.Get("ETag") != etag || !varies(res) {
				t.Errorf("If-None-Match of the gzipped tag: status %d, %d bytes, ETag %q; want 304, none, %q, varying", res.StatusCode, len(body), res.Header.Get("ETag"), etag)
			}
			res, _ = rawGet(t, srv, "GET", path, map[string]string{"If-None-Match": plainTag})
			if res.StatusCode != http.StatusNotModified {
				t.Errorf("If-None-Match of the plain tag without gzip: status %d, want 304", res.StatusCode)
			}
			res, body = rawGet(t, srv, "GET", path, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": plainTag})
			if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, body), want) {
				t.Errorf("If-None-Match of the plain tag, gzip accepted: status %d, Content-Encoding %q; want the gzipped file", res.StatusCode, res.Header.Get("Content-Encoding"))
			}

			res, body = rawGet(t, srv, "HEAD", path, map[string]string{"Accept-Encoding": "gzip"})
			if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Encoding") != "gzip" || res.ContentLength <= 0 || res.ContentLength >= int64(len(want)) {
				t.Errorf("HEAD: status %d, %d bytes, Content-Encoding %q, Content-Length %d", res.StatusCode, len(body), res.Header.Get("Content-Encoding"), res.ContentLength)
			}
		})
	}
}

// Which Accept-Encoding headers get gzip: one with a quality of zero does
// not, "*" does, "identity" alone does not.
func TestHandlerGzipAcceptEncoding(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	tests := []struct {
		header string
		gzip   bool
	}{
		{"gzip", true},
		{"GZIP", true},
		{"br;q=1.0, gzip;q=0.8, *;q=0.1", true},
		{"x-gzip", true},
		{"*", true},
		{"identity", false},
		{"br", false},
		{"gzip;q=0", false},
		{"gzip; q=0.000", false},
		{"*;q=0", false},
		{"gzip;q=0, *", false},
		{"deflate, *;q=0.5", true},
		{"gzip;q=bad", false},
	}
	for _, tt := range tests {
		res, body := rawGet(t, srv, "GET", "/static/app.css", map[string]string{"Accept-Encoding": tt.header})
		if got := res.Header.Get("Content-Encoding") == "gzip"; got != tt.gzip {
			t.Errorf("Accept-Encoding %q: gzipped %v, want %v", tt.header, got, tt.gzip)
		}
		if !tt.gzip && !bytes.Contains(body, []byte("prefers-color-scheme")) {
			t.Errorf("Accept-Encoding %q: the body is not the plain file", tt.header)
		}
	}
	// The header may come in several lines: they are one list.
	req := httptest.NewRequest("GET", "/static/app.css", nil)
	req.Header.Add("Accept-Encoding", "br")
	req.Header.Add("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	web.Handler().ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Error(`Accept-Encoding "br" then "gzip" in two lines: not gzipped`)
	}
}

// A range is served from the file as it is, gzip accepted or not; a
// precondition that fails is answered without a body; an SVG is text too.
func TestHandlerGzipRangeAndSVG(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	_, whole := rawGet(t, srv, "GET", "/static/app.js", nil)
	res, body := rawGet(t, srv, "GET", "/static/app.js", map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=10-109"})
	if res.StatusCode != http.StatusPartialContent || res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, whole[10:110]) {
		t.Errorf("a range with gzip accepted: status %d, Content-Encoding %q, body %q; want 206 of the plain bytes %q",
			res.StatusCode, res.Header.Get("Content-Encoding"), body, whole[10:110])
	}
	if got := res.Header.Get("Content-Range"); got != "bytes 10-109/"+strconv.Itoa(len(whole)) {
		t.Errorf("Content-Range %q", got)
	}
	res, body = rawGet(t, srv, "GET", "/static/app.js", map[string]string{"Range": "bytes=-20"})
	if res.StatusCode != http.StatusPartialContent || !bytes.Equal(body, whole[len(whole)-20:]) {
		t.Errorf("a suffix range: status %d, body %q", res.StatusCode, body)
	}
	res, body = rawGet(t, srv, "GET", "/static/app.js", map[string]string{"Accept-Encoding": "gzip", "If-Match": `"another"`})
	if res.StatusCode != http.StatusPreconditionFailed || len(body) != 0 {
		t.Errorf("If-Match of another tag: status %d, %d bytes; want 412, none", res.StatusCode, len(body))
	}
	_, icon := rawGet(t, srv, "GET", "/static/favicon.svg", nil)
	res, body = rawGet(t, srv, "GET", "/static/favicon.svg", map[string]string{"Accept-Encoding": "gzip"})
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" || res.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, body), icon) {
		t.Errorf("favicon: status %d, Content-Type %q, Content-Encoding %q; want the SVG gzipped", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding"))
	}
}

// Files are compressed once, not on every request: serving the gzipped
// page and its largest files allocates about what the responses hold, far
// less than a gzip compressor (hundreds of kilobytes) would.
func TestHandlerGzipNotPerRequest(t *testing.T) {
	h := web.Handler()
	paths := []string{"/", "/static/app.css", "/static/i18n.js", "/static/markdown.js"}
	serve := func() {
		for _, p := range paths {
			req := httptest.NewRequest("GET", p, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Header().Get("Content-Encoding") != "gzip" {
				t.Fatalf("%s: not gzipped", p)
			}
		}
	}
	serve() // the first request may compress
	const rounds = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range rounds {
		serve()
	}
	runtime.ReadMemStats(&after)
	perRequest := (after.TotalAlloc - before.TotalAlloc) / uint64(rounds*len(paths))
	if perRequest > 64<<10 {
		t.Errorf("a gzipped request allocates %d bytes: compressed per request?", perRequest)
	}
	t.Logf("%d bytes allocated per gzipped request", perRequest)
}
