package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
)

// TestServeLoad drives a real loopback server over the sample campaign
// with concurrent clients (players, with tokens) that search, ask
// (extractive) and use the OpenAI endpoint (oraculo-extractive) in turn,
// and reports throughput and latency per endpoint. Any error fails it.
// Every test run does a short round (60 requests) so that errors under
// concurrency fail CI; the measured run is
//
//	ORACULO_LOAD=1 go test -run TestServeLoad -v ./server/
//
// ORACULO_LOAD_CLIENTS (8), ORACULO_LOAD_REQUESTS (400) and
// ORACULO_LOAD_SECONDS (20) bound it: it stops at whichever limit comes
// first.
func TestServeLoad(t *testing.T) {
	defaultTotal := 60
	if os.Getenv("ORACULO_LOAD") == "1" {
		defaultTotal = 400
	}
	clients := envInt(t, "ORACULO_LOAD_CLIENTS", 8)
	total := envInt(t, "ORACULO_LOAD_REQUESTS", defaultTotal)
	limit := time.Duration(envInt(t, "ORACULO_LOAD_SECONDS", 20)) * time.Second

	ctx := context.Background()
	eng, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Ingest(ctx, []string{"../examples/campaign"}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	questions := goldenQuestions(t, "../examples/golden.jsonl")
	path := filepath.Join(t.TempDir(), "tokens.yaml")
	token, err := AddToken(path, "ana", oraculo.RolePlayer)
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := LoadTokens(path)
	if err != nil {
		t.Fatal(err)
	}
	// A queue as long as the clients, waited on for as long as the run:
	// nothing is shed, so that any error under concurrency shows (the
	// shedding has its own tests, and TestServeLoadBench in cmd/oraculo
	// measures it).
	h := New(Config{Engine: eng, Tokens: tokens, Limits: Limits{Queue: clients, QueueWait: limit + time.Minute}})
	ts := httptest.NewServer(h)
	defer h.Close()
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: time.Minute}

	type endpoint struct {
		name, path string
		body       func(q string) any
	}
	endpoints := []endpoint{
		{"search", "/api/search", func(q string) any { return map[string]any{"question": q} }},
		{"ask", "/api/ask", func(q string) any { return map[string]any{"question": q, "extractive": true} }},
		{"openai", "/v1/chat/completions", func(q string) any {
			return map[string]any{"model": ModelIDExtractive, "messages": []map[string]string{{"role": "user", "content": q}}}
		}},
	}
	var (
		mu        sync.Mutex
		latencies = map[string][]time.Duration{}
		failures  []string
		next      int
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= total {
			return 0, false
		}
		next++
		return next - 1, true
	}
	start := time.Now()
	deadline := start.Add(limit)
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				i, ok := take()
				if !ok {
					return
				}
				ep := endpoints[i%len(endpoints)]
				q := questions[(i/len(endpoints))%len(questions)]
				body, _ := json.Marshal(ep.body(q))
				req, _ := http.NewRequest("POST", ts.URL+ep.path, bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+token)
				req.Header.Set("Content-Type", "application/json")
				t0 := time.Now()
				resp, err := client.Do(req)
				var data []byte
				if err == nil {
					data, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				d := time.Since(t0)
				mu.Lock()
				switch {
				case err != nil:
					failures = append(failures, fmt.Sprintf("%s %q: %v", ep.name, q, err))
				case resp.StatusCode != 200:
					failures = append(failures, fmt.Sprintf("%s %q: %d %s", ep.name, q, resp.StatusCode, data))
				default:
					latencies[ep.name] = append(latencies[ep.name], d)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(failures) > 0 {
		t.Fatalf("%d requests failed; first: %s", len(failures), failures[0])
	}
	done := 0
	for _, ls := range latencies {
		done += len(ls)
	}
	t.Logf("%d clients, %d requests in %.2f s: %.1f requests/s, 0 errors", clients, done, elapsed.Seconds(), float64(done)/elapsed.Seconds())
	for _, ep := range endpoints {
		ls := latencies[ep.name]
		slices.Sort(ls)
		if len(ls) == 0 {
			continue
		}
		t.Logf("%-7s %4d requests  %6.1f/s  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms", ep.name, len(ls),
			float64(len(ls))/elapsed.Seconds(), ms(percentile(ls, 0.50)), ms(percentile(ls, 0.99)), ms(ls[len(ls)-1]))
	}
}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}

// goldenQuestions reads the questions of a golden set (JSON lines).
func goldenQuestions(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q struct {
			Question string `json:"question"`
		}
		if err := json.Unmarshal(sc.Bytes(), &q); err == nil && q.Question != "" {
			out = append(out, q.Question)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no questions in %s", path)
	}
	return out
}

// percentile returns the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
