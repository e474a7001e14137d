package storetest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// later are the notes of the engine scenario: the first ingest's, then
// one added, then one edited, by path; each new text has words no other
// note has, for the dense path to find it by.
var later = struct {
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

// laterNotes ingests a few notes through the engine with the hashing
// embedder, then adds a note, rewrites it, edits another and removes a
// fourth, ingesting after each, with the dense path scanning the vectors
// and walking the graph ingest stores (a store that searches its vectors
// itself does so in both). After every ingest: each chunk has a vector
// (read back with the vectors themselves), the ingest's count of chunks
// without a vector is the store's, the dense path alone finds the note
// added or edited by its new words, the stats count one vector per
// distinct text the chunks hold now, and the chunks' version moved with
// every ingest that wrote chunks and only then.
func laterNotes(t *testing.T, open Open) {
	for _, variant := range []struct {
		name string
		opts []oraculo.Option
	}{
		{"vectors scanned", nil},
		{"graph walked", []oraculo.Option{oraculo.WithANNThreshold(1)}},
	} {
		t.Run(variant.name, func(t *testing.T) {
			ctx := context.Background()
			st := open(t)
			opts := append([]oraculo.Option{oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing})}, variant.opts...)
			eng, err := oraculo.OpenStore(ctx, st, opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			laterSteps(t, eng, st)
		})
	}
}

// laterSteps runs laterNotes' ingests on one engine over st.
func laterSteps(t *testing.T, eng *oraculo.Engine, st store.Store) {
	ctx := context.Background()
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
	for path, text := range later.first {
		write(path, text)
	}
	ingestChecked(t, eng, st, dir, "first ingest", "", "")
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

	write(later.added[0], later.added[1])
	ingestChecked(t, eng, st, dir, "a note added", later.added[0], "grifo de obsidiana biblioteca sumergida de Velmora")
	changed("a note added")

	write(later.rewritten[0], later.rewritten[1])
	ingestChecked(t, eng, st, dir, "the newest note rewritten", later.rewritten[0], "capitán Mordekai mapas falsos desierto de Azufre peregrinos")
	changed("the newest note rewritten")

	write(later.edited[0], later.edited[1])
	ingestChecked(t, eng, st, dir, "a note edited", later.edited[0], "Ondrel archimago redes de niebla violeta pantano de Qarth")
	changed("a note edited")

	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(later.gone))); err != nil {
		t.Fatal(err)
	}
	ingestChecked(t, eng, st, dir, "a note removed", "", "")
	changed("a note removed")
}

// ingestChecked ingests dir and checks what laterNotes says of the
// vectors; when path is set, the dense path alone must find that note
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
	chunks, err := st.ListChunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	without, texts := vectorsHeld(t, st, rep, step, chunks)
	if path != "" && !slices.ContainsFunc(chunks, func(c store.Chunk) bool { return c.Path == path }) {
		t.Fatalf("%s: no chunk of %q is stored", step, path)
	}
	stats, err := eng.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := stats.Vectors[rep.Embed.Model]; got != texts {
		t.Errorf("%s: stats count %d vectors of %q; the %d chunks hold %d distinct texts", step, got, rep.Embed.Model, len(chunks), texts)
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

// vectorsHeld checks that every chunk has a vector and that the ingest,
// LoadVectors and MissingVectors count the same chunks without one; it
// returns that count and how many distinct texts the chunks embed.
func vectorsHeld(t *testing.T, st store.Store, rep *oraculo.IngestReport, step string, chunks []store.Chunk) (without, texts int) {
	t.Helper()
	ctx := context.Background()
	model := rep.Embed.Model
	vs, missing, err := st.LoadVectors(ctx, model)
	if err != nil {
		t.Fatal(err)
	}
	held := map[int64]bool{}
	for _, id := range vs.IDs {
		held[id] = true
	}
	distinct := map[string]bool{}
	for _, c := range chunks {
		distinct[store.EmbedText(c.Headings, c.Text)] = true
		if !held[c.ID] {
			without++
			t.Errorf("%s: chunk %s of %q has no vector", step, c.Label, c.Path)
		}
	}
	if rep.Embed.Pending != without || missing != without {
		t.Errorf("%s: the ingest says %d chunks are without a vector, LoadVectors %d; %d are", step, rep.Embed.Pending, missing, without)
	}
	if n, err := st.MissingVectors(ctx, model); err != nil || n != without {
		t.Errorf("%s: MissingVectors says %d (%v); %d chunks are without a vector", step, n, err, without)
	}
	return without, len(distinct)
}
