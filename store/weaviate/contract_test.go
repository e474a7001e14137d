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
	t.Parallel() // its own node (see "Parallel tests" in contract_test.go)
	c := weaviatetest.Start(t, 1)
	n := 0
	storetest.Run(t, func(t *testing.T) store.Store {
		n++
		return open(t, c.Nodes[0], fmt.Sprintf("contract%d", n))
	})
}

// Parallel tests: the tests that start a node of their own and touch
// nothing else that the package's tests share run side by side
// (t.Parallel), so that their nodes' starts, which mostly wait, overlap.
// The others run first, one at a time, as the testing package runs the
// tests that do not call t.Parallel: those that set package variables
// (SetPageSize, SetMentionFlush: TestBackend, TestDenseSearch,
// TestCompendium), set the environment (TestReplication), or measure
// times (TestCompendiumScale).
