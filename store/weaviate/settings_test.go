package weaviate_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/store/weaviate"
)

// TestMetaOnce: a setting created once keeps its first value, and
// processes creating it at the same moment with different values all get
// the same one, the one stored.
func TestMetaOnce(t *testing.T) {
	t.Parallel() // its own node (see "Parallel tests" in contract_test.go)
	c := weaviatetest.Start(t, 1)
	node := c.Nodes[0]
	ctx := context.Background()
	s := open(t, node, "once")

	got, err := s.MetaOnce(ctx, "k", "first")
	if err != nil || got != "first" {
		t.Fatalf("MetaOnce on a new key = %q, %v; want first", got, err)
	}
	if got, err := s.MetaOnce(ctx, "k", "second"); err != nil || got != "first" {
		t.Errorf("MetaOnce on a stored key = %q, %v; want first", got, err)
	}
	if got, err := s.Meta(ctx, "k"); err != nil || got != "first" {
		t.Errorf("Meta after MetaOnce = %q, %v", got, err)
	}
	if _, err := s.MetaOnce(ctx, "empty", ""); err == nil {
		t.Error("MetaOnce stored an empty value")
	}
	if got, err := s.Meta(ctx, "never-set"); err != nil || got != "" {
		t.Errorf("Meta of a key never set = %q, %v", got, err)
	}

	// Racers: each its own client, as separate serve processes are.
	const racers = 6
	stores := make([]*weaviate.Store, racers)
	for i := range stores {
		stores[i] = open(t, node, "once")
	}
	for round := range 8 {
		key := fmt.Sprintf("race-%d", round)
		results := make([]string, racers)
		errs := make([]error, racers)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range racers {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				results[i], errs[i] = stores[i].MetaOnce(ctx, key, fmt.Sprintf("value-%d", i))
			}()
		}
		start.Done()
		done.Wait()
		stored, err := s.Meta(ctx, key)
		if err != nil || stored == "" {
			t.Fatalf("round %d: stored %q, %v", round, stored, err)
		}
		for i := range racers {
			if errs[i] != nil || results[i] != stored {
				t.Errorf("round %d: racer %d got %q (%v); the cluster holds %q", round, i, results[i], errs[i], stored)
			}
		}
	}
}

// TestOpenExisting: opening an index that must exist creates nothing in
// a tenant no ingest has begun in, and opens one that has.
func TestOpenExisting(t *testing.T) {
	t.Parallel() // its own node (see "Parallel tests" in contract_test.go)
	c := weaviatetest.Start(t, 1)
	node := c.Nodes[0]
	ctx := context.Background()
	cfg := weaviate.Config{URL: node.URL(), Tenant: "fresh", Existing: true}

	// Before any collection exists, and after, in a tenant never made.
	if _, err := weaviate.Open(ctx, cfg); !errors.Is(err, weaviate.ErrNoIndex) {
		t.Fatalf("Open(Existing) with no collections: %v, want ErrNoIndex", err)
	}
	if code := httpStatus(t, node.URL()+"/v1/schema/OraculoSetting"); code != http.StatusNotFound {
		t.Errorf("Open(Existing) created the settings collection: GET its schema answers %d", code)
	}
	other := open(t, node, "other")
	if _, err := weaviate.Open(ctx, cfg); !errors.Is(err, weaviate.ErrNoIndex) || !strings.Contains(err.Error(), `"fresh"`) {
		t.Fatalf("Open(Existing) of a tenant never made: %v, want ErrNoIndex naming it", err)
	}
	if code := httpStatus(t, node.URL()+"/v1/schema/OraculoSetting/tenants/fresh"); code != http.StatusNotFound {
		t.Errorf("Open(Existing) created the tenant: GET it answers %d", code)
	}
	// A tenant opened (so made) but never ingested into holds no index.
	open(t, node, "fresh")
	if _, err := weaviate.Open(ctx, cfg); !errors.Is(err, weaviate.ErrNoIndex) {
		t.Fatalf("Open(Existing) of an empty tenant: %v, want ErrNoIndex", err)
	}
	if err := other.SetMeta(ctx, weaviate.IngestedKey, "es"); err != nil {
		t.Fatal(err)
	}
	cfg.Tenant = "other"
	s, err := weaviate.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("Open(Existing) of an ingested tenant: %v", err)
	}
	if s.Version() == "" {
		t.Error("no Weaviate version read")
	}
	if nodes, healthy, err := s.Nodes(ctx); err != nil || nodes != 1 || healthy != 1 {
		t.Errorf("Nodes = %d, %d healthy, %v; want 1, 1", nodes, healthy, err)
	}
}

func httpStatus(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestOpenErrors: a cluster that does not answer, or refuses the key, is
// named by its address, never by its key.
func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	_, err = weaviate.Open(ctx, weaviate.Config{URL: closed, APIKey: "sekrit-key"})
	if !errors.Is(err, weaviate.ErrUnreachable) || !strings.Contains(err.Error(), closed) || strings.Contains(err.Error(), "sekrit") {
		t.Errorf("Open of a closed port: %v; want ErrUnreachable naming %s, not the key", err, closed)
	}

	var auth []string
	var mu sync.Mutex
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, `{"error":[{"message":"anonymous access not enabled"}]}`, http.StatusUnauthorized)
	}))
	defer refusing.Close()
	_, err = weaviate.Open(ctx, weaviate.Config{URL: refusing.URL, APIKey: "sekrit-key"})
	if !errors.Is(err, weaviate.ErrUnauthorized) || !strings.Contains(err.Error(), refusing.URL) || strings.Contains(err.Error(), "sekrit") {
		t.Errorf("Open refused by the cluster: %v; want ErrUnauthorized naming %s, not the key", err, refusing.URL)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(auth) == 0 || auth[0] != "Bearer sekrit-key" {
		t.Errorf("the API key was sent as %q", auth)
	}
}
