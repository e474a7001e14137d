package weaviate_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// laterNotes are the notes of TestEngineLaterNotes: the first ingest's,
// then one added, then one edited, by path; each new text has words no
// other note has, for the dense path to find it by.
var laterNotes = struct {
	first                    map[string]string
	added, edited, rewritten [2]string
	gone                     string
}{
	first: map[string]string{
		"Sesiones/Sesión 1.md": "# Sesión 1\n\nLos aventureros llegan a Puerto Ceniza y alquilan una barca para cruzar el lago.\n\nEl barquero les habla de una torre hundida.\n",
		"Sesiones/Sesión 2.md": "# Sesión 2\n\nEn la torre hundida encuentran un altar cubierto de algas y una llave de hierro.\n",
		"NPCs/Barquero.md":     "# Barquero\n\nUn anciano que cobra en monedas de cobre y nunca da su nombre.\n",
	},
	added: [2]string{"Sesiones/Sesión 3.md",
		"# Sesión 3\n\nUn grifo de obsidiana custodia la biblioteca sumergida de Velmora; sus plumas tintinean como campanas.\n"},
	edited: [2]string{"NPCs/Barquero.md",
		"# Barquero\n\nResulta ser Ondrel, archimago exiliado, que teje redes de niebla violeta sobre el pantano de Qarth.\n"},
	// The note added last, rewritten with as many chunks: SQLite gives
	// its new chunk the id its old one had.
	rewritten: [2]string{"Sesiones/Sesión 3.md",
		"# Sesión 3\n\nEl capitán Mordekai vende mapas falsos del desierto de Azufre a los peregrinos.\n"},
	gone: "Sesiones/Sesión 2.md",
}

// TestEngineLaterNotes ingests a few notes with the hashing embedder, then
// adds a note, edits another, rewrites the one added and removes a
// fourth, ingesting after each, on SQLite (its vectors scanned, or its
// graph walked) and on a Weaviate node. After every ingest: each chunk has a
// vector (read back with the vectors themselves), the ingest's count of
// chunks without a vector is the store's, the dense path alone finds the
// note added or edited by its new words, and the stats count one vector
// per distinct text the chunks hold now (the replaced or removed chunks'
// vectors are gone). On Weaviate the embedding stage used to be skipped
// by a setting only SQLite kept: a later note never got a vector.
func TestEngineLaterNotes(t *testing.T) {
	hashing := oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing})
	for _, backend := range []string{"sqlite", "sqlite-graph", "weaviate"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			var st store.Store
			opts := []oraculo.Option{hashing}
			if backend == "sqlite-graph" {
				// The dense path walks the graph ingest stores.
				opts = append(opts, oraculo.WithANNThreshold(1))
			}
			if backend == "weaviate" {
				c := weaviatetest.Start(t, 1)
				st = open(t, c.Nodes[0], "later")
			} else {
				ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "index.db"))
				if err != nil {
					t.Fatal(err)
				}
				st = ix
			}
			eng, err := oraculo.OpenStore(ctx, st, opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			dir := t.TempDir()
			write := func(path, text string) {
				t.Helper()
				p := filepath.Join(dir, filepath.FromSlash(path))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for path, text := range laterNotes.first {
				write(path, text)
			}
			ingestChecked(t, eng, st, dir, "first ingest", "", "")
			// The chunks' version: the same after an ingest that changed
			// nothing, another after each that wrote or removed chunks.
			version := func() string {
				t.Helper()
				v, err := st.ChunksVersion(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			v := version()
			if rep := ingestChecked(t, eng, st, dir, "nothing changed", "", ""); rep.Embed.Embedded != 0 || version() != v {
				t.Errorf("an ingest of unchanged notes embedded %d texts, and the chunks' version went from %q to %q", rep.Embed.Embedded, v, version())
			}
			changed := func(step string) {
				t.Helper()
				if now := version(); now == v {
					t.Errorf("%s: the chunks' version stayed %q", step, v)
				} else {
					v = now
				}
			}

			write(laterNotes.added[0], laterNotes.added[1])
			ingestChecked(t, eng, st, dir, "a note added", laterNotes.added[0], "grifo de obsidiana biblioteca sumergida de Velmora")
			changed("a note added")

			write(laterNotes.rewritten[0], laterNotes.rewritten[1])
			ingestChecked(t, eng, st, dir, "the newest note rewritten", laterNotes.rewritten[0], "capitán Mordekai mapas falsos desierto de Azufre peregrinos")
			changed("the newest note rewritten")

			write(laterNotes.edited[0], laterNotes.edited[1])
			ingestChecked(t, eng, st, dir, "a note edited", laterNotes.edited[0], "Ondrel archimago redes de niebla violeta pantano de Qarth")
			changed("a note edited")

			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(laterNotes.gone))); err != nil {
				t.Fatal(err)
			}
			ingestChecked(t, eng, st, dir, "a note removed", "", "")
			changed("a note removed")
		})
	}
}

// ingestChecked ingests dir and checks what TestEngineLaterNotes says of
// the vectors; when path is set, the dense path alone must find that note
// first for question.
func ingestChecked(t *testing.T, eng *oraculo.Engine, st store.Store, dir, step, path, question string) *oraculo.IngestReport {
	t.Helper()
	ctx := context.Background()
	rep, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if rep.Embed == nil {
		t.Fatalf("%s: the ingest ran no embedding stage", step)
	}
	model := rep.Embed.Model
	chunks, err := st.ListChunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	vs, missing, err := st.LoadVectors(ctx, model)
	if err != nil {
		t.Fatal(err)
	}
	held := map[int64]bool{}
	for _, id := range vs.IDs {
		held[id] = true
	}
	texts := map[string]bool{}
	without := 0
	for _, c := range chunks {
		texts[store.EmbedText(c.Headings, c.Text)] = true
		if !held[c.ID] {
			without++
			t.Errorf("%s: chunk %s of %q has no vector", step, c.Label, c.Path)
		}
	}
	if path != "" && !slices.ContainsFunc(chunks, func(c store.Chunk) bool { return c.Path == path }) {
		t.Fatalf("%s: no chunk of %q is stored", step, path)
	}
	if rep.Embed.Pending != without || missing != without {
		t.Errorf("%s: the ingest says %d chunks are without a vector, LoadVectors %d; %d are", step, rep.Embed.Pending, missing, without)
	}
	if n, err := st.MissingVectors(ctx, model); err != nil || n != without {
		t.Errorf("%s: MissingVectors says %d (%v); %d chunks are without a vector", step, n, err, without)
	}
	stats, err := eng.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := stats.Vectors[model]; got != len(texts) {
		t.Errorf("%s: stats count %d vectors of %q; the %d chunks hold %d distinct texts", step, got, model, len(chunks), len(texts))
	}
	if stats.Retrieval.DenseVectors != len(chunks)-without {
		t.Errorf("%s: stats say the dense path searches %d vectors; %d chunks have one", step, stats.Retrieval.DenseVectors, len(chunks)-without)
	}
	if path == "" {
		return rep
	}
	if rep.Embed.Embedded == 0 {
		t.Errorf("%s: the ingest embedded nothing", step)
	}
	hits, err := eng.Search(ctx, question, oraculo.SearchOptions{K: 3, Paths: []string{retrieve.PathDense}, NoAnalysis: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].File != path {
		var got []string
		for _, h := range hits {
			got = append(got, h.File)
		}
		t.Errorf("%s: the dense path's hits for %q are %q, want %q first", step, question, got, path)
	}
	return rep
}
