package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
)

// TestIngestWhileServing re-ingests through the server (POST /api/ingest)
// while 8 clients search and ask, with every path on (the hashing
// embedder's vectors, the compendium): no request fails, every search
// finds the session it asks about, and after each ingest a word just
// written into a note is found, so the engine serves the new generation.
// Run it with -race: the engine's views are built and swapped while the
// clients read them.
func TestIngestWhileServing(t *testing.T) {
	ctx := context.Background()
	eng, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "o.db"), oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	notes := writeNotes(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	tokens, player, dm := testTokens(t)
	// The 8 clients all wait their turn (nothing is shed): any refusal
	// here would be an error under concurrency.
	ts, logs := testServer(t, Config{Engine: eng, Tokens: tokens, Limits: Limits{Queue: 8, QueueWait: time.Minute}})

	post := func(path, token string, body any) (int, []byte, error) {
		data, _ := json.Marshal(body)
		req, err := http.NewRequest("POST", ts.URL+path, bytes.NewReader(data))
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := ts.Client().Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		return resp.StatusCode, out, err
	}

	stop := make(chan struct{})
	var requests atomic.Int64
	errs := make(chan error, 64)
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			token := []string{player, dm}[c%2]
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				path, body := "/api/search", map[string]any{"question": "¿Quién cayó en combate en el puente de Galerna?", "k": 5}
				if i%3 == 2 {
					path, body = "/api/ask", map[string]any{"question": "¿Quién vende mapas falsos del archiduque?"}
				}
				status, data, err := post(path, token, body)
				requests.Add(1)
				switch {
				case err != nil:
					errs <- fmt.Errorf("client %d, %s: %v", c, path, err)
					return
				case status != 200:
					errs <- fmt.Errorf("client %d, %s: status %d: %s", c, path, status, data)
					return
				case path == "/api/search" && !bytes.Contains(data, []byte("Norkiel")):
					errs <- fmt.Errorf("client %d: the search lost the session it asks about: %s", c, data)
					return
				case path == "/api/ask" && !bytes.Contains(data, []byte("Harbin")):
					errs <- fmt.Errorf("client %d: the answer lost its note: %s", c, data)
					return
				}
			}
		}()
	}

	npc := filepath.Join(notes, "NPCs", "Harbin Wester.md")
	rounds := 4
	if testing.Short() {
		rounds = 2
	}
	for round := range rounds {
		word := fmt.Sprintf("zafirocelta%d", round)
		f, err := os.OpenFile(npc, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "\nGuarda un %s bajo la barra.\n", word)
		f.Close()
		resp, data := call(t, ts, "POST", "/api/ingest", dm, nil)
		wantStatus(t, resp, data, 202)
		var st ingestStatusBody
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			resp, data := call(t, ts, "GET", "/api/ingest", dm, nil)
			wantStatus(t, resp, data, 200)
			if st = decodeJSON[ingestStatusBody](t, data); !st.Running {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the ingest does not finish: %s", round, data)
			}
		}
		if st.Error != "" {
			t.Fatalf("round %d: ingest failed: %s", round, st.Error)
		}
		resp, data = call(t, ts, "POST", "/api/search", player, map[string]any{"question": "¿Quién guarda un " + word + "?", "k": 3})
		wantStatus(t, resp, data, 200)
		if !strings.Contains(string(data), word) {
			t.Errorf("round %d: the word just ingested is not found: %s", round, data)
		}
	}
	// Let the clients run past the last ingest, then stop them.
	time.Sleep(50 * time.Millisecond)
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		for _, line := range strings.Split(logs.String(), "\n") {
			if strings.Contains(line, `"level":"ERROR"`) {
				t.Log(line)
			}
		}
	}
	if n := requests.Load(); n < 16 {
		t.Errorf("only %d requests ran beside the ingests", n)
	}
	t.Logf("%d requests beside %d ingests", requests.Load(), rounds)
}
