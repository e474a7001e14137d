package oraculo_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// TestWithoutGraphRole: over a store that keeps no vector graph (no
// [store.GraphStore]), an ingest above the graph's threshold stores none
// and the dense path scans the vectors, finding a note by its words; the
// same index with the role gets its graph.
func TestWithoutGraphRole(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	notes := map[string]string{
		"grifo.md":    "# Grifo\n\nUn grifo de obsidiana custodia la biblioteca sumergida de Velmora.\n",
		"barquero.md": "# Barquero\n\nUn anciano que cobra en monedas de cobre y nunca da su nombre.\n",
		"torre.md":    "# Torre\n\nEn la torre hundida encuentran un altar cubierto de algas.\n",
	}
	for name, text := range notes {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, keeps := range []bool{false, true} {
		ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "index.db"))
		if err != nil {
			t.Fatal(err)
		}
		var st store.Store = ix
		if !keeps {
			st = struct{ store.Store }{ix} // the roles of store.Store alone
		}
		eng, err := oraculo.OpenStore(ctx, st, oraculo.WithANNThreshold(1),
			oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing}))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		graph, err := ix.LoadGraph(ctx, rep.Embed.Model)
		if err != nil || (graph != nil) != keeps {
			t.Errorf("with the graph role %v: a stored graph of %d bytes (%v)", keeps, len(graph), err)
		}
		hits, err := eng.Search(ctx, "grifo de obsidiana biblioteca sumergida", oraculo.SearchOptions{K: 3, Paths: []string{retrieve.PathDense}, NoAnalysis: true})
		if err != nil || len(hits) == 0 || hits[0].File != "grifo.md" {
			t.Errorf("with the graph role %v: the dense path finds %+v, %v; want grifo.md first", keeps, hits, err)
		}
		eng.Close()
	}
}
