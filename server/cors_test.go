package server

import (
	"net/http"
	"testing"
)

// TestCORS: pages of a listed origin may call the API from a browser:
// their preflight is answered without a token, their responses carry the
// CORS headers, the token is still required; other origins get nothing,
// and without tokens they are refused.
func TestCORS(t *testing.T) {
	eng := testEngine(t)
	tokens, player, _ := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens, CORSOrigins: []string{"app://obsidian.md"}})
	do := func(method, path, origin, token string, extra map[string]string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, ts.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		for k, v := range extra {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	pre := do("OPTIONS", "/v1/chat/completions", "app://obsidian.md", "", map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"})
	if pre.StatusCode != 204 || pre.Header.Get("Access-Control-Allow-Origin") != "app://obsidian.md" || pre.Header.Get("Access-Control-Allow-Headers") == "" {
		t.Errorf("preflight: %d %v", pre.StatusCode, pre.Header)
	}
	if r := do("GET", "/v1/models", "app://obsidian.md", player, nil); r.StatusCode != 200 || r.Header.Get("Access-Control-Allow-Origin") != "app://obsidian.md" {
		t.Errorf("a listed origin with a token: %d %v", r.StatusCode, r.Header)
	}
	if r := do("GET", "/v1/models", "app://obsidian.md", "", nil); r.StatusCode != 401 {
		t.Errorf("a listed origin without a token: %d", r.StatusCode)
	}
	if r := do("GET", "/v1/models", "https://evil.example", player, nil); r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("another origin got CORS headers: %v", r.Header)
	}
	if r := do("OPTIONS", "/v1/chat/completions", "https://evil.example", "", map[string]string{"Access-Control-Request-Method": "POST"}); r.StatusCode == 204 || r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("another origin's preflight: %d %v", r.StatusCode, r.Header)
	}

	// Without tokens (the local user only): a listed origin is served from
	// loopback, another is refused.
	ts, _ = testServer(t, Config{Engine: eng, CORSOrigins: []string{"app://obsidian.md"}})
	for origin, want := range map[string]int{"app://obsidian.md": 200, "https://evil.example": 403} {
		req, _ := http.NewRequest("GET", ts.URL+"/v1/models", nil)
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("no tokens, origin %s: %d, want %d", origin, resp.StatusCode, want)
		}
	}
}
