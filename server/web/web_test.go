package web_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
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

// The page is ES modules without a build step: every module under
// static/ is served as JavaScript and preloaded by the page, and every
// import of one names a module that is served and exports what is
// imported, so a module renamed, moved or left out fails here, without a
// browser.
func TestHandlerModules(t *testing.T) {
	h := web.Handler()
	get := func(path string) (int, string, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Result().Header.Get("Content-Type"), rec.Body.String()
	}
	_, _, page := get("/")
	modules, err := fs.Glob(os.DirFS("static"), "*.js")
	if err != nil || len(modules) < 2 {
		t.Fatalf("listing the page's modules: %v (%d)", err, len(modules))
	}
	importRE := regexp.MustCompile(`(?m)^import (?:\{([^}]*)\} from )?"\./([\w.-]+\.js)";$`)
	exportRE := regexp.MustCompile(`(?m)^export (?:async )?(?:function|const|let|class) ([\w$]+)`)
	exports := map[string]map[string]bool{}
	sources := map[string]string{}
	for _, m := range modules {
		code, ct, body := get("/static/" + m)
		if code != http.StatusOK || ct != "text/javascript; charset=utf-8" {
			t.Errorf("/static/%s: status %d, Content-Type %q", m, code, ct)
		}
		entry := m == "app.js"
		if tag := `<link rel="modulepreload" href="/static/` + m + `">`; !entry && !strings.Contains(page, tag) {
			t.Errorf("the page does not preload %s", m)
		}
		sources[m] = body
		exports[m] = map[string]bool{}
		for _, e := range exportRE.FindAllStringSubmatch(body, -1) {
			exports[m][e[1]] = true
		}
	}
	imports := map[string][]string{}
	for _, m := range modules {
		for _, imp := range importRE.FindAllStringSubmatch(sources[m], -1) {
			from := imp[2]
			imports[m] = append(imports[m], from)
			if _, ok := exports[from]; !ok {
				t.Errorf("%s imports %s, which the page does not serve", m, from)
				continue
			}
			for _, name := range strings.Split(imp[1], ",") {
				if name = strings.TrimSpace(name); name != "" && !exports[from][name] {
					t.Errorf("%s imports %s from %s, which does not export it", m, name, from)
				}
			}
		}
		if n := strings.Count(sources[m], "\n"); n > 400 {
			t.Errorf("%s has %d lines: the page's modules stay under 400, one feature each", m, n)
		}
	}
	// The imports run one way: a feature calls into the ones below it, and
	// app.js hands a lower one what it must call back (onRegenerate).
	const visiting, done = 1, 2
	seen := map[string]int{}
	var walk func(m string, path []string)
	walk = func(m string, path []string) {
		switch seen[m] {
		case visiting:
			t.Errorf("the page's modules import each other in a circle: %s", strings.Join(append(path, m), " → "))
			return
		case done:
			return
		}
		seen[m] = visiting
		for _, from := range imports[m] {
			walk(from, append(path, m))
		}
		seen[m] = done
	}
	for _, m := range modules {
		walk(m, nil)
	}
}

// The page describes itself for search results and link previews: the
// served HTML carries the Spanish description (the page's language
// before its script runs), the one the script shows in Spanish.
func TestHandlerDescription(t *testing.T) {
	rec := httptest.NewRecorder()
	web.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	m := regexp.MustCompile(`<meta name="description" content="([^"]{50,160})">`).FindStringSubmatch(rec.Body.String())
	if m == nil {
		t.Fatal(`the page has no <meta name="description"> of 50 to 160 characters`)
	}
	es, en := descriptions(t)
	if m[1] != es || en == es {
		t.Errorf("the page's description is %q; the script's are %q (es) and %q (en)", m[1], es, en)
	}
}

// descriptions returns the page's description in Spanish and in English,
// as i18n.js says them.
func descriptions(t *testing.T) (es, en string) {
	t.Helper()
	src, err := os.ReadFile("static/i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	found := regexp.MustCompile(`(?m)^    description: "([^"]+)",$`).FindAllStringSubmatch(string(src), -1)
	if len(found) != 2 {
		t.Fatalf("i18n.js has %d descriptions, want two (es, en)", len(found))
	}
	return found[0][1], found[1][1]
}
