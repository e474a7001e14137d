package index

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/internal/cpuclock"
	"github.com/oraculo/oraculo/store"
)

// note is a document of root whose chunks have the given texts, with the
// ids an ingest gives them.
func note(root, path string, texts ...string) *store.DocumentRecord {
	d := &store.DocumentRecord{Root: root, Path: path, SHA256: "h-" + path, Title: path, Stamp: "s"}
	for i, text := range texts {
		d.Chunks = append(d.Chunks, store.ChunkRecord{
			ChunkData: store.ChunkData{UID: store.ChunkUID(path, i, text), Hash: "x", Ordinal: i, Label: path, Text: text},
			Children:  []store.ChildRecord{{Ordinal: 0, Terms: "term"}},
		})
	}
	return d
}

// TestSameNoteInTwoFolders: two folders of one index holding the same
// note (the same path and text, so the same id relative to each folder)
// are both stored, the second copy under an id of its own, and each id
// reads its own copy.
func TestSameNoteInTwoFolders(t *testing.T) {
	ctx := context.Background()
	ix := testIndex(t)
	for _, root := range []string{"/a", "/b"} {
		if err := ix.ReplaceDocument(ctx, note(root, "Plantilla.md", "una plantilla")); err != nil {
			t.Fatalf("storing the copy in %s: %v", root, err)
		}
	}
	plain := store.ChunkUID("Plantilla.md", 0, "una plantilla")
	for uid, root := range map[string]string{plain: "/a", store.ChunkUIDIn("/b", plain): "/b"} {
		c, err := ix.ChunkByUID(ctx, uid)
		if err != nil || c.Root != root {
			t.Errorf("chunk %q: root %q, %v; want %q", uid, c.Root, err, root)
		}
	}
	// Written again, each copy keeps its id.
	if err := ix.ReplaceDocument(ctx, note("/b", "Plantilla.md", "una plantilla")); err != nil {
		t.Fatal(err)
	}
	if c, err := ix.ChunkByUID(ctx, store.ChunkUIDIn("/b", plain)); err != nil || c.Root != "/b" {
		t.Errorf("the second copy written again: %q, %v", c.Root, err)
	}
}

// TestMigrationToV13ChunkIDs: an index whose chunk ids hold the notes
// folder's absolute path (schema 12) is migrated to ids relative to it:
// every chunk gets the id an ingest would give it now, the old ids still
// read their chunks, and a memory entry naming a chunk by its old id
// names it by the new one.
func TestMigrationToV13ChunkIDs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v12.db")
	db := dbAtVersion(t, path, 12)
	type row struct{ root, path, text string }
	rows := []row{
		{"/home/dm/Campaña", "Sesiones/Sesión 1.md", "El grupo llega a Villaseca."},
		{"/home/dm/Campaña", "Sesiones/Sesión 2.md", "El grupo baja a la cripta."},
		{"/home/dm/Otra", "Sesiones/Sesión 1.md", "El grupo llega a Villaseca."}, // the same note in another folder
		{"/home/dm/Campaña", "Sesiones/Sesión 3.md", "El grupo vuelve."},
	}
	old := make([]string, len(rows))
	for i, r := range rows {
		old[i] = store.RootedChunkUID(r.root, r.path, 0, r.text)
		if i == 3 {
			// Its old id is the new id of the second chunk, which is
			// changed before it (a clash of 1 in 2^64, made here).
			old[i] = store.ChunkUID(rows[1].path, 0, rows[1].text)
		}
		res, err := db.Exec(`INSERT INTO documents(root, path, sha256, size, title, metadata, stamp, ingested_at) VALUES(?, ?, 'h', 1, 't', '{}', 's', 0)`, r.root, r.path)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := res.LastInsertId()
		if _, err := db.Exec(`INSERT INTO chunks(uid, doc_id, ordinal, headings, label, word_start, word_end, byte_start, byte_end, text, hash)
			VALUES(?, ?, 0, '[]', 'l', 0, 1, 0, 1, ?, 'x')`, old[i], doc, r.text); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO memory(id, scope, key, value, source, status, created, author, active) VALUES
		('m1', 'campaign', 'llegada', 'Villaseca', ?, 'verified', '2026-12-01', 'dm', 1),
		('m2', 'campaign', 'cripta', 'bajan', 'note:Sesiones/Sesión 2.md@h', 'verified', '2026-12-01', 'dm', 1)`,
		"note:Sesiones/Sesión 1.md@h#"+old[0]); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ix, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	want := []string{
		store.ChunkUID(rows[0].path, 0, rows[0].text),
		store.ChunkUID(rows[1].path, 0, rows[1].text),
		store.ChunkUIDIn(rows[2].root, store.ChunkUID(rows[2].path, 0, rows[2].text)),
		store.ChunkUID(rows[3].path, 0, rows[3].text),
	}
	for i, r := range rows {
		ids := []string{want[i], old[i]}
		if i == 3 {
			ids = ids[:1] // its old id is the second chunk's now
		}
		for _, id := range ids {
			c, err := ix.ChunkByUID(ctx, id)
			if err != nil || c.UID != want[i] || c.Root != r.root || c.Text != r.text {
				t.Errorf("chunk %q after the migration: %q in %q, %v; want %q in %q", id, c.UID, c.Root, err, want[i], r.root)
			}
		}
	}
	for id, source := range map[string]string{"m1": "note:Sesiones/Sesión 1.md@h#" + want[0], "m2": "note:Sesiones/Sesión 2.md@h"} {
		m, err := ix.Memory(ctx, id)
		if err != nil || m.Source != source {
			t.Errorf("memory %s: source %q, %v; want %q", id, m.Source, err, source)
		}
	}
	if _, err := ix.ChunkByUID(ctx, "0123456789abcdef"); !errors.Is(err, store.ErrNoChunk) {
		t.Errorf("an id that never was: %v", err)
	}
}

// BenchmarkMigrationToV13: opening a schema-12 index of 100,000 chunks of
// 4 KB (1,000 notes of 100), which gives every chunk its new id.
func BenchmarkMigrationToV13(b *testing.B) {
	ctx := context.Background()
	text := strings.Repeat("El grupo cruza el puente de Galerna y baja a la cripta. ", 80)[:4096]
	cpu := 0.0
	defer func() { b.ReportMetric(cpu/float64(b.N), "cpu-s/op") }()
	for b.Loop() {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "v12.db")
		db := dbAtVersion(b, path, 12)
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for n := range 1000 {
			res, err := tx.Exec(`INSERT INTO documents(root, path, sha256, size, title, metadata, stamp, ingested_at) VALUES('/home/dm/Campaña', ?, 'h', 1, 't', '{}', 's', 0)`, fmt.Sprintf("nota %d.md", n))
			if err != nil {
				b.Fatal(err)
			}
			doc, _ := res.LastInsertId()
			for o := range 100 {
				if _, err := tx.Exec(`INSERT INTO chunks(uid, doc_id, ordinal, headings, label, word_start, word_end, byte_start, byte_end, text, hash)
					VALUES(?, ?, ?, '[]', 'l', 0, 1, 0, 1, ?, 'x')`, fmt.Sprintf("%d-%d", n, o), doc, o, text); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		db.Close()
		cpu0 := cpuclock.Process().Seconds()
		b.StartTimer()
		ix, err := Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += cpuclock.Process().Seconds() - cpu0
		ix.Close()
		b.StartTimer()
	}
}
