package oraculo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/retrieve"
)

// fakeOllama is an httptest server speaking Ollama's /api/embed, answering
// with deterministic vectors (the hashing embedder's, so that similar texts
// are near) and counting what it was asked. failAfter > 0 makes every
// request after that many answer 500.
type fakeOllama struct {
	*httptest.Server
	mu        sync.Mutex
	texts     []string
	requests  atomic.Int32
	failAfter int32
	model     string
}

func newFakeOllama(t *testing.T, model string) *fakeOllama {
	f := &fakeOllama{model: model}
	h := embed.NewHashing(64)
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := f.requests.Add(1)
		if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		if req.Model != f.model {
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]string{"error": "model \"" + req.Model + "\" not found, try pulling it first"})
			return
		}
		if f.failAfter > 0 && n > f.failAfter {
			w.WriteHeader(http.StatusInternalServerError)
			json.NewEncoder(w).Encode(map[string]string{"error": "out of memory"})
			return
		}
		vecs, err := h.Embed(r.Context(), embed.Passage, req.Input)
		if err != nil {
			http.Error(w, `{"error":"`+err.Error()+`"}`, http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.texts = append(f.texts, req.Input...)
		f.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": vecs})
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeOllama) embedded() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.texts)
}

func denseNotes(t *testing.T) string {
	notes := t.TempDir()
	write(t, filepath.Join(notes, "Sesiones", "Diario.md"), `# Diario

## Sesión 1 — El puente

Norkiel cayó en combate en el puente de Galerna, atravesado por una lanza.

## Sesión 2 — La cripta

Encontramos el mapa del archiduque en la cripta, bajo una losa suelta.
`)
	write(t, filepath.Join(notes, "NPCs", "Harbin.md"), "# Harbin\n\nTabernero de Puertogris que vende mapas falsos.\n")
	return notes
}

// TestDenseWithOllamaFake: ingest embeds every chunk once, a second run
// embeds nothing, an edit embeds only the changed chunk, searches use the
// dense path alone and fused, and another model never mixes vectors.
func TestDenseWithOllamaFake(t *testing.T) {
	ctx := context.Background()
	notes := denseNotes(t)
	srv := newFakeOllama(t, "bge-m3")
	eng, db := openEngine(t, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "ollama", URL: srv.URL}))
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Embed == nil || rep.Embed.Embedded != rep.Stats.Chunks || rep.Embed.Pending != 0 || rep.Embed.Model != "ollama/bge-m3" {
		t.Fatalf("embed report %+v for %d chunks", rep.Embed, rep.Stats.Chunks)
	}
	// What is embedded: the heading path, then the text.
	found := false
	for _, text := range srv.texts {
		found = found || strings.HasPrefix(text, "Diario › Sesión 1 — El puente\n\n# Diario\n\n## Sesión 1")
	}
	if !found {
		t.Errorf("no embedded text starts with the heading path: %q", srv.texts)
	}
	before := srv.embedded()
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if srv.embedded() != before {
		t.Fatalf("an unchanged re-run embedded %d texts", srv.embedded()-before)
	}
	write(t, filepath.Join(notes, "NPCs", "Harbin.md"), "# Harbin\n\nTabernero de Puertogris; ahora vende espadas.\n")
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := srv.embedded() - before; got != 1 {
		t.Fatalf("editing one note embedded %d texts, want 1", got)
	}

	hits, err := eng.Search(ctx, "lanza en el puente", oraculo.SearchOptions{K: 3, Paths: []string{"dense"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Label != "Sesión 1" || hits[0].Paths["dense"] != 1 || len(hits[0].Paths) != 1 {
		t.Fatalf("dense alone: %+v", hits)
	}
	hits, err = eng.Search(ctx, "lanza en el puente", oraculo.SearchOptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Label != "Sesión 1" || hits[0].Paths["dense"] == 0 || hits[0].Paths["bm25"] == 0 {
		t.Fatalf("default search does not fuse both paths: %+v", hits)
	}
	// Every subset of the three paths (the notes name entities), all last.
	st, err := eng.Stats(ctx)
	if err != nil || st.Retrieval.DenseModel != "ollama/bge-m3" || st.Retrieval.DenseVectors != st.Chunks || st.Retrieval.Graph {
		t.Fatalf("stats of the dense path: %+v %v", st.Retrieval, err)
	}
	abl := eval.Ablations(st.Retrieval.Paths)
	if len(abl) != 7 || strings.Join(abl[3], "+") != "bm25+dense" || strings.Join(abl[6], "+") != "bm25+dense+entity" {
		t.Fatalf("ablations: %v %v", abl, err)
	}

	// The stored config is used by a new process; another model re-embeds
	// everything and never mixes with the first model's vectors.
	eng2 := reopen(t, db, oraculo.WithEmbedder(oraculo.EmbedderConfig{}))
	if em := eng2.Embedder(); em == nil || em.ID() != "ollama/bge-m3" {
		t.Fatalf("stored embedder not restored: %v", em)
	}
	srv.model = "nomic-embed-text"
	eng2 = reopen(t, db, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "ollama", URL: srv.URL, Model: "nomic-embed-text"}))
	if _, err := eng2.Search(ctx, "puente", oraculo.SearchOptions{Paths: []string{"dense"}}); !errors.Is(err, retrieve.ErrPathUnavailable) {
		t.Fatalf("dense with a model that has no vectors: %v", err)
	}
	before = srv.embedded()
	rep, err = eng2.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if srv.embedded()-before != rep.Stats.Chunks || rep.Embed.Model != "ollama/nomic-embed-text" {
		t.Fatalf("new model embedded %d of %d chunks: %+v", srv.embedded()-before, rep.Stats.Chunks, rep.Embed)
	}
	// nomic wants "search_document: " before passages.
	if last := srv.texts[len(srv.texts)-1]; !strings.HasPrefix(last, "search_document: ") {
		t.Errorf("nomic passage without its prefix: %q", last[:30])
	}
}

// TestEmbeddingServerFailures: a server that dies part-way leaves a
// warning, keyword search works, and the next run embeds only the rest; an
// unreachable server at search time is a warning and BM25 still answers.
func TestEmbeddingServerFailures(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	for i := range 40 {
		write(t, filepath.Join(notes, "n", string(rune('a'+i%26))+strings.Repeat("x", i/26)+".md"),
			"# Nota\n\nTexto de la nota número "+strings.Repeat("palabra ", i+1)+"con Norkiel.\n")
	}
	srv := newFakeOllama(t, "bge-m3")
	srv.failAfter = 1 // one batch (of 32 or of 8) goes through, then 500s
	var warnings []string
	eng, _ := openEngine(t, oraculo.WithWarnings(func(s string) { warnings = append(warnings, s) }),
		oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "ollama", URL: srv.URL}))
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatalf("a failing embedding server failed the ingest: %v", err)
	}
	e := rep.Embed
	if e.Embedded+e.Pending != 40 || (e.Embedded != 32 && e.Embedded != 8) || e.Error == "" || len(rep.Warnings) != 1 {
		t.Fatalf("partial embedding: %+v, warnings %+v", rep.Embed, rep.Warnings)
	}
	if hits, err := eng.Search(ctx, "Norkiel", oraculo.SearchOptions{K: 3, Paths: []string{"bm25"}}); err != nil || len(hits) != 3 {
		t.Fatalf("bm25 after a failed embedding: %v %v", hits, err)
	}
	srv.failAfter = 0
	before, left := srv.embedded(), e.Pending
	rep, err = eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil || rep.Embed.Embedded != left || srv.embedded()-before != left || rep.Embed.Pending != 0 {
		t.Fatalf("resume: %v %+v, %d sent", err, rep.Embed, srv.embedded()-before)
	}

	srv.Close() // the server goes away
	hits, err := eng.Search(ctx, "Norkiel", oraculo.SearchOptions{K: 3})
	if err != nil || len(hits) != 3 || hits[0].Paths["bm25"] == 0 {
		t.Fatalf("search with the embedding server down: %v %+v", err, hits)
	}
	if len(warnings) == 0 || !strings.Contains(warnings[len(warnings)-1], "searching without it") {
		t.Fatalf("no warning about the unreachable server: %q", warnings)
	}
	if _, err := eng.Search(ctx, "Norkiel", oraculo.SearchOptions{Paths: []string{"dense"}}); !errors.Is(err, embed.ErrUnreachable) {
		t.Fatalf("dense alone with the server down: %v", err)
	}
}

// TestVectorGraphIsBuiltAtIngestAndLoaded: above the threshold, ingest
// stores an HNSW graph that a new process loads instead of rebuilding; an
// edit rebuilds it; a graph that no longer matches the vectors is not used.
func TestVectorGraphIsBuiltAtIngestAndLoaded(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	for i := range 30 {
		write(t, filepath.Join(notes, "n", "nota"+strings.Repeat("i", i+1)+".md"),
			"# Nota\n\nLa nota habla de "+strings.Repeat("dragones ", i%5+1)+strings.Repeat("barcos ", i%7+1)+"y del número "+strings.Repeat("x", i+1)+".\n")
	}
	eng, db := openEngine(t, oraculo.WithANNThreshold(10), oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "hashing", Dims: 64}))
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	model := eng.Embedder().ID()
	if !strings.HasPrefix(model, "hashing/v2.1-es-") || !strings.HasSuffix(model, "-64") {
		t.Fatalf("embedder %q, want the analysed hashing embedder (v2) of 64 dims", model)
	}
	ix := openIndex(t, db)
	graph, err := ix.LoadGraph(ctx, model)
	if err != nil || graph == nil {
		t.Fatalf("no graph stored: %v", err)
	}
	var warnings []string
	warn := oraculo.WithWarnings(func(s string) { warnings = append(warnings, s) })
	eng2 := reopen(t, db, oraculo.WithANNThreshold(10), warn, oraculo.WithEmbedder(oraculo.EmbedderConfig{}))
	hits, err := eng2.Search(ctx, "dragones y barcos", oraculo.SearchOptions{K: 5, Paths: []string{"dense"}})
	if err != nil || len(hits) != 5 || len(warnings) != 0 {
		t.Fatalf("search with the stored graph: %v, %d hits, warnings %q", err, len(hits), warnings)
	}
	check, err := eval.CheckANN(ctx, eng2, []string{"dragones", "barcos en el puerto", "el número"}, 5)
	if err != nil || check == nil || !check.InUse || check.Vectors != 30 || check.Recall < 0.5 {
		t.Fatalf("ANN check: %+v %v", check, err)
	}
	// The graph is mapped from its file beside the index; where that file
	// cannot be written, it is read into memory, with a warning, and
	// finds the same.
	if files, err := filepath.Glob(filepath.Join(ix.GraphDir(), "*.hnsw")); err != nil || len(files) != 1 {
		t.Fatalf("graph files: %v %v", files, err)
	}
	if err := os.RemoveAll(ix.GraphDir()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ix.GraphDir(), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	eng2b := reopen(t, db, oraculo.WithANNThreshold(10), warn, oraculo.WithEmbedder(oraculo.EmbedderConfig{}))
	hits2, err := eng2b.Search(ctx, "dragones y barcos", oraculo.SearchOptions{K: 5, Paths: []string{"dense"}})
	if err != nil || fmt.Sprint(hitIDs(hits2)) != fmt.Sprint(hitIDs(hits)) {
		t.Fatalf("search with the graph read into memory: %v, %v, want %v", err, hitIDs(hits2), hitIDs(hits))
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "into memory") {
		t.Fatalf("warnings: %q", warnings)
	}
	warnings = nil
	os.Remove(ix.GraphDir())

	// Another note: ingest rebuilds the graph with it.
	write(t, filepath.Join(notes, "n", "nueva.md"), "# Nueva\n\nUna nota nueva sobre krakens.\n")
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	graph2, _ := ix.LoadGraph(ctx, model)
	if len(graph2) == len(graph) {
		t.Fatal("the graph was not rebuilt after a change")
	}
	// A stale graph (the old one, missing the new note) is not used.
	if err := ix.SaveGraph(ctx, model, 30, graph); err != nil {
		t.Fatal(err)
	}
	warnings = nil
	eng3 := reopen(t, db, oraculo.WithANNThreshold(10), warn, oraculo.WithEmbedder(oraculo.EmbedderConfig{}))
	hits, err = eng3.Search(ctx, "krakens", oraculo.SearchOptions{K: 1, Paths: []string{"dense"}})
	if err != nil || len(hits) != 1 || hits[0].File != "n/nueva.md" {
		t.Fatalf("exact fallback: %v %+v", err, hits)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "out of date") {
		t.Fatalf("warnings: %q", warnings)
	}
}

// TestSearchVectors: below the graph's threshold search scans every
// vector, as VectorsExact does; VectorsApprox walks a graph built for it,
// which finds most of the same neighbours; an unknown mode is an error.
func TestSearchVectors(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	for i := range 30 {
		write(t, filepath.Join(notes, "n", "nota"+strings.Repeat("i", i+1)+".md"),
			"# Nota\n\nLa nota habla de "+strings.Repeat("dragones ", i%5+1)+strings.Repeat("barcos ", i%7+1)+"y del número "+strings.Repeat("x", i+1)+".\n")
	}
	eng, _ := openEngine(t, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "hashing", Dims: 64}))
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	ids := func(mode oraculo.VectorSearch) []string {
		t.Helper()
		hits, err := eng.Search(ctx, "dragones y barcos", oraculo.SearchOptions{K: 10, Paths: []string{"dense"}, Vectors: mode})
		if err != nil {
			t.Fatalf("mode %d: %v", mode, err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, h.ID)
		}
		return out
	}
	auto, exact := ids(oraculo.VectorsAuto), ids(oraculo.VectorsExact)
	if len(auto) != 10 || strings.Join(auto, " ") != strings.Join(exact, " ") {
		t.Fatalf("auto %q, exact %q", auto, exact)
	}
	approx := ids(oraculo.VectorsApprox)
	in := map[string]bool{}
	for _, id := range approx {
		in[id] = true
	}
	found := 0
	for _, id := range exact {
		if in[id] {
			found++
		}
	}
	if len(approx) != 10 || found < 5 {
		t.Fatalf("approximate search found %d of the exact top 10: %q", found, approx)
	}
	if _, err := eng.Search(ctx, "dragones", oraculo.SearchOptions{Vectors: 9}); err == nil {
		t.Error("an unknown vector search mode was accepted")
	}
}

func hitIDs(hits []oraculo.Hit) []string {
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}
