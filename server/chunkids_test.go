package server

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/index/indextest"
	linkpkg "github.com/oraculo/oraculo/link"
	"github.com/oraculo/oraculo/store"
)

// TestChunkIDsOfBeforeTheMigration: an index written when chunk ids held
// the notes folder's absolute path (schema 12: rewritten here the way
// that code wrote it), opened by this program, is migrated; a signed link
// given before, to a passage by its old id, still opens it through the
// server, and a memory entry that named the chunk by its old id names it
// by its new one and is verified with the chunk kept; an entry made from
// the old id names the new one.
func TestChunkIDsOfBeforeTheMigration(t *testing.T) {
	ctx := context.Background()
	dm := oraculo.WithRole(ctx, oraculo.RoleDM)
	eng, db := ingested(t, testNotes)
	note, err := eng.Note(dm, "NPCs/Harbin Wester.md")
	if err != nil || len(note.Chunks) == 0 {
		t.Fatalf("the NPC's note: %v", err)
	}
	id := note.Chunks[0].ID
	m, err := eng.AddMemory(dm, oraculo.MemoryInput{Scope: "campaign", Key: "tabernero", Value: "Harbin vende mapas falsos", Chunk: id, Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	eng.Close()
	old := toRootedChunkIDs(t, db)
	if old[id] == "" {
		t.Fatalf("no old id for %q: %v", id, old)
	}

	eng, err = oraculo.Open(ctx, db) // migrates
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	key := []byte("a key for the test")
	ts, _ := testServer(t, Config{Engine: eng, LinkKey: key})
	maker := &linkpkg.Maker{Key: key} // signs as the server did before the upgrade
	for _, role := range []string{oraculo.RoleDM, oraculo.RolePlayer} {
		q := url.Values{"r": {role}, "k": {maker.Sig("c", role, old[id])}, "q": {"vende mapas falsos"}}
		status, page := getPage(t, ts.URL+"/c/"+old[id]+"?"+q.Encode())
		if status != 200 || !strings.Contains(page, "Tabernero de Puertogris") || !strings.Contains(page, `<mark id="cited">`) {
			t.Errorf("a %s's link to the old id: %d %.300s", role, status, page)
		}
	}
	chain, err := eng.MemoryChain(dm, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := chain[0]
	if src, err := store.ParseMemorySource(got.Source); err != nil || src.Chunk != id {
		t.Errorf("the memory's source after the migration: %q, %v; want the chunk %q", got.Source, err, id)
	}
	v, err := eng.VerifyMemory(dm, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if src, _ := store.ParseMemorySource(v.Source); src.Chunk != id {
		t.Errorf("verified again, the memory's source lost its chunk: %q", v.Source)
	}
	// A chunk named by its old id (from an answer of before) is named by
	// its new one in a new entry's source.
	added, err := eng.AddMemory(dm, oraculo.MemoryInput{Scope: "campaign", Key: "puerto", Value: "Puertogris", Chunk: old[id]})
	if err != nil {
		t.Fatal(err)
	}
	if src, _ := store.ParseMemorySource(added.Source); src.Chunk != id || src.Note != "NPCs/Harbin Wester.md" {
		t.Errorf("a memory made from the old id: %q", added.Source)
	}
	stale, err := eng.Memories(dm, "", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range stale {
		if e.ID == m.ID && e.Stale {
			t.Errorf("the memory is stale after the migration: %+v", e)
		}
	}
}

// toRootedChunkIDs rewrites the index at db as the program before ids
// relative to the notes folder left it: every chunk id holds the folder
// (store.RootedChunkUID, the code of then), memory sources name chunks by
// those ids, no alias table, no note languages (schema 14's) nor what later schemas added (indextest.Undo), schema 12. It returns the old id of each new.
func toRootedChunkIDs(t *testing.T, db string) map[string]string {
	t.Helper()
	ctx := context.Background()
	ix, err := index.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	rows, err := ix.DB().QueryContext(ctx, `SELECT k.id, k.uid, d.root, d.path, k.ordinal, k.text FROM chunks k JOIN documents d ON d.id = k.doc_id`)
	if err != nil {
		t.Fatal(err)
	}
	old := map[string]string{}
	ids := map[string]int64{}
	for rows.Next() {
		var id int64
		var uid, root, path, text string
		var ordinal int
		if err := rows.Scan(&id, &uid, &root, &path, &ordinal, &text); err != nil {
			t.Fatal(err)
		}
		old[uid] = store.RootedChunkUID(root, path, ordinal, text)
		ids[uid] = id
	}
	rows.Close()
	for uid, o := range old {
		if _, err := ix.DB().ExecContext(ctx, `UPDATE chunks SET uid = ? WHERE id = ?`, o, ids[uid]); err != nil {
			t.Fatal(err)
		}
		if _, err := ix.DB().ExecContext(ctx, `UPDATE memory SET source = replace(source, ?, ?)`, "#"+uid, "#"+o); err != nil {
			t.Fatal(err)
		}
	}
	if err := indextest.Undo(ctx, ix.DB(), 14); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.DB().ExecContext(ctx, `DROP TABLE IF EXISTS chunk_aliases; DROP INDEX IF EXISTS documents_lang; ALTER TABLE documents DROP COLUMN lang; DELETE FROM meta WHERE key = 'lang_chosen'; PRAGMA user_version = 12`); err != nil {
		t.Fatal(err)
	}
	return old
}
