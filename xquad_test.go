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

// sharedEval locates ../shared/eval beside the repository, or skips.
func sharedEval(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "shared", "eval", "xquad-es-dev")
	if _, err := os.Stat(filepath.Join(dir, "dev.jsonl")); err != nil {
		t.Skipf("public evaluation data not found at %s", dir)
	}
	return dir
}

// TestXQuADBM25 checks the bar: BM25 alone, about one paragraph a
// chunk, reaches MRR@50 >= 0.96 on the public Spanish development set.
func TestXQuADBM25(t *testing.T) {
	dir := sharedEval(t)
	ctx := context.Background()
	eng, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "xq.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Ingest(ctx, []string{filepath.Join(dir, "corpus")}, oraculo.IngestOptions{MaxWords: 200}); err != nil {
		t.Fatal(err)
	}
	qs, err := eval.Load(filepath.Join(dir, "dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := eval.Run(ctx, qs, eval.Config{Name: "bm25", Paths: []string{"bm25"}, Search: eval.EngineSearcher(eng, store.Filter{}, "bm25")}, 50)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Chunk
	t.Logf("xquad-es-dev, bm25, --max-words 200: %d questions  R@1 %.3f  R@5 %.3f  R@8 %.3f  R@20 %.3f  R@50 %.3f  MRR@50 %.3f  nDCG@10 %.3f",
		s.Questions, s.Recall[1], s.Recall[5], s.Recall[8], s.Recall[20], s.Recall[50], s.MRR, s.NDCG10)
	for _, o := range res.Outcomes {
		if o.Rank != 1 && testing.Verbose() {
			t.Logf("  miss@1 %s rank %d: %s", o.ID, o.Rank, o.Question)
		}
	}
	if s.MRR < 0.96 {
		t.Errorf("MRR@50 = %.4f, want >= 0.96", s.MRR)
	}
}
