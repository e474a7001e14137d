package weaviate_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/store"
)

// TestChunkIDsOnWeaviate: on a real node, a vault ingested, moved and
// ingested again keeps every public chunk id; a chunk written as the
// program before ids relative to the notes folder wrote it (its public id
// the folder's: store.RootedChunkUID) answers to that id, and still does
// once its note is written again under the new id.
func TestChunkIDsOnWeaviate(t *testing.T) {
	t.Parallel() // its own node (see "Parallel tests" in contract_test.go)
	c := weaviatetest.Start(t, 1)
	ctx := context.Background()
	sample, err := filepath.Abs("../../examples/campaign")
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(t.TempDir(), "campaña")
	if err := os.CopyFS(a, os.DirFS(sample)); err != nil {
		t.Fatal(err)
	}
	ids := func(tenant, dir string) map[string]string {
		t.Helper()
		eng, err := oraculo.OpenStore(ctx, open(t, c.Nodes[0], tenant))
		if err != nil {
			t.Fatal(err)
		}
		defer eng.Close()
		if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
		chunks, err := eng.Chunks(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		n := map[string]int{}
		for _, ch := range chunks {
			out[ch.File+"#"+strconv.Itoa(n[ch.File])] = ch.ID
			n[ch.File]++
		}
		return out
	}
	before := ids("idsa", a)
	b := filepath.Join(t.TempDir(), "la campaña movida")
	if err := os.Rename(a, b); err != nil {
		t.Fatal(err)
	}
	if after := ids("idsb", b); len(before) < 10 || !maps.Equal(before, after) {
		t.Errorf("the moved vault has other ids:\nbefore %v\nafter  %v", before, after)
	}

	wv := open(t, c.Nodes[0], "idsold")
	text := "Tabernero de Puertogris, vende mapas falsos del archiduque."
	d := &store.DocumentRecord{Root: "/home/dm/Campaña", Path: "NPCs/Harbin.md", SHA256: "a", Title: "Harbin", Stamp: "s1"}
	old := store.RootedChunkUID(d.Root, d.Path, 0, text)
	d.Chunks = []store.ChunkRecord{{ChunkData: store.ChunkData{UID: old, Text: text, Headings: []string{"Harbin"}}}}
	if err := wv.ReplaceDocument(ctx, d); err != nil {
		t.Fatal(err)
	}
	if ch, err := wv.ChunkByUID(ctx, old); err != nil || ch.Text != text {
		t.Fatalf("the chunk by the id it was written with: %+v, %v", ch, err)
	}
	relative := store.ChunkUID(d.Path, 0, text)
	d.Stamp, d.Chunks[0].UID = "s2", relative
	if err := wv.ReplaceDocument(ctx, d); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{relative, old} {
		if ch, err := wv.ChunkByUID(ctx, id); err != nil || ch.Text != text || ch.UID != relative {
			t.Errorf("the note written again, chunk %q: %q %q, %v", id, ch.UID, ch.Text, err)
		}
	}
	if _, err := wv.ChunkByUID(ctx, "0123456789abcdef"); !errors.Is(err, store.ErrNoChunk) {
		t.Errorf("an id that never was: %v", err)
	}
}
