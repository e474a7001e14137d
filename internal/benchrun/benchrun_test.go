package benchrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"none", nil, 50, 0},
		{"one", ms(7), 99, 7 * time.Millisecond},
		{"median of four is the second", ms(1, 2, 3, 4), 50, 2 * time.Millisecond},
		{"p95 of four is the last", ms(1, 2, 3, 4), 95, 4 * time.Millisecond},
		{"p50 of 1..100", ms(hundred...), 50, 50 * time.Millisecond},
		{"p95 of 1..100", ms(hundred...), 95, 95 * time.Millisecond},
		{"p99 of 1..100", ms(hundred...), 99, 99 * time.Millisecond},
		{"p100 is the max", ms(hundred...), 100, 100 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := Percentile(tt.sorted, tt.p); got != tt.want {
			t.Errorf("%s: Percentile(p%.0f) = %v, want %v", tt.name, tt.p, got, tt.want)
		}
	}
}

func TestSummariseOrdersStagesAndAddsRepeats(t *testing.T) {
	samples := []Sample{
		{Stages: []Stage{{"retrieve:bm25", 2 * time.Millisecond}, {"fuse", time.Millisecond}, {"retrieve:bm25", 3 * time.Millisecond}, {"total", 9 * time.Millisecond}}},
		{Stages: []Stage{{"retrieve:bm25", time.Millisecond}, {"total", 2 * time.Millisecond}, {"retrieve:entity", 4 * time.Millisecond}}},
	}
	got := Summarise(samples)
	var names []string
	for _, s := range got {
		names = append(names, s.Stage)
	}
	if want := []string{"retrieve:bm25", "fuse", "retrieve:entity", "total"}; !slices.Equal(names, want) {
		t.Fatalf("stages %v, want %v", names, want)
	}
	bm25 := got[0]
	// The first search ran BM25 twice (an unfiltered retry): 5 ms for it.
	if bm25.Count != 2 || bm25.P50 != 1 || bm25.Max != 5 || bm25.Mean != 3 {
		t.Errorf("bm25 = %+v, want count 2, p50 1, max 5, mean 3", bm25)
	}
	if got[2].Count != 1 {
		t.Errorf("a stage only some queries ran counts those: %+v", got[2])
	}
}

func TestRunReportsTheFirstQueryApart(t *testing.T) {
	calls := 0
	q := func(_ context.Context, question string) (Sample, error) {
		calls++
		d := time.Millisecond
		if calls == 1 {
			d = 40 * time.Millisecond
		}
		hits := 1
		if question == "nada" {
			hits = 0
		}
		return Sample{Stages: []Stage{{"retrieve:bm25", d}, {"total", d}}, Hits: hits}, nil
	}
	var progress []int
	res, err := Run(context.Background(), []string{"a", "b", "nada", "c"}, q, func(done, total int) {
		if total != 4 {
			t.Errorf("progress total %d, want 4", total)
		}
		progress = append(progress, done)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(progress, []int{1, 2, 3, 4}) {
		t.Errorf("progress %v", progress)
	}
	if res.Queries != 4 || res.NoHits != 1 {
		t.Errorf("queries %d, no hits %d; want 4 and 1", res.Queries, res.NoHits)
	}
	if res.FirstMS["total"] != 40 {
		t.Errorf("first total %v ms, want 40", res.FirstMS["total"])
	}
	total := res.Stages[len(res.Stages)-1]
	if total.Stage != "total" || total.Count != 3 || total.Max != 1 {
		t.Errorf("warm total %+v: want 3 queries of 1 ms, the cold one left out", total)
	}
	if res.QueriesPerSecond <= 0 || res.WallSeconds <= 0 {
		t.Errorf("rate %v q/s over %v s", res.QueriesPerSecond, res.WallSeconds)
	}
}

func TestRunOneQuestionSummarisesIt(t *testing.T) {
	q := func(context.Context, string) (Sample, error) {
		return Sample{Stages: []Stage{{"total", 3 * time.Millisecond}}, Hits: 2}, nil
	}
	res, err := Run(context.Background(), []string{"a"}, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stages) != 1 || res.Stages[0].P99 != 3 || res.QueriesPerSecond <= 0 {
		t.Errorf("one question: %+v", res)
	}
}

func TestRunStops(t *testing.T) {
	boom := errors.New("boom")
	failing := func(_ context.Context, question string) (Sample, error) {
		if question == "b" {
			return Sample{}, boom
		}
		return Sample{}, nil
	}
	if _, err := Run(context.Background(), []string{"a", "b"}, failing, nil); !errors.Is(err, boom) || !strings.Contains(err.Error(), `question 2 ("b")`) {
		t.Errorf("error %v: want boom, naming question 2", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, []string{"a"}, failing, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	if _, err := Run(context.Background(), nil, failing, nil); err == nil {
		t.Error("no questions: no error")
	}
}

func TestGenerate(t *testing.T) {
	chunks := []string{
		"# Sesión 1\n\nCruzamos el **puente** de Galerna bajo la lluvia; Norkiel cayó.",
		"",
		"- [[Harbin Wester]] vende mapas falsos en Puertogris.",
	}
	entities := []string{"Harbin Wester", "Norkiel"}
	a := Generate(chunks, entities, 30, "es", 7)
	if b := Generate(chunks, entities, 30, "es", 7); !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed made different questions")
	}
	if c := Generate(chunks, entities, 30, "es", 8); reflect.DeepEqual(a, c) {
		t.Error("another seed made the same questions")
	}
	if len(a) != 30 {
		t.Fatalf("%d questions, want 30", len(a))
	}
	who := 0
	for _, q := range a {
		if strings.HasPrefix(q, "¿quién es ") {
			who++
			continue
		}
		n := len(strings.Fields(q))
		if n < 3 || n > 8 || strings.ContainsAny(q, "#*[]") {
			t.Errorf("span %q: want 3 to 8 words without Markdown marks", q)
		}
	}
	if who != 10 {
		t.Errorf("%d entity questions of 30, want a third", who)
	}
	if en := Generate(chunks, entities, 3, "en", 1); !strings.HasPrefix(en[0], "who is ") {
		t.Errorf("English index: %q", en[0])
	}
	if only := Generate(nil, entities, 2, "es", 1); len(only) != 2 || !strings.HasPrefix(only[1], "¿quién es ") {
		t.Errorf("entities only: %q", only)
	}
	if none := Generate([]string{"", "— …"}, nil, 5, "es", 1); len(none) != 0 {
		t.Errorf("no text: %q", none)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, text string
		want       []string
		wantErr    string
	}{
		{"lines.txt", "¿quién es Harbin?\n\n  el mapa del archiduque  \n", []string{"¿quién es Harbin?", "el mapa del archiduque"}, ""},
		{"golden.jsonl", `{"id":"q1","question":"¿quién es Harbin?","kind":"single","sources":[{"file":"a.md","heading":null}]}` + "\n\n" +
			`{"id":"q2","question":"¿y el mapa?","kind":"unanswerable","sources":[]}` + "\n", []string{"¿quién es Harbin?", "¿y el mapa?"}, ""},
		{"empty.txt", "\n  \n", nil, "has no questions"},
		{"bad.jsonl", "{\"question\": \n", nil, "bad.jsonl"},
	}
	for _, tt := range tests {
		got, err := Load(write(tt.name, tt.text))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestPeakRSS(t *testing.T) {
	rss, ok := PeakRSS()
	if runtime.GOOS != "linux" {
		if ok {
			t.Logf("peak RSS %d bytes on %s", rss, runtime.GOOS)
		}
		return
	}
	if !ok || rss < 1<<20 {
		t.Fatalf("peak RSS %d bytes (ok %v): a Go test binary holds more than 1 MiB", rss, ok)
	}
	// Touching 32 MiB raises the peak to at least that much.
	big := make([]byte, 32<<20)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1
	}
	if after, ok := PeakRSS(); !ok || after < int64(len(big)) {
		t.Errorf("after touching %d bytes the peak is %d", len(big), after)
	}
	runtime.KeepAlive(big)
	ResetPeakRSS()
	if after, ok := PeakRSS(); !ok || after <= 0 {
		t.Errorf("after a reset: %d, %v", after, ok)
	}
}
