package server

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat/chattest"
)

// The overview counts what the caller's role sees and names the model.
func TestOverview(t *testing.T) {
	start := time.Now()
	_, withModel := fakeChat(t, func(chattest.Call) string { return "" })
	tokens, player, dm := testTokens(t)
	for _, tt := range []struct {
		name      string
		opts      []oraculo.Option
		token     string
		notes     int
		wantModel string
	}{
		{"dm, extractive", nil, dm, 3, ""},
		{"player leaves DM-only notes out", nil, player, 2, ""},
		{"a chat model", []oraculo.Option{withModel}, player, 2, "ollama/fake"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts, _ := testServer(t, Config{Engine: testEngine(t, tt.opts...), Tokens: tokens})
			resp, data := call(t, ts, "GET", "/api/overview", tt.token, nil)
			wantStatus(t, resp, data, 200)
			var o oraculo.Overview
			if err := json.Unmarshal(data, &o); err != nil {
				t.Fatalf("decoding %s: %v", data, err)
			}
			if o.Notes != tt.notes || o.Sessions != 2 || o.Model != tt.wantModel {
				t.Errorf("overview %s, want %d notes, 2 sessions, model %q", data, tt.notes, tt.wantModel)
			}
			if o.Updated == nil || o.Updated.Before(start.Add(-time.Second)) || o.Updated.After(time.Now()) {
				t.Errorf("updated %v, want the time of the ingest (after %v)", o.Updated, start)
			}
		})
	}
	ts, _ := testServer(t, Config{Engine: testEngine(t), Tokens: tokens})
	resp, data := call(t, ts, "GET", "/api/overview", "", nil)
	wantStatus(t, resp, data, 401)
}

// With ?claim=, a chunk comes with the sentence that best supports it.
func TestChunkCitedSentence(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	chunks, err := eng.Chunks(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, c := range chunks {
		if strings.Contains(c.Text, "Norkiel") {
			id = c.ID
		}
	}
	if id == "" {
		t.Fatal("no chunk names Norkiel")
	}
	for _, tt := range []struct{ claim, want string }{
		{"Cruzaron un río. Norkiel murió luchando contra los **trolls**.", "Norkiel cayó en combate contra los trolls."},
		{"Pasaron por el puente de Galerna", "Cruzamos el puente de Galerna."},
		{"Nada que ver.", ""},
	} {
		resp, data := call(t, ts, "GET", "/api/chunks/"+id+"?claim="+url.QueryEscape(tt.claim), "", nil)
		wantStatus(t, resp, data, 200)
		var got struct {
			ID, Text string
			Cited    *string
		}
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if got.ID != id || got.Text == "" || got.Cited == nil || *got.Cited != tt.want {
			t.Errorf("claim %q: chunk %s, want cited %q", tt.claim, data, tt.want)
		}
	}
	// Without a claim, the chunk as before.
	resp, data := call(t, ts, "GET", "/api/chunks/"+id, "", nil)
	wantStatus(t, resp, data, 200)
	if strings.Contains(string(data), `"cited"`) {
		t.Errorf("a chunk asked for without a claim says what is cited: %s", data)
	}
}
