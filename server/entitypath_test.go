package server

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
)

// While a note becomes DM-only the players' compendium is withheld (empty
// until an ingest rebuilds it). A player's search or ask on the entity
// path must then answer as for an entity the compendium does not know:
// status 200, no hits, the same body; no error that would tell them a
// note just turned secret.
func TestEntityPathWithheldCompendium(t *testing.T) {
	ctx := context.Background()
	eng, db := ingested(t, testNotes)
	tokens, player, _ := testTokens(t)
	known, unknown := "¿Quién es Harbin Wester?", "¿Quién es Zorblax Quintaluna?"
	plain := "¿Qué encontramos en la cripta?" // names no entity, BM25 finds it
	type request struct {
		path string
		body map[string]any
	}
	entityOnly := func(q string) map[string]any { return map[string]any{"question": q, "paths": []string{"entity"}} }
	// What a player gets, before, for a name the compendium does not know:
	// on the entity path alone, on every path, and asked.
	unknownReqs := []request{
		{"/api/search", entityOnly(unknown)},
		{"/api/search", map[string]any{"question": plain}},
		{"/api/ask", map[string]any{"question": plain, "extractive": true}},
	}
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	resp, data := call(t, ts, "POST", "/api/search", player, entityOnly(known))
	wantStatus(t, resp, data, 200)
	if hits := decodeJSON[searchResponse](t, data).Hits; len(hits) == 0 {
		t.Fatalf("the entity path does not find a known entity: %s", data)
	}
	var before [][]byte
	for _, r := range unknownReqs {
		resp, data := call(t, ts, "POST", r.path, player, r.body)
		wantStatus(t, resp, data, 200)
		before = append(before, untimed(t, data))
		if r.body["question"] == plain && !bytes.Contains(data, []byte("Campaña")) {
			t.Fatalf("%s finds nothing for %q: %s", r.path, plain, data)
		}
	}
	eng.Close()

	// A note has just become DM-only: the players' compendium is withheld
	// (what an ingest leaves between writing the note and rebuilding it).
	ix, err := index.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.SetMeta(ctx, "players_compendium_stale", "1"); err != nil {
		t.Fatal(err)
	}
	if stale, err := ix.PlayersCompendiumStale(ctx); err != nil || !stale {
		t.Fatalf("stale = %v, %v", stale, err)
	}
	ix.Close()
	eng, err = oraculo.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	ts, _ = testServer(t, Config{Engine: eng, Tokens: tokens})

	// A known name now gets what an unknown one got.
	resp, data = call(t, ts, "POST", "/api/search", player, entityOnly(known))
	wantStatus(t, resp, data, 200)
	if data, want := untimed(t, data), bytes.ReplaceAll(before[0], []byte(unknown), []byte(known)); !bytes.Equal(data, want) {
		t.Errorf("entity path, compendium withheld:\n%s\nwant as for an unknown entity:\n%s", data, want)
	}
	// And nothing else changes for the player: same bodies, same scores.
	for i, r := range unknownReqs {
		resp, data := call(t, ts, "POST", r.path, player, r.body)
		wantStatus(t, resp, data, 200)
		if data = untimed(t, data); !bytes.Equal(data, before[i]) {
			t.Errorf("%s %v, compendium withheld:\n%s\nbefore:\n%s", r.path, r.body, data, before[i])
		}
	}
	// The other paths still answer, with the entity path among them.
	resp, data = call(t, ts, "POST", "/api/search", player, map[string]any{"question": "Harbin Wester mapas", "paths": []string{"bm25", "entity"}})
	wantStatus(t, resp, data, 200)
	if hits := decodeJSON[searchResponse](t, data).Hits; len(hits) == 0 || !strings.Contains(string(data), "Harbin") {
		t.Errorf("bm25 with the entity path, compendium withheld: %s", data)
	}
}

// untimed is a JSON body without its timings, which vary, and without an
// answer's Markdown and its sources' URLs, links each server signs with
// its own key for its own address.
func untimed(t *testing.T, data []byte) []byte {
	t.Helper()
	v := decodeJSON[map[string]any](t, data)
	delete(v, "timings")
	delete(v, "markdown")
	if sources, ok := v["sources"].([]any); ok {
		for _, s := range sources {
			delete(s.(map[string]any), "url")
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
