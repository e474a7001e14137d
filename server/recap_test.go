package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/story"
)

// TestRecapThreadsLeak: a player's recap of every session and threads
// over HTTP show no DM-only text, id or file of the sample campaign; the
// DM's threads do show the DM's tasks (the check can fail).
func TestRecapThreadsLeak(t *testing.T) {
	eng, secrets := leakSetup(t, "../examples/campaign")
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	secret := secrets.Matcher()
	leaks := func(what string, data []byte) {
		t.Helper()
		for _, l := range secret.Find(data) {
			t.Errorf("%s shows a player the DM's %s", what, l)
		}
	}
	resp, data := call(t, ts, "GET", "/api/recap", player, nil)
	wantStatus(t, resp, data, 200)
	last := decodeJSON[story.Recap](t, data)
	if last.Session == 0 || len(last.Events) == 0 {
		t.Fatalf("a player's recap of the last session: %s", data)
	}
	for n := 1; n <= last.Session; n++ {
		resp, data := call(t, ts, "GET", fmt.Sprintf("/api/recap?session=%d", n), player, nil)
		if resp.StatusCode != 200 && resp.StatusCode != 404 {
			t.Errorf("recap %d: status %d: %s", n, resp.StatusCode, data)
		}
		leaks(fmt.Sprintf("recap %d", n), data)
	}
	resp, data = call(t, ts, "GET", "/api/threads", player, nil)
	wantStatus(t, resp, data, 200)
	leaks("threads", data)
	resp, data = call(t, ts, "GET", "/api/threads?quiet=3", dm, nil)
	wantStatus(t, resp, data, 200)
	th := decodeJSON[story.Threads](t, data)
	dmTask := false
	for _, x := range th.Threads {
		dmTask = dmTask || (x.Kind == story.ThreadTask && strings.HasPrefix(x.Introduced.File, "DM/"))
	}
	if th.QuietSessions != 3 || !dmTask {
		t.Errorf("the DM's threads (quiet 3) should hold the DM's tasks: %s", data)
	}
}

func TestRecapThreadsRequests(t *testing.T) {
	eng, _ := ingested(t, map[string]string{
		"Sesiones/Sesion 1.md": "# Sesión 1\n\nVesper Quillon les da el mapa de las Criptas.\n\n- [ ] Devolver el mapa a Vesper Quillon",
		"Sesiones/Sesion 2.md": "# Sesión 2\n\nVesper Quillon vuelve a casa con el mapa.",
	})
	tokens, player, _ := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"/api/recap", 200, `"session":2`},
		{"/api/recap?session=1", 200, `"open":[{"text":"Devolver el mapa a Vesper Quillon"`},
		{"/api/recap?session=7", 404, "no such session"},
		{"/api/recap?session=uno", 400, "session must be"},
		{"/api/recap?session=0", 400, "session must be"},
		{"/api/threads", 200, `"quiet_sessions":5,"last_session":2,"threads":[{"kind":"task","title":"Devolver el mapa a Vesper Quillon"`},
		{"/api/threads?quiet=-1", 400, "quiet must be"},
	} {
		resp, data := call(t, ts, "GET", c.path, player, nil)
		wantStatus(t, resp, data, c.status)
		if !strings.Contains(string(data), c.want) {
			t.Errorf("GET %s: %s, want it to hold %s", c.path, data, c.want)
		}
	}
	resp, data := call(t, ts, "GET", "/api/recap", "", nil)
	wantStatus(t, resp, data, 401)
}
