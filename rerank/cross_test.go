package rerank

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/oraculo/oraculo/internal/golden" // accepts -update
)

// rerankServer is a fake rerank endpoint: answer gets each request's
// decoded JSON body, with "_path", "_method", "_auth" (Authorization) and
// "_type" (Content-Type) added, and writes the answer.
func rerankServer(t *testing.T, answer func(w http.ResponseWriter, body map[string]any)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &body); err != nil {
			t.Errorf("request body is not JSON: %v: %s", err, data)
		}
		body["_path"] = r.URL.Path
		body["_method"] = r.Method
		body["_auth"] = r.Header.Get("Authorization")
		body["_type"] = r.Header.Get("Content-Type")
		answer(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// stringList returns the strings in a decoded JSON list.
func stringList(t *testing.T, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("not a list: %#v", v)
	}
	out := make([]string, len(list))
	for i, x := range list {
		out[i], _ = x.(string)
	}
	return out
}

func TestCrossJina(t *testing.T) {
	cands := candidates(6)
	var got map[string]any
	srv := rerankServer(t, func(w http.ResponseWriter, body map[string]any) {
		got = body
		// llama-server's answer: sorted by score, cut to top_n.
		fmt.Fprint(w, `{"model": "bge-reranker-v2-m3", "object": "list", "usage": {"prompt_tokens": 90, "total_tokens": 90},
			"results": [{"index": 4, "relevance_score": 0.93}, {"index": 1, "relevance_score": 0.41}]}`)
	})
	ce := &CrossEncoder{BaseURL: srv.URL, Model: "bge-reranker-v2-m3", APIKey: "sk-local"}
	r := ce.Rerank(context.Background(), "¿Quién cruzó el paso?", cands, 2)
	checkPermutation(t, r, cands)
	if !r.Reranked || r.Fallback != "" {
		t.Fatalf("Reranked = %v, Fallback = %q", r.Reranked, r.Fallback)
	}
	if want := ids(cands, 4, 1, 0, 2, 3, 5); !slices.Equal(r.Order, want) {
		t.Fatalf("Order = %v, want %v", r.Order, want)
	}

	if got["_method"] != http.MethodPost || got["_path"] != "/v1/rerank" {
		t.Errorf("request %v %v, want POST /v1/rerank", got["_method"], got["_path"])
	}
	if got["_auth"] != "Bearer sk-local" || got["_type"] != "application/json" {
		t.Errorf("headers: Authorization %q, Content-Type %q", got["_auth"], got["_type"])
	}
	if got["model"] != "bge-reranker-v2-m3" || got["query"] != "¿Quién cruzó el paso?" || got["top_n"] != 2.0 {
		t.Errorf("model %v, query %v, top_n %v", got["model"], got["query"], got["top_n"])
	}
	docs := stringList(t, got["documents"])
	if len(docs) != len(cands) {
		t.Fatalf("%d documents sent, want all %d on the first call", len(docs), len(cands))
	}
	for i, c := range cands {
		if want := c.Label + "\n" + c.Text; docs[i] != want {
			t.Errorf("document %d = %q, want %q", i, docs[i], want)
		}
	}
	for _, key := range []string{"texts", "truncate"} {
		if _, ok := got[key]; ok {
			t.Errorf("jina request has TEI's %q", key)
		}
	}
}

func TestCrossTEI(t *testing.T) {
	cands := candidates(5)
	var got map[string]any
	srv := rerankServer(t, func(w http.ResponseWriter, body map[string]any) {
		got = body
		// Scores for all texts; not sorted, to check that the client sorts.
		fmt.Fprint(w, `[{"index": 0, "score": 0.1}, {"index": 3, "score": 0.8}, {"index": 2, "score": 0.95},
			{"index": 1, "score": 0.2}, {"index": 4, "score": 0.05}]`)
	})
	ce := &CrossEncoder{BaseURL: srv.URL + "/", Shape: "TEI"}
	r := ce.Rerank(context.Background(), "¿Quién cruzó el paso?", cands, 3)
	checkPermutation(t, r, cands)
	if want := ids(cands, 2, 3, 1, 0, 4); !slices.Equal(r.Order, want) || !r.Reranked {
		t.Fatalf("Order = %v (reranked %v, %q), want %v", r.Order, r.Reranked, r.Fallback, want)
	}
	if got["_path"] != "/rerank" || got["_auth"] != "" {
		t.Errorf("path %v, Authorization %q", got["_path"], got["_auth"])
	}
	if got["query"] != "¿Quién cruzó el paso?" || got["truncate"] != true || len(stringList(t, got["texts"])) != 5 {
		t.Errorf("body: %v", got)
	}
	for _, key := range []string{"model", "documents", "top_n"} {
		if _, ok := got[key]; ok {
			t.Errorf("TEI request has %q", key)
		}
	}
}

func TestCrossTEIBatches(t *testing.T) {
	cands := candidates(40)
	var mu sync.Mutex
	var sizes []int
	srv := rerankServer(t, func(w http.ResponseWriter, body map[string]any) {
		texts := stringList(t, body["texts"])
		mu.Lock()
		sizes = append(sizes, len(texts))
		mu.Unlock()
		// The best text of each batch is the one for "Sesión 35".
		var ranks []map[string]any
		for i, text := range texts {
			s := 0.1
			if strings.HasPrefix(text, "Sesión 35\n") {
				s = 0.9
			}
			ranks = append(ranks, map[string]any{"index": i, "score": s})
		}
		json.NewEncoder(w).Encode(ranks)
	})
	r := (&CrossEncoder{BaseURL: srv.URL, Shape: ShapeTEI}).Rerank(context.Background(), "q", cands, 8)
	if !slices.Equal(sizes, []int{32, 8}) {
		t.Fatalf("batches of %v texts, want [32 8]", sizes)
	}
	checkPermutation(t, r, cands)
	if !r.Reranked || r.Order[0] != cands[34].ID {
		t.Fatalf("Order = %v (%q), want %d first", r.Order, r.Fallback, cands[34].ID)
	}
}

func TestCrossFallbacks(t *testing.T) {
	tests := []struct {
		name   string
		shape  string
		status int
		body   string
		want   string
	}{
		{"index out of range", ShapeJina, 200, `{"results": [{"index": 1, "relevance_score": 0.9}, {"index": 7, "relevance_score": 0.5}]}`, "index 7 out of range"},
		{"negative index", ShapeJina, 200, `{"results": [{"index": -1, "relevance_score": 0.9}]}`, "index -1 out of range"},
		{"TEI index out of range", ShapeTEI, 200, `[{"index": 5, "score": 0.9}]`, "index 5 out of range"},
		{"not JSON", ShapeJina, 200, `<html>oops</html>`, "unparseable reply"},
		{"no results", ShapeJina, 200, `{"data": []}`, "unparseable reply"},
		{"missing score", ShapeJina, 200, `{"results": [{"index": 1}]}`, "unparseable reply"},
		{"missing index", ShapeJina, 200, `{"results": [{"relevance_score": 0.3}]}`, "unparseable reply"},
		{"TEI object", ShapeTEI, 200, `{"results": []}`, "unparseable reply"},
		{"TEI null", ShapeTEI, 200, `null`, "unparseable reply"},
		{"empty results", ShapeJina, 200, `{"results": []}`, "no results in reply"},
		{"llama.cpp error", ShapeJina, 501, `{"error": {"code": 501, "message": "This server does not support reranking. Start it with --reranking", "type": "not_supported_error"}}`,
			"status 501: This server does not support reranking. Start it with --reranking"},
		{"TEI error", ShapeTEI, 413, `{"error": "batch size 40 > maximum allowed batch size 32", "error_type": "Validation"}`,
			"status 413: batch size 40 > maximum allowed batch size 32"},
		{"Jina error", ShapeJina, 422, `{"detail": "model not found"}`, "status 422: model not found"},
		{"plain error", ShapeJina, 502, "Bad Gateway\n", "status 502: Bad Gateway"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := rerankServer(t, func(w http.ResponseWriter, _ map[string]any) {
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			})
			cands := candidates(5)
			r := (&CrossEncoder{BaseURL: srv.URL, Shape: tt.shape}).Rerank(context.Background(), "q", cands, 2)
			checkFallback(t, r, cands, tt.want)
		})
	}
}

func TestCrossFewerResultsThanAsked(t *testing.T) {
	srv := rerankServer(t, func(w http.ResponseWriter, _ map[string]any) {
		// Index 3 twice: counted once, at its best score.
		fmt.Fprint(w, `{"results": [{"index": 3, "relevance_score": 0.2}, {"index": 3, "relevance_score": 0.7}]}`)
	})
	cands := candidates(5)
	r := (&CrossEncoder{BaseURL: srv.URL}).Rerank(context.Background(), "q", cands, 3)
	if want := ids(cands, 3, 0, 1, 2, 4); !slices.Equal(r.Order, want) || !r.Reranked {
		t.Fatalf("Order = %v (%q), want %v", r.Order, r.Fallback, want)
	}
}

func TestCrossUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	cands := candidates(3)
	r := (&CrossEncoder{BaseURL: url}).Rerank(context.Background(), "q", cands, 2)
	if r.Reranked || !strings.HasPrefix(r.Fallback, "request failed: ") || !slices.Equal(r.Order, Fused(cands).Order) {
		t.Fatalf("Rerank against a closed server = %+v", r)
	}
}

func TestCrossConfigErrors(t *testing.T) {
	cands := candidates(3)
	tests := []struct {
		ce   *CrossEncoder
		want string
	}{
		{&CrossEncoder{BaseURL: "127.0.0.1:8080"}, `bad base URL "127.0.0.1:8080"`},
		{&CrossEncoder{BaseURL: ""}, `bad base URL ""`},
		{&CrossEncoder{BaseURL: "http://127.0.0.1:1", Shape: "cohere"}, `unknown shape "cohere"`},
	}
	for _, tt := range tests {
		checkFallback(t, tt.ce.Rerank(context.Background(), "q", cands, 2), cands, tt.want)
	}
}

func TestCrossFewCandidatesNoRequest(t *testing.T) {
	srv := rerankServer(t, func(http.ResponseWriter, map[string]any) { t.Error("server called") })
	for _, n := range []int{0, 1} {
		cands := candidates(n)
		checkFallback(t, (&CrossEncoder{BaseURL: srv.URL}).Rerank(context.Background(), "q", cands, 8), cands, "")
	}
}

func TestCrossSlowServerFallsBackWithinBudget(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	cands := candidates(10)
	const budget = 40 * time.Millisecond
	r := (&CrossEncoder{BaseURL: srv.URL, Budget: budget}).Rerank(context.Background(), "q", cands, 3)
	checkFallback(t, r, cands, "timeout")
	if r.Took < 2*budget || r.Took > 2*budget+time.Second {
		t.Fatalf("Took = %v, want about twice the %v budget", r.Took, budget)
	}
}

func TestCrossCanceled(t *testing.T) {
	srv := rerankServer(t, func(w http.ResponseWriter, _ map[string]any) { fmt.Fprint(w, `{"results": []}`) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cands := candidates(3)
	checkFallback(t, (&CrossEncoder{BaseURL: srv.URL}).Rerank(ctx, "q", cands, 2), cands, "canceled")
}

func TestCrossClipsText(t *testing.T) {
	words := make([]string, 1000)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	cands := candidates(2)
	cands[0].Text = strings.Join(words, " \n")
	var docs []string
	srv := rerankServer(t, func(w http.ResponseWriter, body map[string]any) {
		docs = stringList(t, body["documents"])
		fmt.Fprint(w, `{"results": [{"index": 1, "relevance_score": 1}]}`)
	})
	(&CrossEncoder{BaseURL: srv.URL}).Rerank(context.Background(), "q", cands, 1)
	want := "Sesión 1\n" + strings.Join(words[:maxDocWords], " \n")
	if len(docs) != 2 || docs[0] != want {
		t.Fatalf("first document has %d words, want the label and %d words", len(strings.Fields(docs[0])), maxDocWords)
	}
}

func TestClipWords(t *testing.T) {
	tests := []struct {
		s     string
		limit int
		want  string
	}{
		{"uno dos tres", 2, "uno dos"},
		{"uno dos tres", 3, "uno dos tres"},
		{"uno dos tres", 5, "uno dos tres"},
		{"  uno\n\ndos  tres ", 2, "  uno\n\ndos"},
		{"", 2, ""},
		{"año señor", 1, "año"},
	}
	for _, tt := range tests {
		if got := clipWords(tt.s, tt.limit); got != tt.want {
			t.Errorf("clipWords(%q, %d) = %q, want %q", tt.s, tt.limit, got, tt.want)
		}
	}
}

func TestRerankURL(t *testing.T) {
	tests := []struct {
		base, shape, want string
	}{
		{"http://127.0.0.1:8080", ShapeJina, "http://127.0.0.1:8080/v1/rerank"},
		{"http://127.0.0.1:8080/", ShapeJina, "http://127.0.0.1:8080/v1/rerank"},
		{"https://api.jina.ai/v1", ShapeJina, "https://api.jina.ai/v1/rerank"},
		{"https://api.cohere.com/v2/", ShapeJina, "https://api.cohere.com/v2/rerank"},
		{"http://127.0.0.1:8080/rerank", ShapeJina, "http://127.0.0.1:8080/rerank"},
		{"http://gpu:9000/llama", ShapeJina, "http://gpu:9000/llama/v1/rerank"},
		{"http://127.0.0.1:8081", ShapeTEI, "http://127.0.0.1:8081/rerank"},
		{"http://127.0.0.1:8081/rerank/", ShapeTEI, "http://127.0.0.1:8081/rerank"},
	}
	for _, tt := range tests {
		got, err := rerankURL(tt.base, tt.shape)
		if err != nil || got != tt.want {
			t.Errorf("rerankURL(%q, %q) = %q, %v; want %q", tt.base, tt.shape, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "localhost:8080", "ftp://host/", "http://", "http://a b/"} {
		if _, err := rerankURL(bad, ShapeJina); err == nil {
			t.Errorf("rerankURL(%q) accepted", bad)
		}
	}
}

func TestDepthFor(t *testing.T) {
	tests := []struct {
		name           string
		k, total       int
		budget, perDoc time.Duration
		want           int
	}{
		{"unknown speed: all", 8, 27, time.Second, 0, 27},
		{"unknown speed: at most 40", 8, 60, time.Second, 0, MaxDepth},
		{"fits", 8, 27, time.Second, 50 * time.Millisecond, 20},
		{"all fit", 8, 27, time.Second, time.Millisecond, 27},
		{"fast but at most 40", 8, 60, time.Second, time.Millisecond, MaxDepth},
		{"slow: at least k", 8, 27, time.Second, 300 * time.Millisecond, 8},
		{"k above 40", 45, 60, time.Second, time.Millisecond, 45},
		{"k above total", 8, 5, time.Second, time.Second, 5},
	}
	for _, tt := range tests {
		if got := depthFor(tt.k, tt.total, tt.budget, tt.perDoc); got != tt.want {
			t.Errorf("%s: depthFor(%d, %d, %v, %v) = %d, want %d", tt.name, tt.k, tt.total, tt.budget, tt.perDoc, got, tt.want)
		}
	}
}

// pacedServer is a rerank endpoint that takes perDoc per document and
// records how many documents each request had.
func pacedServer(t *testing.T, perDoc time.Duration) (*httptest.Server, func() []int) {
	var mu sync.Mutex
	var depths []int
	srv := rerankServer(t, func(w http.ResponseWriter, body map[string]any) {
		n := len(stringList(t, body["documents"]))
		mu.Lock()
		depths = append(depths, n)
		mu.Unlock()
		time.Sleep(time.Duration(n) * perDoc)
		fmt.Fprintf(w, `{"results": [{"index": %d, "relevance_score": 1}]}`, n-1)
	})
	return srv, func() []int {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(depths)
	}
}

func TestCrossDepthAdaptsToBudget(t *testing.T) {
	srv, depths := pacedServer(t, 3*time.Millisecond)
	cands := candidates(40)
	// 40 documents take 120ms: within the 200ms hard deadline of a 100ms
	// budget, but past the budget, so the next call sends fewer.
	ce := &CrossEncoder{BaseURL: srv.URL, Budget: 100 * time.Millisecond}
	for range 3 {
		if r := ce.Rerank(context.Background(), "q", cands, 4); !r.Reranked {
			t.Fatalf("fallback: %q", r.Fallback)
		}
	}
	got := depths()
	if got[0] != 40 {
		t.Fatalf("first call sent %d documents, want all 40", got[0])
	}
	// At 3ms or more per document, 100ms holds 33 at most.
	for i, d := range got[1:] {
		if d < 4 || d > 33 {
			t.Errorf("call %d sent %d documents, want 4..33 (depths %v)", i+2, d, got)
		}
	}

	// A larger budget lets it send them all again; a tiny one, only the 4
	// asked. (12ms holds 4 documents at 3ms or more each; a budget of 1ms,
	// abandoned after 2ms, could give up before the request reaches the
	// server on a loaded machine.)
	ce.Budget = 10 * time.Second
	ce.Rerank(context.Background(), "q", cands, 4)
	ce.Budget = 12 * time.Millisecond
	ce.Rerank(context.Background(), "q", cands, 4)
	got = depths()
	if got[3] != 40 || got[4] != 4 {
		t.Fatalf("depths %v: want 40 with a 10s budget, then 4 with 12ms", got)
	}
}

func TestCrossTimeoutShrinksDepth(t *testing.T) {
	srv, depths := pacedServer(t, 10*time.Millisecond)
	cands := candidates(40)
	// 40 documents take 400ms, past the 100ms deadline: the next call sends
	// at most half as many.
	ce := &CrossEncoder{BaseURL: srv.URL, Budget: 50 * time.Millisecond}
	if r := ce.Rerank(context.Background(), "q", cands, 2); r.Fallback != "timeout" {
		t.Fatalf("first call: %+v, want a timeout", r)
	}
	ce.Rerank(context.Background(), "q", cands, 2)
	if got := depths(); len(got) != 2 || got[0] != 40 || got[1] > 20 {
		t.Fatalf("depths %v: want 40, then 20 or fewer", got)
	}
}

func TestCrossConcurrentUse(t *testing.T) {
	srv, _ := pacedServer(t, 0)
	ce := &CrossEncoder{BaseURL: srv.URL}
	cands := candidates(12)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if r := ce.Rerank(context.Background(), "q", cands, 3); !r.Reranked {
				t.Errorf("fallback: %q", r.Fallback)
			}
		})
	}
	wg.Wait()
}

func TestCrossName(t *testing.T) {
	if got := (&CrossEncoder{Model: "jina-reranker-v2"}).Name(); got != "cross-encoder/jina-reranker-v2" {
		t.Errorf("Name = %q", got)
	}
	if got := (&CrossEncoder{Shape: "tei"}).Name(); got != "cross-encoder/tei" {
		t.Errorf("Name = %q", got)
	}
}
