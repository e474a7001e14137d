package server

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/internal/leakcheck"
)

// TestSampleLeak is the leak test over HTTP: with the sample campaign's
// DM/ folder, hundreds of player requests (questions aimed at the secrets
// in their own words, through search, ask, streamed ask and the
// OpenAI-compatible endpoint; every compendium lookup; every DM-only chunk
// id and note path) return no DM-only text, label, id or file. The chat
// model is a fake that repeats the evidence it was shown.
func TestSampleLeak(t *testing.T) {
	ctx := context.Background()
	eng, err := oraculo.Open(ctx, t.TempDir()+"/o.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.Ingest(ctx, []string{"../examples/campaign"}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		text := c.Text(chat.RoleUser)
		if i := strings.LastIndex(text, "Pregunta:"); i >= 0 {
			text = text[:i] // the question is the player's own words
		}
		return text
	})
	eng.SetChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"}))

	// The secrets, decided without the engine's filter: the DM/ folder.
	all, err := eng.Chunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	secrets := leakcheck.Collect(all, func(c oraculo.ChunkInfo) bool { return strings.HasPrefix(c.File, "DM/") })
	ids, files, questions := secrets.IDs, secrets.Files, secrets.Questions
	if len(ids) == 0 || len(secrets.Sentences) < 20 {
		t.Fatalf("the sample should have DM-only notes: %d chunks, %d sentences", len(ids), len(secrets.Sentences))
	}

	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	requests := 0
	leaks := func(what string, data []byte) {
		t.Helper()
		requests++
		for _, l := range secrets.Find(data) {
			t.Errorf("%s shows a player the DM's %s", what, l)
		}
	}
	// Questions echo back in "question"/"query": drop them before checking.
	strip := func(data []byte, q string) []byte {
		for _, enc := range []string{q, strings.ReplaceAll(q, `"`, `\"`)} {
			data = bytes.ReplaceAll(data, []byte(enc), nil)
		}
		return data
	}
	for i, q := range questions {
		resp, data := call(t, ts, "POST", "/api/search", player, map[string]any{"question": q, "k": 20})
		wantStatus(t, resp, data, 200)
		leaks("search "+q, strip(data, q))
		switch i % 3 {
		case 0:
			resp, data = call(t, ts, "POST", "/api/ask", player, map[string]any{"question": q})
		case 1:
			resp, data = call(t, ts, "POST", "/api/ask", player, map[string]any{"question": q, "stream": true})
		default:
			resp, data = call(t, ts, "POST", "/v1/chat/completions", player, map[string]any{"model": "oraculo",
				"messages": []map[string]string{{"role": "user", "content": q}}})
		}
		wantStatus(t, resp, data, 200)
		leaks("ask "+q, strip(data, q))
	}
	for i, id := range ids {
		resp, data := call(t, ts, "GET", "/api/chunks/"+id, player, nil)
		wantStatus(t, resp, data, 404)
		leaks("chunk "+id, data)
		resp, data = call(t, ts, "GET", "/api/note?file="+url.QueryEscape(files[i]), player, nil)
		wantStatus(t, resp, data, 404)
		leaks("note "+files[i], data)
		// The DM does see them: the check can fail.
		resp, data = call(t, ts, "GET", "/api/chunks/"+id, dm, nil)
		wantStatus(t, resp, data, 200)
	}
	resp, data := call(t, ts, "GET", "/api/compendium", player, nil)
	wantStatus(t, resp, data, 200)
	leaks("compendium", data)
	dmComp, err := eng.Compendium(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range dmComp {
		for _, name := range append([]string{en.Name}, en.Aliases...) {
			resp, data := call(t, ts, "GET", "/api/compendium/"+url.PathEscape(name), player, nil)
			if resp.StatusCode != 200 && resp.StatusCode != 404 {
				t.Fatalf("compendium %q: status %d", name, resp.StatusCode)
			}
			leaks("compendium "+name, data)
		}
	}
	if requests < 200 {
		t.Errorf("%d player requests; the leak test wants at least 200", requests)
	}
	t.Logf("%d player requests over HTTP, %d DM-only chunks, %d secret sentences", requests, len(ids), len(secrets.Sentences))
}
