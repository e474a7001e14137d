package indextest_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/index/indextest"
)

// Every migration after First can be undone, and opening the file then
// runs them again to the same schema.
func TestUndoCoversEveryMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "o.db")
	ix, err := index.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if vs := indextest.Versions(); len(vs) != index.SchemaVersion-indextest.First || vs[len(vs)-1] != index.SchemaVersion {
		t.Fatalf("undo knows schemas %v; the index writes %d: add the new migration's undo", vs, index.SchemaVersion)
	}
	schema := func() map[string]string {
		rows, err := ix.DB().QueryContext(ctx, `SELECT name, coalesce(sql, '') FROM sqlite_master`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		m := map[string]string{}
		for rows.Next() {
			var n, s string
			rows.Scan(&n, &s)
			m[n] = s
		}
		return m
	}
	before := schema()
	if err := indextest.Undo(ctx, ix.DB(), indextest.First); err != nil {
		t.Fatal(err)
	}
	if after := schema(); len(after) >= len(before) {
		t.Fatalf("undo left %d objects of %d", len(after), len(before))
	}
	ix.Close()
	if ix, err = index.Open(ctx, path); err != nil {
		t.Fatalf("migrating again: %v", err)
	}
	defer ix.Close()
	again := schema()
	for n, s := range before {
		if again[n] != s {
			t.Errorf("after migrating again, %s is %q; was %q", n, again[n], s)
		}
	}
}
