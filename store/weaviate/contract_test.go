package weaviate_test

import (
	"fmt"
	"testing"

	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/store/storetest"
)

// TestContract runs the store contract against a Weaviate node, each
// scenario in a tenant of its own.
func TestContract(t *testing.T) {
	c := weaviatetest.Start(t, 1)
	n := 0
	storetest.Run(t, func(t *testing.T) store.Store {
		n++
		return open(t, c.Nodes[0], fmt.Sprintf("contract%d", n))
	})
}
