package oraculo_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestWithoutAVectorCountsChunks: when the embedding server is down, the
// ingest's count of chunks without a vector is the index's, in chunks:
// two notes holding the same text are one text to embed but two chunks
// without a vector. Once the server is back, the next ingest embeds them
// and counts none.
func TestWithoutAVectorCountsChunks(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	same := "# Hoja de ruta\n\nEl convoy sale de Puertogris al alba y llega a Galerna en tres días.\n"
	write(t, filepath.Join(notes, "Viajes", "ida.md"), same)
	write(t, filepath.Join(notes, "Copias", "ida.md"), same)
	write(t, filepath.Join(notes, "NPCs", "Harbin.md"), "# Harbin\n\nTabernero de Puertogris que vende mapas falsos.\n")
	srv := newFakeOllama(t, "bge-m3")
	url := srv.URL
	srv.Close() // down for the first ingest
	eng, db := openEngine(t, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "ollama", URL: url}))
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatalf("an unreachable embedding server failed the ingest: %v", err)
	}
	ix := openIndex(t, db)
	chunks, err := ix.ListChunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	missing, err := ix.MissingVectors(ctx, rep.Embed.Model)
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 3 || missing != 3 || rep.Embed.Pending != 3 || rep.Embed.Embedded != 0 {
		t.Fatalf("%d chunks, the index counts %d without a vector, the ingest says %+v", len(chunks), missing, rep.Embed)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0].Detail, "3 chunks have no vector yet") {
		t.Errorf("warnings: %+v", rep.Warnings)
	}

	up := newFakeOllama(t, "bge-m3")
	eng2 := reopen(t, db, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "ollama", URL: up.URL}))
	rep, err = eng2.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Embed.Embedded != 2 || rep.Embed.Pending != 0 || up.embedded() != 2 {
		t.Errorf("with the server back: %+v, %d texts sent", rep.Embed, up.embedded())
	}
}
