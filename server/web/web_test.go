package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/server/web"
)

func TestHandler(t *testing.T) {
	h := web.Handler()
	tests := []struct {
		method, path string
		status       int
		contentType  string
		body         string // a substring of the body
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", `<script type="module" src="/static/app.js">`},
		{"HEAD", "/", 200, "text/html; charset=utf-8", ""},
		{"GET", "/static/app.js", 200, "text/javascript; charset=utf-8", "import"},
		{"GET", "/static/api.js", 200, "text/javascript; charset=utf-8", "parseSSE"},
		{"GET", "/static/i18n.js", 200, "text/javascript; charset=utf-8", "Nueva conversación"},
		{"GET", "/static/markdown.js", 200, "text/javascript; charset=utf-8", "renderMarkdown"},
		{"GET", "/static/conversations.js", 200, "text/javascript; charset=utf-8", "toMarkdown"},
		{"GET", "/static/app.css", 200, "text/css; charset=utf-8", "prefers-color-scheme: dark"},
		{"GET", "/static/favicon.svg", 200, "image/svg+xml", "<svg"},
		{"GET", "/static/missing.js", 404, "", ""},
		{"GET", "/static/%2e%2e/web.go", 404, "", ""},
		{"GET", "/static/index.html", 404, "", ""},
		{"GET", "/other", 404, "", ""},
		{"POST", "/", 405, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
			res := rec.Result()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.status)
			}
			if tt.status != 200 {
				return
			}
			if got := res.Header.Get("Content-Type"); got != tt.contentType {
				t.Errorf("Content-Type %q, want %q", got, tt.contentType)
			}
			if got := res.Header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control %q, want no-cache", got)
			}
			if res.Header.Get("ETag") == "" {
				t.Error("no ETag")
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no X-Content-Type-Options: nosniff")
			}
			if !strings.Contains(string(body), tt.body) {
				t.Errorf("body does not contain %q", tt.body)
			}
		})
	}
}

// The page loads nothing from elsewhere: no CDN, no web fonts.
func TestHandlerSelfContained(t *testing.T) {
	h := web.Handler()
	for _, path := range []string{"/", "/static/app.js", "/static/api.js", "/static/i18n.js", "/static/markdown.js", "/static/conversations.js", "/static/app.css"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		body := rec.Body.String()
		for _, bad := range []string{"http://", "https://", "//cdn", "@import", "fonts.googleapis"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s contains %q", path, bad)
			}
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	csp := rec.Result().Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
}

func TestHandlerConditional(t *testing.T) {
	h := web.Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/static/app.css", nil))
	etag := rec.Result().Header.Get("ETag")
	req := httptest.NewRequest("GET", "/static/app.css", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("status %d with If-None-Match, want 304", rec.Code)
	}
}
