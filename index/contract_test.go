package index_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/store/storetest"
)

// TestContract runs the store contract against the SQLite index, each
// scenario on a new file.
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		ix, err := index.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	})
}
