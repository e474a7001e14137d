package oraculo_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/store"
)

const sampleGolden = "examples/golden.jsonl"

// TestSampleGolden checks the bundled golden set against the bundled
// campaign: every source names a file and heading that some chunk covers
// (so a miss is the ranker's fault, never a typo in the set), and it
// records what BM25 alone achieves.
func TestSampleGolden(t *testing.T) {
	if _, err := os.Stat(sampleGolden); err != nil {
		t.Skip("sample golden set not present")
	}
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	qs, err := eval.Load(sampleGolden)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 40 {
		t.Errorf("golden set has %d questions, want >= 40", len(qs))
	}
	chunks, err := eng.Chunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, q := range qs {
		kinds[q.Kind]++
		for i, s := range q.Sources {
			if _, err := os.Stat(filepath.Join(sampleDir, filepath.FromSlash(s.File))); err != nil {
				t.Errorf("%s: source file %q: %v", q.ID, s.File, err)
				continue
			}
			covered := false
			for _, c := range chunks {
				for _, m := range q.Matches(eval.Retrieved{File: c.File, Headings: c.Headings, Text: c.Text}) {
					covered = covered || m == i
				}
			}
			if !covered {
				h := "<whole file>"
				if s.Heading != nil {
					h = *s.Heading
				}
				t.Errorf("%s: no chunk covers source %q heading %q", q.ID, s.File, h)
			}
		}
	}
	for _, k := range []string{eval.KindSingle, eval.KindMulti, eval.KindParaphrase, eval.KindUnanswerable} {
		if kinds[k] == 0 {
			t.Errorf("golden set has no %q question", k)
		}
	}
	res, err := eval.Run(ctx, qs, eval.Config{Name: "bm25", Paths: []string{"bm25"}, Search: eval.EngineSearcher(eng, store.Filter{}, "bm25")}, 50)
	if err != nil {
		t.Fatal(err)
	}
	s, n := res.Chunk, res.Note
	t.Logf("sample golden, bm25, per chunk: %d questions  R@1 %.3f  R@5 %.3f  R@8 %.3f  R@20 %.3f  R@50 %.3f  MRR@50 %.3f  nDCG@10 %.3f",
		s.Questions, s.Recall[1], s.Recall[5], s.Recall[8], s.Recall[20], s.Recall[50], s.MRR, s.NDCG10)
	t.Logf("sample golden, bm25, one slot per note: R@1 %.3f  R@8 %.3f  R@50 %.3f  MRR@50 %.3f  multi coverage@8 %.3f @50 %.3f",
		n.Recall[1], n.Recall[8], n.Recall[50], n.MRR, res.ByKind[eval.KindMulti].Chunk.Coverage8, res.ByKind[eval.KindMulti].Chunk.Coverage50)
	if testing.Verbose() {
		for _, o := range res.Outcomes {
			if o.Rank != 1 {
				t.Logf("  %-4s %-10s rank %2d  %s", o.ID, o.Kind, o.Rank, o.Question)
			}
		}
	}
}
