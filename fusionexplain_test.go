package oraculo_test

import (
	"context"
	"math"
	"testing"

	"github.com/oraculo/oraculo"
)

// checkExplained fails unless each hit's fusion explanation adds up to
// its score, and the narrative prior is reported on exactly the hits
// whose score it multiplied.
func checkExplained(t *testing.T, hits []oraculo.Hit) {
	t.Helper()
	for _, h := range hits {
		f := h.Fusion
		want := f.Total()
		if f.Boost > 0 {
			want *= f.Boost
		}
		if f.ReorderedBy != "" {
			want = f.Share + f.Lift
		}
		if math.Abs(want-h.Score) > 1e-9 {
			t.Errorf("#%d %s: the explanation %+v makes %v, the score is %v", h.Rank, h.Label, f, want, h.Score)
		}
		if h.Prior != f.Boost {
			t.Errorf("#%d %s: prior %v, but the fusion boosted it by %v", h.Rank, h.Label, h.Prior, f.Boost)
		}
		for _, p := range f.Parts {
			if h.Paths[p.Path] != p.Rank {
				t.Errorf("#%d %s: part %+v, ranks %v", h.Rank, h.Label, p, h.Paths)
			}
		}
	}
}

// The fusion explains each hit: with the entity path reordering BM25's
// candidates for a first-person-plural question, a session chunk only
// the entity path found gets no prior (the prior multiplied the base's
// scores, not its lift; the hit said "prior 1.5" before issue 28).
func TestFusionExplainsEntityReorder(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	hits, err := eng.Search(ctx, "¿Cuánto dinero nos adelantó el archiduque Leoric en la audiencia?", oraculo.SearchOptions{K: 50})
	if err != nil {
		t.Fatal(err)
	}
	checkExplained(t, hits)
	var boosted, entityOnly bool
	for _, h := range hits {
		boosted = boosted || h.Prior > 0
		if h.Session != nil && len(h.Fusion.Parts) == 0 {
			entityOnly = true
			if h.Prior != 0 {
				t.Errorf("#%d %s: only the entity path found it, yet prior %v", h.Rank, h.Label, h.Prior)
			}
		}
	}
	if !boosted || !entityOnly {
		t.Fatalf("the case is gone: boosted %v, a session chunk only the entity path found %v", boosted, entityOnly)
	}
}

// Fused by rank (BM25 and the dense path), each hit's parts are
// 1/(60 + rank) in each path that found it.
func TestFusionExplainsRRF(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "hashing", Dims: 64}))
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	hits, err := eng.Search(ctx, "¿Qué ocurrió en el puerto durante la tormenta?", oraculo.SearchOptions{K: 20, Paths: []string{"bm25", "dense"}})
	if err != nil {
		t.Fatal(err)
	}
	checkExplained(t, hits)
	both := 0
	for _, h := range hits {
		for _, p := range h.Fusion.Parts {
			if p.K != 60 || math.Abs(p.Score-1/float64(60+p.Rank)) > 1e-12 {
				t.Errorf("#%d %s: part %+v", h.Rank, h.Label, p)
			}
		}
		if len(h.Fusion.Parts) == 2 {
			both++
		}
	}
	if both == 0 {
		t.Fatal("no hit found by both paths")
	}
}
