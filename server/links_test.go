package server

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat/chattest"
	linkpkg "github.com/oraculo/oraculo/link"
)

// TestPassageLinksHonourRoles: a link opens its passage for the role it
// was made for: a DM's link opens a DM-only passage, a player's link to
// it (made by hand, validly signed) finds nothing, as do a link signed
// for another passage and an unsigned one; the whole note's link works
// for the role it was given.
func TestPassageLinksHonourRoles(t *testing.T) {
	eng := testEngine(t)
	tokens, _, _ := testTokens(t)
	key := []byte("a key for the test")
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens, LinkKey: key})
	srv := &Server{links: &linkpkg.Maker{Key: key}} // signs as the server does
	ctx := oraculo.WithRole(context.Background(), oraculo.RoleDM)
	note, err := eng.Note(ctx, "DM/Secretos.md")
	if err != nil || len(note.Chunks) == 0 {
		t.Fatalf("the DM note: %v", err)
	}
	secret := note.Chunks[0].ID
	get := func(u string) (int, string) { t.Helper(); return getPage(t, u) }
	link := func(kind, role, subject string, q url.Values) string {
		if q == nil {
			q = url.Values{}
		}
		q.Set("r", role)
		q.Set("k", srv.links.Sig(kind, role, subject))
		if kind == "c" {
			return ts.URL + "/c/" + subject + "?" + q.Encode()
		}
		q.Set("file", subject)
		return ts.URL + "/n?" + q.Encode()
	}
	status, page := get(link("c", oraculo.RoleDM, secret, url.Values{"q": {"el archiduque es el dragón"}}))
	if status != 200 || !strings.Contains(page, "Vermitrax") || !strings.Contains(page, `<mark id="cited">`) {
		t.Fatalf("the DM's link: %d %.300s", status, page)
	}
	if status, page := get(link("c", oraculo.RolePlayer, secret, nil)); status != 404 || strings.Contains(page, "Vermitrax") {
		t.Errorf("a player's link to a DM-only passage: %d %.200s", status, page)
	}
	if status, _ := get(ts.URL + "/c/" + secret); status != 401 {
		t.Errorf("an unsigned link: %d", status)
	}
	if status, _ := get(ts.URL + "/c/" + secret + "?r=dm&k=" + srv.links.Sig("c", "dm", "another-id")); status != 401 {
		t.Errorf("a link signed for another passage: %d", status)
	}
	if status, page := get(link("n", oraculo.RoleDM, "DM/Secretos.md", nil)); status != 200 || !strings.Contains(page, "Vermitrax") {
		t.Errorf("the DM's note link: %d %.200s", status, page)
	}
	if status, page := get(link("n", oraculo.RolePlayer, "DM/Secretos.md", nil)); status != 404 || strings.Contains(page, "Vermitrax") {
		t.Errorf("a player's note link to a DM-only note: %d %.200s", status, page)
	}
}

// getPage GETs u without a token, as a browser following a link does, and
// returns the status and the page.
func getPage(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestPublicURL: with --public-url, the links an answer carries point
// there, whatever host the request came to.
func TestPublicURL(t *testing.T) {
	_, model := fakeChat(t, func(chattest.Call) string { return rawAnswer })
	eng := testEngine(t, model)
	ts, _ := testServer(t, Config{Engine: eng, PublicURL: "https://oraculo.example/"})
	resp, data := call(t, ts, "POST", "/v1/chat/completions", "", conversationBody(false))
	wantStatus(t, resp, data, 200)
	links := linkURL.FindAllStringSubmatch(string(data), -1)
	if len(links) < 2 {
		t.Fatalf("no links in %s", data)
	}
	for _, l := range links {
		if !strings.HasPrefix(l[1], "https://oraculo.example/c/") {
			t.Errorf("a link to %s", l[1])
		}
	}
}
