package eval

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

const eps = 1e-9

func TestRankMetrics(t *testing.T) {
	T, F := true, false
	cases := []struct {
		name   string
		rel    []bool
		k      int
		first  int
		recall float64
		rr     float64
	}{
		{"empty list", nil, 5, 0, 0, 0},
		{"no relevant hit", []bool{F, F, F}, 5, 0, 0, 0},
		{"first", []bool{T, F}, 1, 1, 1, 1},
		{"third within k", []bool{F, F, T}, 5, 3, 1, 1.0 / 3},
		{"third beyond k", []bool{F, F, T}, 2, 3, 0, 0},
		{"several relevant: first counts", []bool{F, T, T, T}, 8, 2, 1, 0.5},
		{"k larger than the list", []bool{F, T}, 50, 2, 1, 0.5},
	}
	for _, c := range cases {
		if got := FirstRelevant(c.rel); got != c.first {
			t.Errorf("%s: FirstRelevant = %d, want %d", c.name, got, c.first)
		}
		if got := RecallAt(c.rel, c.k); math.Abs(got-c.recall) > eps {
			t.Errorf("%s: RecallAt(%d) = %v, want %v", c.name, c.k, got, c.recall)
		}
		if got := ReciprocalRank(c.rel, c.k); math.Abs(got-c.rr) > eps {
			t.Errorf("%s: ReciprocalRank(%d) = %v, want %v", c.name, c.k, got, c.rr)
		}
	}
}

func TestNDCG(t *testing.T) {
	T, F := true, false
	// Hand-computed: relevant at ranks 1 and 3, two relevant in all.
	// DCG = 1/log2(2) + 1/log2(4) = 1 + 0.5; IDCG = 1 + 1/log2(3).
	want := 1.5 / (1 + 1/math.Log2(3))
	if got := NDCGAt([]bool{T, F, T}, 2, 10); math.Abs(got-want) > eps {
		t.Errorf("NDCG = %v, want %v", got, want)
	}
	if got := NDCGAt([]bool{T, T}, 2, 10); math.Abs(got-1) > eps {
		t.Errorf("perfect NDCG = %v", got)
	}
	if got := NDCGAt([]bool{F, F}, 1, 10); got != 0 {
		t.Errorf("no relevant: %v", got)
	}
	// A relevant item below the cutoff does not count; three relevant exist.
	want = (1 / math.Log2(3)) / (1 + 1/math.Log2(3))
	if got := NDCGAt([]bool{F, T, F, T}, 3, 2); math.Abs(got-want) > eps {
		t.Errorf("cut NDCG = %v, want %v", got, want)
	}
}

func TestCoverageAndOneSlotPerNote(t *testing.T) {
	covers := [][]int{{0}, nil, {0, 2}, {1}}
	if got := CoverageAt(covers, 4, 3); math.Abs(got-0.5) > eps {
		t.Errorf("coverage@3 = %v, want 0.5", got)
	}
	if got := CoverageAt(covers, 4, 50); math.Abs(got-0.75) > eps {
		t.Errorf("coverage@50 = %v, want 0.75", got)
	}
	if got := CoverageAt(nil, 0, 8); got != 0 {
		t.Errorf("no sources: %v", got)
	}
	got := OneSlotPerNote([]string{"a", "a", "b", "a", "c", "b"})
	want := []int{0, 2, 4}
	if len(got) != len(want) {
		t.Fatalf("OneSlotPerNote = %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("OneSlotPerNote = %v, want %v", got, want)
		}
	}
}

func TestMatches(t *testing.T) {
	h := "Sesión 4"
	q := Question{Sources: []Source{{File: "s.md", Heading: &h}, {File: "n.md"}}}
	cases := []struct {
		r    Retrieved
		want int
	}{
		{Retrieved{File: "s.md", Headings: []string{"Diario", "Sesion 4 — El puente"}}, 1},
		{Retrieved{File: "s.md", Headings: []string{"Diario"}, Text: "**SESIÓN 4**\n\nhola"}, 1},
		{Retrieved{File: "s.md", Headings: []string{"Diario", "Sesión 40"}}, 0},
		{Retrieved{File: "s.md", Text: "ya lo vimos en la sesión 4"}, 0},
		{Retrieved{File: "n.md"}, 1},
		{Retrieved{File: "x.md", Headings: []string{"Sesión 4"}}, 0},
	}
	for i, c := range cases {
		if got := len(q.Matches(c.r)); got != c.want {
			t.Errorf("case %d: %d matches, want %d", i, got, c.want)
		}
	}
	one := Question{Answers: []string{"308"}, Sources: []Source{{File: "sb.md", Heading: &h}}}
	if len(one.Matches(Retrieved{File: "sb.md", Text: "dejaron escapar 308 puntos"})) != 1 {
		t.Error("answer string not accepted as relevance")
	}
}

func TestLoadBothShapes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g.jsonl")
	os.WriteFile(p, []byte(`{"id":"a","question":"¿q?","kind":"multi","sources":[{"file":"x.md","heading":null},{"file":"y.md","heading":"Sesión 2"}],"answer":"r"}

{"id":"b","question":"¿p?","answers":["7"],"file":"z.md","heading":"Párrafo 1","title":"Z"}
{"id":"c","question":"¿u?","kind":"unanswerable","sources":[],"answer":"no consta"}
`), 0o644)
	qs, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 3 || len(qs[0].Sources) != 2 || qs[0].Sources[0].Heading != nil || *qs[0].Sources[1].Heading != "Sesión 2" {
		t.Fatalf("multi: %+v", qs[0])
	}
	if qs[1].Kind != KindSingle || len(qs[1].Sources) != 1 || qs[1].Sources[0].File != "z.md" || *qs[1].Sources[0].Heading != "Párrafo 1" {
		t.Fatalf("one-passage: %+v", qs[1])
	}
	for _, bad := range []string{`{"id":"x","question":"q","kind":"weird","sources":[{"file":"a"}]}`, `{"id":"x","question":"q","kind":"single","sources":[]}`, `not json`, `{"id":"x","question":""}`} {
		os.WriteFile(p, []byte(bad+"\n"), 0o644)
		if _, err := Load(p); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
