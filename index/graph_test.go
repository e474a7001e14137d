package index

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"path/filepath"
	"strconv"
	"testing"
)

// TestGraphStoredInParts: a graph larger than a part is stored in parts
// and read back whole, streamed or at once; a new graph replaces every
// part of the old; deleting it leaves none.
func TestGraphStoredInParts(t *testing.T) {
	ctx := context.Background()
	ix, err := Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	graph := make([]byte, 2*GraphPart+123)
	for i := range graph {
		graph[i] = byte(i * 7)
	}
	if err := ix.SaveGraph(ctx, "m", 10, graph); err != nil {
		t.Fatal(err)
	}
	var parts int
	if err := ix.db.QueryRow(`SELECT count(*) FROM ann_graph_parts WHERE model = 'm'`).Scan(&parts); err != nil || parts != 3 {
		t.Fatalf("%d parts (%v), want 3", parts, err)
	}
	r, err := ix.GraphReader(ctx, "m")
	if err != nil || r == nil {
		t.Fatalf("reader: %v", err)
	}
	streamed, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(streamed, graph) {
		t.Fatalf("streamed %d bytes (%v), want the %d stored", len(streamed), err, len(graph))
	}
	if err := ix.SaveGraph(ctx, "m", 1, []byte("small")); err != nil {
		t.Fatal(err)
	}
	if got, err := ix.LoadGraph(ctx, "m"); err != nil || string(got) != "small" {
		t.Fatalf("after replacing: %q %v", got, err)
	}
	if err := ix.DeleteGraph(ctx, "m"); err != nil {
		t.Fatal(err)
	}
	if r, err := ix.GraphReader(ctx, "m"); err != nil || r != nil {
		t.Fatalf("after deleting: %v %v", r, err)
	}
	if got, err := ix.LoadGraph(ctx, "m"); err != nil || got != nil {
		t.Fatalf("after deleting: %d bytes, %v", len(got), err)
	}
}

// TestMigrationToV8KeepsTheGraph: a graph stored whole by v7 is readable
// after the upgrade (as one part), and the signature that would let the
// next ingest keep it is dropped, so that ingest stores it in parts.
func TestMigrationToV8KeepsTheGraph(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v7.db")
	db := dbAtVersion(t, path, 7)
	if _, err := db.Exec(`INSERT INTO ann_graphs(model, vectors, graph, built_at) VALUES('m', 3, x'0102030405', 0);
		INSERT INTO meta(key, value) VALUES('graph_ids/m', '3:abc'), ('graph_idsXm', 'kept')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ix, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got, err := ix.LoadGraph(ctx, "m"); err != nil || !bytes.Equal(got, []byte{1, 2, 3, 4, 5}) {
		t.Fatalf("the graph after the upgrade: %v %v", got, err)
	}
	if v, _ := ix.Meta(ctx, "graph_ids/m"); v != "" {
		t.Errorf("the graph's signature survived the upgrade: %q", v)
	}
	if v, _ := ix.Meta(ctx, "graph_idsXm"); v != "kept" {
		t.Errorf("another key was dropped: %q", v)
	}
}

// dbAtVersion makes an index file at path with the schema of version v,
// as an older program left it, and returns it open (raw SQL).
func dbAtVersion(t testing.TB, path string, v int) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range migrations[:v] {
		if _, err := db.Exec(m); err != nil {
			t.Fatalf("migration %d: %v", i+1, err)
		}
	}
	if _, err := db.Exec(`PRAGMA user_version = ` + strconv.Itoa(v)); err != nil {
		t.Fatal(err)
	}
	return db
}
