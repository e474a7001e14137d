package server

import (
	"bytes"
	"context"
	"net/url"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestTimeline: GET /api/timeline?name= answers the entity's timeline by
// any alias, 400 without a name, 404 with the nearest names for one no
// entity has, 401 without a token; a player's timeline of every entity
// the DM's compendium knows shows nothing of a DM-only note, though the
// DM's timelines do.
func TestTimeline(t *testing.T) {
	eng, secrets := leakSetup(t, "../examples/campaign")
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})

	resp, data := call(t, ts, "GET", "/api/timeline?name="+url.QueryEscape("chispita"), dm, nil)
	wantStatus(t, resp, data, 200)
	tl := decodeJSON[oraculo.Timeline](t, data)
	if tl.Name != "Chispa" || len(tl.Sessions) < 10 || tl.FirstSession == nil || *tl.FirstSession != *tl.Sessions[0].Session {
		t.Errorf("Chispa's timeline: %s", data)
	}
	for _, key := range []string{`"first_session"`, `"absent_before"`, `"gaps"`, `"notes"`, `"mentions"`} {
		if !bytes.Contains(data, []byte(key)) {
			t.Errorf("the timeline has no %s: %s", key, data)
		}
	}
	resp, data = call(t, ts, "GET", "/api/timeline", dm, nil)
	wantStatus(t, resp, data, 400)
	resp, data = call(t, ts, "GET", "/api/timeline?name="+url.QueryEscape("Chizpa"), dm, nil)
	wantStatus(t, resp, data, 404)
	if !bytes.Contains(data, []byte(`did you mean Chispa?`)) {
		t.Errorf("an unknown name's 404 does not offer Chispa: %s", data)
	}
	resp, data = call(t, ts, "GET", "/api/timeline?name=Chispa", "", nil)
	wantStatus(t, resp, data, 401)

	secret := secrets.Matcher()
	dmEntities, err := eng.Compendium(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dmLeaks := 0
	for _, en := range dmEntities {
		path := "/api/timeline?name=" + url.QueryEscape(en.Name)
		resp, data := call(t, ts, "GET", path, player, nil)
		if resp.StatusCode != 200 && resp.StatusCode != 404 {
			t.Fatalf("%s: status %d: %s", path, resp.StatusCode, data)
		}
		for _, l := range secret.Find(data) {
			t.Errorf("a player's timeline of %s shows the DM's %s", en.Name, l)
		}
		_, data = call(t, ts, "GET", path, dm, nil)
		dmLeaks += len(secret.Find(data))
	}
	if dmLeaks == 0 {
		t.Error("no DM timeline cites a DM-only note: the check proves nothing")
	}
}
