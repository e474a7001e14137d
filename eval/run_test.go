package eval

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func ptr(s string) *string { return &s }

// fakeSearch answers each question with a fixed list of chunks.
func fakeSearch(lists map[string][]Retrieved) Searcher {
	return func(_ context.Context, q string, k int) ([]Retrieved, []Stage, error) {
		l, ok := lists[q]
		if !ok {
			return nil, nil, errors.New("unknown question")
		}
		if len(l) > k {
			l = l[:k]
		}
		return l, []Stage{{"retrieve:fake", time.Millisecond}, {"total", 2 * time.Millisecond}}, nil
	}
}

func TestRunHandComputed(t *testing.T) {
	qs := []Question{
		{ID: "a", Question: "qa", Kind: KindSingle, Sources: []Source{{File: "s.md", Heading: ptr("Sesión 4")}}},
		{ID: "b", Question: "qb", Kind: KindMulti, Sources: []Source{{File: "x.md"}, {File: "y.md"}}},
		{ID: "c", Question: "qc", Kind: KindParaphrase, Sources: []Source{{File: "z.md"}}},
		{ID: "u", Question: "qu", Kind: KindUnanswerable},
	}
	lists := map[string][]Retrieved{
		// a: rank 1 is the right note but the wrong session; relevant at 3.
		"qa": {{File: "s.md", Headings: []string{"S", "Sesión 5"}}, {File: "o.md"}, {File: "s.md", Headings: []string{"S", "Sesión 4 — x"}}},
		// b: x at 2, y at 9 (beyond the context of 8).
		"qb": {{File: "o.md"}, {File: "x.md"}, {File: "o.md"}, {File: "o.md"}, {File: "o.md"}, {File: "o.md"}, {File: "o.md"}, {File: "o.md"}, {File: "y.md"}},
		// c: never found.
		"qc": {{File: "o.md"}},
	}
	res, err := Run(context.Background(), qs, Config{Name: "fake", Paths: []string{"fake"}, Search: fakeSearch(lists)}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outcomes) != 3 {
		t.Fatalf("%d outcomes: unanswerable questions must not be asked", len(res.Outcomes))
	}
	a, b, c := res.Outcomes[0], res.Outcomes[1], res.Outcomes[2]
	if a.Rank != 3 || a.FileRank != 1 || a.NoteRank != 0 {
		// One slot per note keeps only s.md's first chunk (Sesión 5), which
		// is not relevant: the note-level rank is "not found".
		t.Errorf("a: %+v", a)
	}
	if b.Rank != 2 || b.Coverage8 != 0.5 || b.Coverage50 != 1 || b.NoteRank != 2 || b.NoteCoverage8 != 1 {
		// One slot per note: o, x, y -> y moves up to 3.
		t.Errorf("b: %+v", b)
	}
	if c.Rank != 0 || c.FileRank != 0 {
		t.Errorf("c: %+v", c)
	}
	eq := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	eq("R@1", res.Chunk.Recall[1], 0)
	eq("R@5", res.Chunk.Recall[5], 2.0/3)
	eq("MRR", res.Chunk.MRR, (1.0/3+1.0/2)/3)
	eq("note MRR", res.Note.MRR, (0+1.0/2+0)/3)
	eq("cov@8", res.Chunk.Coverage8, (1+0.5+0)/3)
	eq("multi cov@8", res.ByKind[KindMulti].Chunk.Coverage8, 0.5)
	if _, ok := res.ByKind[KindUnanswerable]; ok {
		t.Error("unanswerable kind has metrics")
	}
	if l := res.Latency["total"]; l.Count != 3 || l.MedianMS != 2 || l.P95MS != 2 {
		t.Errorf("latency: %+v", res.Latency)
	}

	rep, err := Evaluate(context.Background(), "g.jsonl", qs, []Config{{Name: "fake", Paths: []string{"fake"}, Search: fakeSearch(lists)}}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Questions != 4 || rep.Unanswerable != 1 || len(rep.Misses) != 3 {
		t.Fatalf("report: %d questions, %d unanswerable, %d misses", rep.Questions, rep.Unanswerable, len(rep.Misses))
	}
	// Worst first: not found, then by rank.
	if rep.Misses[0].ID != "c" || rep.Misses[1].ID != "a" || rep.Misses[2].ID != "b" || rep.Misses[1].ByPath["fake"] != 3 {
		t.Errorf("misses: %+v", rep.Misses)
	}
}

func TestRunPropagatesErrors(t *testing.T) {
	qs := []Question{{ID: "a", Question: "nope", Kind: KindSingle, Sources: []Source{{File: "x"}}}}
	_, err := Run(context.Background(), qs, Config{Name: "f", Search: fakeSearch(nil)}, 5)
	if err == nil || !strings.Contains(err.Error(), `"a"`) {
		t.Fatalf("err = %v", err)
	}
	_, err = Run(context.Background(), []Question{{ID: "u", Question: "q", Kind: KindUnanswerable}}, Config{Name: "f", Search: fakeSearch(nil)}, 5)
	if err == nil {
		t.Fatal("a set with only unanswerable questions was accepted")
	}
}

// report builds a one-configuration report whose outcomes have the ranks given.
func report(ranks []int, fileRanks []int, kinds []string) *Report {
	r := &Result{Name: "bm25", Paths: []string{"bm25"}}
	for i, rank := range ranks {
		o := Outcome{ID: string(rune('a' + i)), Kind: kinds[i], Rank: rank, NoteRank: rank, Sources: 1}
		if fileRanks != nil {
			o.FileRank = fileRanks[i]
		}
		if rank > 0 && rank <= 8 {
			o.Coverage8 = 1
		}
		if rank > 0 {
			o.Coverage50 = 1
		}
		r.Outcomes = append(r.Outcomes, o)
	}
	r.Summarise()
	return &Report{Configs: []*Result{r}}
}

func problems(fs []Finding) string {
	var p []string
	for _, f := range fs {
		p = append(p, f.Problem)
	}
	return strings.Join(p, ",")
}

func TestDiagnose(t *testing.T) {
	s := KindSingle
	ten := func(k string) []string {
		out := make([]string, 10)
		for i := range out {
			out[i] = k
		}
		return out
	}
	cases := []struct {
		name  string
		rep   *Report
		want  string
		lang  string
		words string
	}{
		{"ranking: found, badly ordered", report([]int{1, 2, 14, 20, 12, 30, 1, 3, 9, 15}, nil, ten(s)), "ranking", "en", "Recall@50 is 1.000 but Recall@8 is 0.400"},
		{"retrieval: not found", report([]int{1, 0, 0, 0, 2, 1, 1, 0, 3, 1}, nil, ten(s)), "retrieval", "es", "ni siquiera está entre los 50"},
		{"chunking: right note, wrong part", report([]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 12}, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 2}, ten(s)), "chunking,prompt", "en", "right note"},
		{"paraphrase gap", report([]int{1, 1, 1, 1, 1, 1, 40, 30, 1, 25}, nil, []string{s, s, s, s, s, KindParaphrase, KindParaphrase, KindParaphrase, KindParaphrase, KindParaphrase}), "ranking,vocabulary", "en", "paraphrases"},
		{"all good", report([]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, nil, ten(s)), "prompt", "en", "look at the context assembly"},
		{"nothing stands out", report([]int{1, 1, 1, 1, 6, 1, 1, 7, 1, 60}, nil, ten(s)), "none", "en", "no failure"},
		{"ranking at the top", report([]int{1, 2, 3, 7, 8, 1, 6, 7, 6, 5}, nil, ten(s)), "ranking", "en", "seldom first"},
	}
	for _, c := range cases {
		fs := Diagnose(c.rep, c.lang)
		if got := problems(fs); got != c.want {
			t.Errorf("%s: problems %q, want %q", c.name, got, c.want)
		}
		all := ""
		for _, f := range fs {
			all += f.Evidence + " " + f.Advice + "\n"
			if strings.Contains(f.Evidence, "%!") || strings.Contains(f.Advice, "%!") {
				t.Errorf("%s: bad format: %s", c.name, f.Evidence)
			}
		}
		if !strings.Contains(all, c.words) {
			t.Errorf("%s: %q not in\n%s", c.name, c.words, all)
		}
	}
	noLexical := report([]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, nil, ten(s))
	noLexical.Configs[0].Paths = []string{"dense"}
	if got := problems(Diagnose(noLexical, "en")); !strings.Contains(got, "lexical") {
		t.Errorf("no bm25 path: %q", got)
	}
}

func TestCompare(t *testing.T) {
	a := report([]int{1, 3, 0}, nil, []string{KindSingle, KindSingle, KindSingle})
	b := report([]int{2, 1, 5}, nil, []string{KindSingle, KindSingle, KindSingle})
	b.Configs = append(b.Configs, &Result{Name: "bm25+dense", Modes: b.Configs[0].Modes, Outcomes: b.Configs[0].Outcomes})
	c := Compare(a, b)
	if len(c.Rows) != 2*2*len(MetricNames) {
		t.Fatalf("%d rows", len(c.Rows))
	}
	// R@5: a has ranks 1 and 3 of three within 5; b all three.
	r5 := c.Rows[1]
	if r5.Config != "bm25" || r5.Mode != "chunk" || r5.Metric != "R@5" || math.Abs(r5.A-2.0/3) > 1e-9 || r5.B != 1 || math.Abs(r5.Delta-1.0/3) > 1e-9 {
		t.Errorf("R@5 row: %+v", r5)
	}
	last := c.Rows[len(c.Rows)-1]
	if last.Config != "bm25+dense" || !math.IsNaN(last.A) || !math.IsNaN(last.Delta) {
		t.Errorf("config only in B: %+v", last)
	}
	// Final configs: a's bm25 vs b's bm25+dense: a 1→2 worse, b 3→1 better, c 0→5 better.
	if len(c.Better) != 2 || len(c.Worse) != 1 || c.Worse[0].ID != "a" || c.Better[1].A != 0 || c.Better[1].B != 5 {
		t.Errorf("changes: better %+v worse %+v", c.Better, c.Worse)
	}
}
