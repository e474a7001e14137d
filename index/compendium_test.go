package index

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// TestMigrationToV9: a v8 file opens; its notes have no compendium facts
// yet (the next ingest reads them all), and the compendium's signature is
// dropped so that it is stored anew.
func TestMigrationToV9(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v8.db")
	db := dbAtVersion(t, path, 8)
	if _, err := db.Exec(`INSERT INTO documents(root, path, sha256, size, title, metadata, stamp, ingested_at, dm_reason)
		VALUES('/r', 'a.md', 'h', 1, 'a', '{}', 's', 0, '');
		INSERT INTO meta(key, value) VALUES('compendium_sig', 'old')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ix, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	missing, pending, err := ix.SyncCompendiumNotes(ctx)
	if err != nil || len(missing) != 1 || !pending {
		t.Fatalf("after the upgrade: %v %v %v", missing, pending, err)
	}
	if v, _ := ix.Meta(ctx, "compendium_sig"); v != "" {
		t.Errorf("the compendium's signature survived the upgrade: %q", v)
	}
	// Facts stored are pending until the compendium is, and go with
	// their note.
	if err := ix.PutNoteFacts(ctx, []store.NoteFacts{{DocID: missing[0], Data: []byte{1}, Lower: []byte{2}}}); err != nil {
		t.Fatal(err)
	}
	if missing, pending, err = ix.SyncCompendiumNotes(ctx); err != nil || len(missing) != 0 || !pending {
		t.Fatalf("with facts: %v %v %v", missing, pending, err)
	}
	if err := ix.UpdateCompendium(ctx, func(w store.CompendiumWriter) error { return w.Finish(ctx, "compendium_sig", "new") }); err != nil {
		t.Fatal(err)
	}
	if missing, pending, err = ix.SyncCompendiumNotes(ctx); err != nil || len(missing) != 0 || pending {
		t.Fatalf("after storing the compendium: %v %v %v", missing, pending, err)
	}
	if err := ix.DeleteDocument(ctx, "/r", "a.md"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := ix.DB().QueryRow(`SELECT count(*) FROM compendium_notes`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d facts left of a note gone (%v)", n, err)
	}
}
