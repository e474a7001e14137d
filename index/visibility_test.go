package index

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// TestMigrationToV7FailsClosed: notes written by a version that decided
// visibility at the end of an ingest are DM-only after the upgrade until
// they are decided again, and the players' compendium is withheld.
func TestMigrationToV7FailsClosed(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v6.db")
	db := dbAtVersion(t, path, 6)
	// A public note as v6 left it (restricted = 0).
	if _, err := db.Exec(`INSERT INTO documents(root, path, sha256, size, title, metadata, visibility, stamp, ingested_at)
		VALUES('/n', 'Sesiones/s1.md', 'x', 1, 't', '{}', '', 's', 0)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ix, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var restricted int
	var reason string
	if err := ix.db.QueryRow(`SELECT restricted, dm_reason FROM documents`).Scan(&restricted, &reason); err != nil {
		t.Fatal(err)
	}
	if restricted == 0 || reason != "unknown" {
		t.Errorf("after the upgrade the note is restricted=%d reason=%q; want DM-only, unknown", restricted, reason)
	}
	if stale, err := ix.PlayersCompendiumStale(ctx); err != nil || !stale {
		t.Errorf("players' compendium stale = %v, %v; want withheld after the upgrade", stale, err)
	}
	// Deciding again makes it public, in one transaction with the rules.
	n, err := ix.Redecide(ctx, func(store.VisibilityRecord) (bool, string, string) { return false, "", "" }, map[string]string{"visibility_rules": "test"})
	if err != nil || n != 1 {
		t.Fatalf("Redecide = %d, %v; want 1 note changed", n, err)
	}
	if err := ix.db.QueryRow(`SELECT restricted, dm_reason FROM documents`).Scan(&restricted, &reason); err != nil || restricted != 0 || reason != "" {
		t.Errorf("after deciding: restricted=%d reason=%q (%v)", restricted, reason, err)
	}
	if v, _ := ix.Meta(ctx, "visibility_rules"); v != "test" {
		t.Errorf("Redecide did not store the rules: %q", v)
	}
}

// TestBecomingDMOnlyWithholdsPlayersCompendium: writing a note that was
// public as DM-only marks the players' compendium stale in the same
// transaction; rebuilding the players' compendium clears it.
func TestBecomingDMOnlyWithholdsPlayersCompendium(t *testing.T) {
	ctx := context.Background()
	ix, err := Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	// A new index has no players' compendium to withhold yet... until it
	// is built.
	if err := ix.ReplaceEntities(ctx, store.ScopePlayer, nil); err != nil {
		t.Fatal(err)
	}
	doc := &store.DocumentRecord{Root: "/n", Path: "NPCs/x.md", SHA256: "a", Title: "x", Stamp: "s"}
	if err := ix.ReplaceDocument(ctx, doc); err != nil {
		t.Fatal(err)
	}
	if stale, _ := ix.PlayersCompendiumStale(ctx); stale {
		t.Fatal("a public note should not withhold the players' compendium")
	}
	doc.SHA256, doc.DMOnly, doc.DMReason = "b", true, "front-matter"
	if err := ix.ReplaceDocument(ctx, doc); err != nil {
		t.Fatal(err)
	}
	if stale, _ := ix.PlayersCompendiumStale(ctx); !stale {
		t.Fatal("a public note written again as DM-only must withhold the players' compendium")
	}
	if ents, err := ix.Entities(ctx, store.ScopePlayer); err != nil || len(ents) != 0 {
		t.Fatalf("withheld players' compendium read as %v, %v", ents, err)
	}
	if err := ix.ReplaceEntities(ctx, store.ScopePlayer, []store.Entity{{Name: "Harbin", Kind: "npc"}}); err != nil {
		t.Fatal(err)
	}
	if ents, err := ix.Entities(ctx, store.ScopePlayer); err != nil || len(ents) != 1 {
		t.Fatalf("rebuilt players' compendium read as %v, %v", ents, err)
	}
}
