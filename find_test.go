package oraculo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestFindIsSearch: Find returns the hits Search does, with what Search
// writes to its options' Analysis and Trace (the fallback to every note
// included), and writes neither itself.
func TestFindIsSearch(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"¿Qué pasó en la sesión 12?", "What about Garrik in session two?"} {
		var an oraculo.QueryAnalysis
		var tr oraculo.Trace
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 5, Paths: []string{"bm25"}, Analysis: &an, Trace: &tr})
		if err != nil {
			t.Fatal(err)
		}
		var unused oraculo.QueryAnalysis
		r, err := eng.Find(ctx, q, oraculo.SearchOptions{K: 5, Paths: []string{"bm25"}, Analysis: &unused})
		if err != nil {
			t.Fatal(err)
		}
		same := func(a, b oraculo.Hit) bool { return a.ID == b.ID && a.Score == b.Score }
		if !slices.EqualFunc(r.Hits, hits, same) || r.Analysis.Kind != an.Kind || r.Analysis.Said != an.Said || r.Analysis.Unfiltered != an.Unfiltered {
			t.Errorf("%q: Find %d hits, analysis %+v; Search %d, %+v", q, len(r.Hits), r.Analysis, len(hits), an)
		}
		if unused.Kind != "" {
			t.Errorf("%q: Find wrote opts.Analysis", q)
		}
		stages := func(tr oraculo.Trace) []string {
			var out []string
			for _, s := range tr.Stages {
				out = append(out, s.Stage)
			}
			return out
		}
		if got, want := stages(r.Trace), stages(tr); !slices.Equal(got, want) || want[len(want)-1] != "total" {
			t.Errorf("%q: Find's stages %v, Search's %v", q, got, want)
		}
	}
}
