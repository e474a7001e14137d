package server

import (
	"context"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
)

// A read-only index is served as usual; an ingest or a memory write is
// refused with 409, saying why to the DM and only that it is read-only to
// a player.
func TestReadOnlyIndexServed(t *testing.T) {
	ctx := context.Background()
	eng, db := ingested(t, testNotes)
	eng.Close()
	ix, err := index.OpenReadOnly(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := oraculo.OpenStore(ctx, ix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: ro, Tokens: tokens})

	resp, data := call(t, ts, "POST", "/api/search", player, map[string]any{"question": "mapas del archiduque"})
	wantStatus(t, resp, data, 200)
	if len(decodeJSON[searchResponse](t, data).Hits) == 0 {
		t.Errorf("search on a read-only index: %s", data)
	}
	resp, data = call(t, ts, "POST", "/api/ask", player, map[string]any{"question": "¿Quién vende mapas falsos?", "extractive": true})
	wantStatus(t, resp, data, 200)

	resp, data = call(t, ts, "POST", "/api/ingest", dm, nil)
	wantStatus(t, resp, data, 409)
	if want := `the index \"` + db + `\" is read-only: opened read-only`; !strings.Contains(string(data), want) {
		t.Errorf("ingest on a read-only index: %s, want %s", data, want)
	}
	resp, data = call(t, ts, "POST", "/api/memory", dm, map[string]any{"scope": "campaign", "key": "k", "value": "v"})
	wantStatus(t, resp, data, 409)
	if !strings.Contains(string(data), "is read-only: opened read-only") {
		t.Errorf("memory add by the DM on a read-only index: %s", data)
	}
	resp, data = call(t, ts, "POST", "/api/memory", player, map[string]any{"scope": "player:ana", "key": "k", "value": "v"})
	wantStatus(t, resp, data, 409)
	if strings.TrimSpace(string(data)) != `{"error":"the index is read-only"}` {
		t.Errorf("memory add by a player on a read-only index: %s", data)
	}
}
