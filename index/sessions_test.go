package index

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// sessionNote is a note of the given sessions' chunks (0: a chunk outside
// any session), DM-only when dmOnly.
func sessionNote(path string, dmOnly bool, sessions ...int) *store.DocumentRecord {
	d := &store.DocumentRecord{Root: "/r", Path: path, SHA256: fmt.Sprint("h-", path, sessions), Title: path, Stamp: "s", DMOnly: dmOnly}
	for i, s := range sessions {
		uid := fmt.Sprintf("%s#%d-%d", path, i, s)
		d.Chunks = append(d.Chunks, store.ChunkRecord{
			ChunkData: store.ChunkData{UID: uid, Hash: uid, Ordinal: i, Session: s, InSession: s > 0, Label: path, Text: uid},
			Children:  []store.ChildRecord{{Terms: "palabr"}},
		})
	}
	return d
}

// joinedSessions and joinedUnits are what Sessions and Units returned
// before note_sessions, joining every chunk to its note: the reference
// the table must agree with.
func joinedSessions(t *testing.T, db *sql.DB, public bool) []int {
	t.Helper()
	vis := ""
	if public {
		vis = " AND d.restricted = 0"
	}
	rows, err := db.Query(`SELECT DISTINCT k.session FROM chunks k JOIN documents d ON d.id = k.doc_id
		WHERE k.session IS NOT NULL` + vis + ` ORDER BY k.session`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var s int
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func joinedUnits(t *testing.T, db *sql.DB, public bool) int {
	t.Helper()
	vis := "1"
	if public {
		vis = "d.restricted = 0"
	}
	var n int
	if err := db.QueryRow(`SELECT
		(SELECT count(DISTINCT k.session) FROM chunks k JOIN documents d ON d.id = k.doc_id WHERE k.session IS NOT NULL AND ` + vis + `) +
		(SELECT count(DISTINCT k.doc_id) FROM chunks k JOIN documents d ON d.id = k.doc_id WHERE k.session IS NULL AND ` + vis + `)`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkSessions fails the test unless Sessions and Units agree, in both
// scopes, with the joins and with want (the DM's and the players'
// sessions), and note_sessions holds exactly what the chunks say.
func checkSessions(t *testing.T, ix *Index, step string, wantDM, wantPlayers []int) {
	t.Helper()
	ctx := context.Background()
	for _, public := range []bool{false, true} {
		want := wantDM
		if public {
			want = wantPlayers
		}
		got, err := ix.Sessions(ctx, public)
		if err != nil || !slices.Equal(got, want) || !slices.Equal(got, joinedSessions(t, ix.db, public)) {
			t.Errorf("%s: Sessions(public %v) = %v, %v; want %v", step, public, got, err, want)
		}
		n, err := ix.Units(ctx, public)
		if ref := joinedUnits(t, ix.db, public); err != nil || n != ref {
			t.Errorf("%s: Units(public %v) = %d, %v; the join counts %d", step, public, n, err, ref)
		}
	}
	var diff int
	if err := ix.db.QueryRow(`SELECT count(*) FROM (
		SELECT session, doc_id, restricted, chunks FROM note_sessions
		EXCEPT SELECT coalesce(k.session, -1), k.doc_id, d.restricted, count(*) FROM chunks k JOIN documents d ON d.id = k.doc_id GROUP BY 1, 2
		UNION ALL
		SELECT coalesce(k.session, -1), k.doc_id, d.restricted, count(*) FROM chunks k JOIN documents d ON d.id = k.doc_id GROUP BY 1, 2
		EXCEPT SELECT session, doc_id, restricted, chunks FROM note_sessions)`).Scan(&diff); err != nil || diff != 0 {
		t.Errorf("%s: note_sessions differs from the chunks in %d rows (%v)", step, diff, err)
	}
}

// TestNoteSessionsKept: the table of each note's sessions follows every
// write (a note added, edited to other sessions, deleted, made DM-only and
// public again), and a player never gets the sessions only DM-only notes
// hold.
func TestNoteSessionsKept(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	checkSessions(t, ix, "empty", nil, nil)
	if _, err := ix.ReplaceDocuments(ctx, []*store.DocumentRecord{
		sessionNote("s1.md", false, 1, 1, 2),
		sessionNote("secreto.md", true, 2, 3, 0),
		sessionNote("npc.md", false, 0, 0),
	}); err != nil {
		t.Fatal(err)
	}
	checkSessions(t, ix, "ingest", []int{1, 2, 3}, []int{1, 2})
	if err := ix.ReplaceDocument(ctx, sessionNote("s1.md", false, 4, 0)); err != nil {
		t.Fatal(err)
	}
	checkSessions(t, ix, "edit", []int{2, 3, 4}, []int{4})
	if err := ix.DeleteDocument(ctx, "/r", "npc.md"); err != nil {
		t.Fatal(err)
	}
	checkSessions(t, ix, "delete", []int{2, 3, 4}, []int{4})
	everyone := func(store.VisibilityRecord) (bool, string, string) { return false, "", "" }
	if n, err := ix.Redecide(ctx, everyone, nil); err != nil || n != 1 {
		t.Fatalf("Redecide = %d, %v; want 1 note changed", n, err)
	}
	checkSessions(t, ix, "made public", []int{2, 3, 4}, []int{2, 3, 4})
	nobody := func(store.VisibilityRecord) (bool, string, string) { return true, "folder", "x" }
	if _, err := ix.Redecide(ctx, nobody, nil); err != nil {
		t.Fatal(err)
	}
	checkSessions(t, ix, "made DM-only", []int{2, 3, 4}, nil)
	if err := ix.ReplaceDocument(ctx, sessionNote("s1.md", false, 3)); err != nil {
		t.Fatal(err)
	}
	checkSessions(t, ix, "edited public", []int{2, 3}, []int{3})
	// A move of a chunk to another session, as no writer does today.
	if _, err := ix.db.Exec(`UPDATE chunks SET session = 7 WHERE session = 3`); err != nil {
		t.Fatal(err)
	}
	checkSessions(t, ix, "chunks moved", []int{2, 7}, []int{7})
}

// TestMigrationToV15NoteSessions: a schema 14 index gets the table of
// each note's sessions filled from its chunks, kept from then on.
func TestMigrationToV15NoteSessions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v14.db")
	db := dbAtVersion(t, path, 14)
	for i, d := range []struct {
		path       string
		restricted int
		sessions   []any
	}{
		{"a.md", 0, []any{5, 5, nil}},
		{"b.md", 1, []any{6, nil}},
		{"c.md", 0, []any{nil}},
	} {
		if _, err := db.Exec(`INSERT INTO documents(id, root, path, sha256, size, title, metadata, stamp, ingested_at, restricted)
			VALUES(?, '/r', ?, 'h', 1, 't', '{}', 's', 0, ?)`, i+1, d.path, d.restricted); err != nil {
			t.Fatal(err)
		}
		for j, s := range d.sessions {
			if _, err := db.Exec(`INSERT INTO chunks(uid, doc_id, ordinal, session, headings, label, word_start, word_end, byte_start, byte_end, text, hash)
				VALUES(?, ?, ?, ?, '[]', 'l', 0, 0, 0, 0, 't', 'h')`, fmt.Sprint(d.path, j), i+1, j, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()
	ix, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	checkSessions(t, ix, "migrated", []int{5, 6}, []int{5})
	if n, err := ix.Units(ctx, true); err != nil || n != 3 {
		t.Errorf("players' units = %d, %v; want 3 (session 5, a.md's and c.md's chunks outside it)", n, err)
	}
	if err := ix.DeleteDocument(ctx, "/r", "a.md"); err != nil {
		t.Fatal(err)
	}
	checkSessions(t, ix, "migrated, then a note deleted", []int{6}, nil)
}
