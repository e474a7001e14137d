package weaviate

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	wv "github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/connection"
	"github.com/weaviate/weaviate/entities/models"
)

// TestPutRetries: a batch the cluster fails is sent again after a pause,
// and then only the objects it refused.
func TestPutRetries(t *testing.T) {
	defer func(d time.Duration) { firstBackoff = d }(firstBackoff)
	firstBackoff = time.Millisecond
	var mu sync.Mutex
	var sent [][]string // object ids of each batch request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/.well-known/ready":
		case r.URL.Path == "/v1/meta":
			w.Write([]byte(`{"version": "1.35.2"}`))
		case r.URL.Path == "/v1/batch/objects" && r.Method == http.MethodPost:
			var body struct{ Objects []models.Object }
			if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
				t.Error(err)
			}
			var ids []string
			for _, o := range body.Objects {
				ids = append(ids, o.ID.String())
			}
			mu.Lock()
			sent = append(sent, ids)
			n := len(sent)
			mu.Unlock()
			switch n {
			case 1:
				http.Error(w, "shutting down", http.StatusServiceUnavailable)
				return
			case 2:
				// The first object is refused, the others stored.
				out := make([]map[string]any, len(body.Objects))
				for i, o := range body.Objects {
					out[i] = map[string]any{"id": o.ID, "result": map[string]any{}}
				}
				out[0]["result"] = map[string]any{"errors": map[string]any{"error": []map[string]any{{"message": "shard not ready"}}}}
				json.NewEncoder(w).Encode(out)
				return
			}
			out := make([]map[string]any, len(body.Objects))
			for i, o := range body.Objects {
				out[i] = map[string]any{"id": o.ID, "result": map[string]any{}}
			}
			json.NewEncoder(w).Encode(out)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	client, err := wv.NewClient(wv.Config{Scheme: "http", Host: u.Host})
	if err != nil {
		t.Fatal(err)
	}
	s := &Store{client: client, tenant: "t"}
	objs := []*models.Object{
		{Class: chunkClass, ID: chunkUUID("a"), Tenant: "t", Properties: map[string]any{propUID: "a"}},
		{Class: chunkClass, ID: chunkUUID("b"), Tenant: "t", Properties: map[string]any{propUID: "b"}},
		{Class: chunkClass, ID: chunkUUID("c"), Tenant: "t", Properties: map[string]any{propUID: "c"}},
	}
	if err := s.put(context.Background(), objs); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 3 || len(sent[0]) != 3 || len(sent[1]) != 3 || len(sent[2]) != 1 || sent[2][0] != string(chunkUUID("a")) {
		t.Errorf("batches sent: %v", sent)
	}

	// A cluster that keeps refusing: the error says why, after Attempts.
	sent = nil
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/batch/objects" {
			mu.Lock()
			sent = append(sent, nil)
			mu.Unlock()
			http.Error(w, "disk full", http.StatusInsufficientStorage)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err = s.put(ctx, objs[:1])
	if err == nil || !strings.Contains(err.Error(), "disk full") || len(sent) != Attempts {
		t.Errorf("after %d requests: %v", len(sent), err)
	}
}

// TestDeleteStamped: a batch delete carries the time it was sent (what
// time-based resolution compares when a replica that missed it comes
// back), the write consistency level and the tenant; so do batch writes.
func TestDeleteStamped(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/.well-known/ready":
		case r.URL.Path == "/v1/meta":
			w.Write([]byte(`{"version": "1.35.2"}`))
		case r.URL.Path == "/v1/batch/objects" && r.Method == http.MethodDelete:
			var body models.BatchDelete
			if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
				t.Error(err)
			}
			mu.Lock()
			got = append(got, r.URL.Query().Get("consistency_level"), r.URL.Query().Get("tenant"))
			mu.Unlock()
			if body.DeletionTimeUnixMilli == nil {
				t.Error("a batch delete without a deletion time")
			} else if d := time.Since(time.UnixMilli(*body.DeletionTimeUnixMilli)); d < 0 || d > time.Minute {
				t.Errorf("deletion time %d is %v from now", *body.DeletionTimeUnixMilli, d)
			}
			if body.Match == nil || body.Match.Class != chunkClass || body.Match.Where == nil {
				t.Errorf("match %+v", body.Match)
			}
			json.NewEncoder(w).Encode(map[string]any{"results": map[string]any{"matches": 2, "limit": 10000, "successful": 2}})
		case r.URL.Path == "/v1/batch/objects" && r.Method == http.MethodPost:
			mu.Lock()
			got = append(got, r.URL.Query().Get("consistency_level"))
			mu.Unlock()
			w.Write([]byte(`[{"id": "` + string(chunkUUID("a")) + `", "result": {}}]`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	client, err := wv.NewClient(wv.Config{Scheme: "http", Host: u.Host})
	if err != nil {
		t.Fatal(err)
	}
	s := &Store{client: client, rest: connection.NewConnection("http", u.Host, nil, time.Second, nil), tenant: "t"}
	if err := s.deleteWhere(context.Background(), chunkClass, textIs(propDocKey, "k")); err != nil {
		t.Fatal(err)
	}
	if err := s.put(context.Background(), []*models.Object{{Class: chunkClass, ID: chunkUUID("a"), Tenant: "t"}}); err != nil {
		t.Fatal(err)
	}
	if want := []string{Consistency, "t", Consistency}; !slices.Equal(got, want) {
		t.Errorf("requests had consistency level and tenant %v, want %v", got, want)
	}
}
