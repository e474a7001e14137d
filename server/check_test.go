package server

import (
	"strings"
	"testing"

	"github.com/oraculo/oraculo/story"
	"github.com/oraculo/oraculo/story/storytest"
)

func TestCheckEndpoint(t *testing.T) {
	eng, _ := ingested(t, storytest.Continuity)
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	resp, data := call(t, ts, "GET", "/api/check", "", nil)
	wantStatus(t, resp, data, 401)
	for _, c := range []struct {
		token string
		pairs int
	}{{dm, 3}, {player, 1}} {
		resp, data := call(t, ts, "GET", "/api/check", c.token, nil)
		wantStatus(t, resp, data, 200)
		got := decodeJSON[story.Continuity](t, data)
		if len(got.Contradictions) != c.pairs {
			t.Fatalf("%d pairs, want %d: %s", len(got.Contradictions), c.pairs, data)
		}
		x := got.Contradictions[0]
		if x.Kind == "field" { // the field pair comes first, by entity
			x = got.Contradictions[1]
		}
		if x.Kind != "gone_then_acts" || *x.First.Session != 2 || *x.Second.Session != 3 || x.Second.ID == "" || x.Verdict != "unjudged" {
			t.Errorf("first pair: %s", data)
		}
		for _, secret := range storytest.Secrets {
			if c.token == player && strings.Contains(string(data), secret) {
				t.Errorf("a player's check holds %q: %s", secret, data)
			}
		}
	}
}
