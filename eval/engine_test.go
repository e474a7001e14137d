package eval_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/store"
)

func TestAblations(t *testing.T) {
	for _, tc := range []struct {
		paths []string
		want  [][]string
	}{
		{nil, nil},
		{[]string{"bm25"}, [][]string{{"bm25"}}},
		{[]string{"bm25", "dense"}, [][]string{{"bm25"}, {"dense"}, {"bm25", "dense"}}},
		{[]string{"bm25", "dense", "entity"}, [][]string{
			{"bm25"}, {"dense"}, {"entity"},
			{"bm25", "dense"}, {"bm25", "entity"}, {"dense", "entity"},
			{"bm25", "dense", "entity"},
		}},
	} {
		if got := eval.Ablations(tc.paths); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Ablations(%q) = %q, want %q", tc.paths, got, tc.want)
		}
	}
}

// openNotes ingests 30 small notes into a fresh engine, with the hashing
// embedder when dense is set.
func openNotes(t *testing.T, dense bool) *oraculo.Engine {
	t.Helper()
	ctx := context.Background()
	notes := t.TempDir()
	for i := range 30 {
		path := filepath.Join(notes, "n", "nota"+strings.Repeat("i", i+1)+".md")
		text := "# Nota\n\nLa nota habla de " + strings.Repeat("dragones ", i%5+1) + strings.Repeat("barcos ", i%7+1) + "y del número " + strings.Repeat("x", i+1) + ".\n"
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var opts []oraculo.Option
	if dense {
		opts = append(opts, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing, Dims: 64}))
	}
	eng, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "oraculo.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestEngineAdapters runs the harness on an engine through its public
// API: one configuration per ablation of the available paths, each
// reporting its stages, and an ANN check that builds a graph when search
// scans exactly.
func TestEngineAdapters(t *testing.T) {
	ctx := context.Background()
	eng := openNotes(t, true)
	configs, err := eval.Configs(ctx, eng, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(configs) < 3 || configs[0].Name != "bm25" || configs[1].Name != "dense" {
		t.Fatalf("configurations: %+v", configs)
	}
	last := configs[len(configs)-1]
	if len(configs) != 1<<len(last.Paths)-1 || last.Name != strings.Join(last.Paths, "+") {
		t.Fatalf("the last configuration %q is not every path together (%d configurations)", last.Name, len(configs))
	}
	got, stages, err := last.Search(ctx, "dragones y barcos", 5)
	if err != nil || len(got) != 5 || !strings.HasPrefix(got[0].File, "n/nota") {
		t.Fatalf("search: %v %+v", err, got)
	}
	var names []string
	for _, s := range stages {
		names = append(names, s.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "total") {
		t.Errorf("stages %q have no total", names)
	}
	// A filter that lets nothing through reaches every search.
	none, err := eval.Configs(ctx, eng, store.Filter{Folders: []string{"nowhere"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := none[0].Search(ctx, "dragones", 5); err != nil || len(got) != 0 {
		t.Errorf("filtered search: %v %+v", err, got)
	}

	check, err := eval.CheckANN(ctx, eng, []string{"dragones", "barcos en el puerto", "el número"}, 5)
	if err != nil || check == nil {
		t.Fatalf("ANN check: %+v %v", check, err)
	}
	if check.InUse || check.Vectors != 30 || check.Queries != 3 || check.K != 5 || check.Model != eng.Embedder().ID() ||
		check.Recall < 0.5 || check.Recall > 1 || !strings.HasPrefix(check.Index, "hnsw M=") {
		t.Errorf("ANN check: %+v", check)
	}

	if check, err := eval.CheckANN(ctx, openNotes(t, false), []string{"dragones"}, 5); err != nil || check != nil {
		t.Errorf("ANN check without the dense path: %+v %v", check, err)
	}
}
