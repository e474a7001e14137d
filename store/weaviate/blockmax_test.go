package weaviate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/store/weaviate"
)

// TestBlockMaxWarning: a cluster that ranks BM25 with BlockMax WAND (the
// server's default, whose v1.35.2 drops matches still in a memtable) is
// opened with a warning naming the fix; one started as
// internal/weaviatetest and scripts/weaviate-local.sh start it is not.
func TestBlockMaxWarning(t *testing.T) {
	t.Parallel() // its own node (see "Parallel tests" in contract_test.go)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		env  map[string]string
		warn bool
	}{
		{"default", map[string]string{"USE_INVERTED_SEARCHABLE": ""}, true},
		{"wand", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			node := weaviatetest.StartEnv(t, 1, c.env).Nodes[0]
			s, err := weaviate.Open(ctx, weaviate.Config{URL: node.URL()})
			if err != nil {
				t.Fatal(err)
			}
			w := strings.Join(s.Warnings(), "\n")
			if got := strings.Contains(w, "USE_INVERTED_SEARCHABLE=false"); got != c.warn {
				t.Errorf("warned %v, want %v: %q", got, c.warn, w)
			}
		})
	}
}
