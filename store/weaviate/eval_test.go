package weaviate_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// evalSet is a golden set with the notes it is asked of, as the root
// package's TestRankStats has them.
type evalSet struct {
	name, notes, golden string
	opts                oraculo.IngestOptions
}

// TestEngineParity opens the engine on Weaviate and on SQLite, ingests a
// golden set's notes with each, and evaluates every configuration of the
// engine's default retrieval (BM25 and the entity path: no embedder) with
// the eval harness, as TestRankStats does: Recall@8 and MRR@50 must be
// within parity of SQLite's. The sets are the sample campaign and, when
// ../shared/eval holds it, XQuAD-es dev.
func TestEngineParity(t *testing.T) {
	t.Parallel() // its own node (see "Parallel tests" in contract_test.go)
	sets := []evalSet{{"sample", "../../examples/campaign", "../../examples/golden.jsonl", oraculo.IngestOptions{}}}
	xq := filepath.Join("..", "..", "..", "shared", "eval", "xquad-es-dev")
	if _, err := os.Stat(filepath.Join(xq, "dev.jsonl")); err == nil {
		sets = append(sets, evalSet{"xquad-es-dev", filepath.Join(xq, "corpus"), filepath.Join(xq, "dev.jsonl"), oraculo.IngestOptions{MaxWords: 200}})
	} else {
		t.Logf("XQuAD-es dev not found at %s: the sample only", xq)
	}
	c := weaviatetest.Start(t, 1)
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) { testEngineParity(t, c.Nodes[0], set) })
	}
}

func testEngineParity(t *testing.T, node *weaviatetest.Node, set evalSet) {
	ctx := context.Background()
	qs, err := eval.Load(set.golden)
	if err != nil {
		t.Fatal(err)
	}
	we, se, _ := engines(t, open(t, node, "eval-"+set.name))
	reports := map[string]*eval.Report{}
	for _, b := range []struct {
		name string
		eng  *oraculo.Engine
	}{{"weaviate", we}, {"sqlite", se}} {
		start := time.Now()
		rep, err := b.eng.Ingest(ctx, []string{set.notes}, set.opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s ingested %d notes, %d chunks, %d entities in %v", set.name, b.name, rep.Indexed, rep.NewChunks, rep.Entities,
			time.Since(start).Round(time.Millisecond))
		if rep.Indexed == 0 || rep.Entities == 0 {
			t.Fatalf("%s: %s ingested %d notes, %d entities: the test proves nothing", set.name, b.name, rep.Indexed, rep.Entities)
		}
		configs, err := eval.Configs(ctx, b.eng, store.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		start = time.Now()
		if reports[b.name], err = eval.Evaluate(ctx, set.golden, qs, configs, 50); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s evaluated %d configurations in %v", set.name, b.name, len(configs), time.Since(start).Round(time.Millisecond))
	}
	w, s := reports["weaviate"], reports["sqlite"]
	if len(w.Configs) != len(s.Configs) {
		t.Fatalf("%d configurations on Weaviate, %d on SQLite", len(w.Configs), len(s.Configs))
	}
	if final := w.Final(); final.Name != retrieve.PathBM25+"+"+retrieve.PathEntity {
		t.Errorf("the default retrieval is %q, want BM25 and the entity path", final.Name)
	}
	for i, sc := range s.Configs {
		wc := w.Configs[i]
		if wc.Name != sc.Name {
			t.Fatalf("configuration %d is %q on Weaviate, %q on SQLite", i, wc.Name, sc.Name)
		}
		t.Logf("%s %s, %d questions: Recall@8 SQLite %.3f Weaviate %.3f; MRR@50 SQLite %.3f Weaviate %.3f", set.name, sc.Name,
			sc.Chunk.Questions, sc.Chunk.Recall[8], wc.Chunk.Recall[8], sc.Chunk.MRR, wc.Chunk.MRR)
		if sc.Chunk.Questions == 0 || sc.Chunk.Recall[8] == 0 {
			t.Errorf("%s %s: nothing found: the test proves nothing", set.name, sc.Name)
		}
		if d := math.Abs(sc.Chunk.Recall[8] - wc.Chunk.Recall[8]); d > parity {
			t.Errorf("%s %s: Recall@8 differs by %.3f", set.name, sc.Name, d)
		}
		if d := math.Abs(sc.Chunk.MRR - wc.Chunk.MRR); d > parity {
			t.Errorf("%s %s: MRR@50 differs by %.3f", set.name, sc.Name, d)
		}
	}
}
