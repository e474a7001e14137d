package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo/eval"
)

// sampleOutcomes builds outcomes with the given chunk ranks, cycling
// through the kinds.
func sampleOutcomes(ranks []int, kinds []string) []eval.Outcome {
	out := make([]eval.Outcome, len(ranks))
	for i, r := range ranks {
		kind := kinds[i%len(kinds)]
		q := "¿Qué dice la nota " + string(rune('a'+i)) + "?"
		if i == 0 {
			q = `<script>alert("x")</script> & "quotes"`
		}
		cov, ndcg, fileRank := 0.0, 0.0, 0
		if r > 0 && r <= eval.ContextSize {
			cov = 1
		}
		if r > 0 && r <= 10 {
			ndcg = 1 / math.Log2(float64(r)+1)
		}
		if r > 0 {
			fileRank = (r + 1) / 2
		}
		out[i] = eval.Outcome{
			ID: "q" + string(rune('0'+i)), Question: q, Kind: kind, Sources: 1,
			Rank: r, NoteRank: max(0, min(r, 1+r/2)), FileRank: fileRank,
			Coverage8: cov, Coverage50: cov, NoteCoverage8: cov, NoteCoverage50: cov,
			NDCG10: ndcg, NoteNDCG10: ndcg,
		}
	}
	return out
}

// sampleResult builds a configuration with metrics averaged from outcomes,
// as Run does.
func sampleResult(name string, paths []string, outs []eval.Outcome, lat map[string]eval.Latency) *eval.Result {
	res := &eval.Result{Name: name, Paths: paths, Latency: lat, Outcomes: outs}
	res.Summarise()
	return res
}

// sampleReport is a small synthetic report: bm25 alone, then bm25+dense.
func sampleReport() *eval.Report {
	kinds := []string{eval.KindSingle, eval.KindMulti, eval.KindParaphrase}
	bm25 := sampleResult("bm25", []string{"bm25"}, sampleOutcomes([]int{0, 1, 3, 7, 12, 1, 0, 30, 2, 5}, kinds),
		map[string]eval.Latency{"bm25": {MedianMS: 0.42, P95MS: 1.3, Count: 10}})
	both := sampleResult("bm25+dense", []string{"bm25", "dense"}, sampleOutcomes([]int{0, 1, 2, 1, 9, 1, 45, 4, 1, 1}, kinds),
		map[string]eval.Latency{"embed": {MedianMS: 12.5, P95MS: 30, Count: 10}, "bm25": {MedianMS: 0.5, P95MS: 1.1, Count: 10}, "fuse": {MedianMS: 0.05, P95MS: 0.1, Count: 10}})
	r := &eval.Report{
		Golden: "testdata/golden.yaml", Index: "/home/ana/.oraculo/index.db", K: 50,
		Created:   time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC),
		Settings:  map[string]any{"language": "es", "chunk_tokens": 256, "overlap": 32},
		Questions: 12, Unanswerable: 2,
		Kinds:   map[string]int{eval.KindSingle: 4, eval.KindMulti: 3, eval.KindParaphrase: 3, eval.KindUnanswerable: 2},
		Configs: []*eval.Result{bm25, both},
	}
	r.Misses = r.ListMisses()
	return r
}

func writeHTML(t *testing.T, r *eval.Report, lang string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, lang); err != nil {
		t.Fatalf("WriteHTML(%q): %v", lang, err)
	}
	return buf.String()
}

var (
	urlRE      = regexp.MustCompile(`https?://[^\s"'<>]*`)
	resourceRE = regexp.MustCompile(`(?i)\s(src|href|xlink:href|action|srcset)\s*=`)
)

// checkSelfContained fails on any script, external reference or URL but
// the SVG namespaces.
func checkSelfContained(t *testing.T, htmlPage string) {
	t.Helper()
	for _, u := range urlRE.FindAllString(htmlPage, -1) {
		if u != "http://www.w3.org/2000/svg" && u != "http://www.w3.org/1999/xlink" {
			t.Errorf("page refers to %q", u)
		}
	}
	if m := resourceRE.FindString(htmlPage); m != "" {
		t.Errorf("page has a resource attribute %q", m)
	}
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "@import", "url("} {
		if strings.Contains(strings.ToLower(htmlPage), bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if strings.Contains(htmlPage, "<?xml") {
		t.Error("page contains an XML prolog from an SVG")
	}
}

func TestWriteHTML(t *testing.T) {
	r := sampleReport()
	if len(r.Misses) == 0 {
		t.Fatal("sample report has no misses")
	}
	for _, tc := range []struct {
		lang     string
		want     []string
		unwanted []string
	}{
		{"en", []string{`<html lang="en">`, "Retrieval evaluation", "Summary", "one slot per note", "Latency", "Misses",
			"not found", "Golden set", "Rank in bm25&#43;dense", "bm25 alone", "File rank", "Recall@k by configuration", "paraphrase"},
			[]string{"Evaluación", "no encontrado", "una ranura por nota"}},
		{"", []string{`<html lang="en">`, "Retrieval evaluation"}, []string{"Evaluación"}},
		{"es", []string{`<html lang="es">`, "Evaluación de recuperación", "Resumen", "una ranura por nota", "Latencia", "Fallos",
			"no encontrado", "Conjunto de referencia", "Posición en bm25&#43;dense", "solo bm25", "Posición del archivo", "paráfrasis", "cobertura@8"},
			[]string{"Retrieval evaluation", "not found", "one slot per note", "coverage@8"}},
	} {
		t.Run("lang="+tc.lang, func(t *testing.T) {
			htmlPage := writeHTML(t, r, tc.lang)
			if n := strings.Count(htmlPage, "<svg"); n != 3 {
				t.Errorf("page has %d <svg, want 3", n)
			}
			if n := strings.Count(htmlPage, "<figure>"); n != 3 {
				t.Errorf("page has %d figures, want 3", n)
			}
			for _, s := range append(tc.want, "bm25", "bm25+dense", "¿Qué dice la nota h?", "testdata/golden.yaml",
				"2026-03-14", `{&#34;chunk_tokens&#34;:256,&#34;language&#34;:&#34;es&#34;,&#34;overlap&#34;:32}`,
				"embed", "fuse", "12.50", "0.42") {
				if !strings.Contains(htmlPage, s) {
					t.Errorf("page lacks %q", s)
				}
			}
			for _, s := range tc.unwanted {
				if strings.Contains(htmlPage, s) {
					t.Errorf("page contains %q from the other language", s)
				}
			}
			checkSelfContained(t, htmlPage)
			if strings.Contains(htmlPage, `<script>alert`) {
				t.Error("question text is not escaped")
			}
			if !strings.Contains(htmlPage, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#34;quotes&#34;`) {
				t.Error("escaped question text is missing")
			}
		})
	}
}

func TestWriteHTMLSummaryValues(t *testing.T) {
	r := sampleReport()
	htmlPage := writeHTML(t, r, "en")
	// bm25+dense finds 7 of 10 within 8 in chunk mode, the best R@8.
	if got := r.Final().Chunk.Recall[8]; got != 0.7 {
		t.Fatalf("sample R@8 = %v", got)
	}
	if !strings.Contains(htmlPage, `<td class="n best">0.700</td>`) {
		t.Error("summary lacks the best R@8 0.700 marked")
	}
	// Latency stages sorted by name within a configuration.
	b, e, f := strings.Index(htmlPage, "<code>bm25</code>"), strings.Index(htmlPage, "<code>embed</code>"), strings.Index(htmlPage, "<code>fuse</code>")
	if !(b >= 0 && b < e && e < f) {
		t.Errorf("latency stages out of order: bm25 %d, embed %d, fuse %d", b, e, f)
	}
	// The worst miss first: not found in bm25+dense.
	i := strings.Index(htmlPage, "<td class=\"q\">")
	if i < 0 || !strings.Contains(htmlPage[i:i+200], "&lt;script&gt;") {
		t.Error("first miss is not the one not found")
	}
}

func TestWriteHTMLLanguage(t *testing.T) {
	if err := WriteHTML(&bytes.Buffer{}, sampleReport(), "fr"); err == nil {
		t.Error("WriteHTML accepted language fr")
	}
	if err := WriteHTML(&bytes.Buffer{}, nil, "en"); err == nil {
		t.Error("WriteHTML accepted a nil report")
	}
}

func TestWriteHTMLEdgeCases(t *testing.T) {
	single := func() *eval.Report {
		res := sampleResult("bm25", []string{"bm25"}, sampleOutcomes([]int{1, 1, 1}, []string{eval.KindSingle}), nil)
		return &eval.Report{Golden: "g.yaml", K: 50, Questions: 3, Kinds: map[string]int{eval.KindSingle: 3}, Configs: []*eval.Result{res}}
	}
	shallow := sampleReport()
	shallow.K = 5
	for _, c := range shallow.Configs {
		for i := range c.Outcomes {
			if c.Outcomes[i].Rank > 5 {
				c.Outcomes[i].Rank = 0
			}
		}
	}
	allZero := sampleReport()
	for _, c := range allZero.Configs {
		zeros := make([]int, len(c.Outcomes))
		*c = *sampleResult(c.Name, c.Paths, sampleOutcomes(zeros, []string{eval.KindSingle, eval.KindMulti, eval.KindParaphrase}), nil)
	}
	allZero.Misses = allZero.ListMisses()
	for _, tc := range []struct {
		name     string
		report   *eval.Report
		svgs     int
		want     []string
		unwanted []string
	}{
		{"single configuration, no misses", single(), 3, []string{"None: bm25 ranked", "No latency was recorded."}, []string{`n best"`, "<table>\n<thead><tr><th scope=\"col\">ID"}},
		{"K = 5", shallow, 3, []string{"k = 5, below 8", "4–5"}, nil},
		{"all ranks 0", allZero, 3, []string{"not found"}, []string{`n best"`, "Bold: the best"}},
		{"K = 1", func() *eval.Report { r := single(); r.K = 1; return r }(), 3, nil, nil},
		{"no outcomes", func() *eval.Report {
			r := single()
			r.Configs[0].Outcomes, r.Configs[0].ByKind = nil, nil
			return r
		}(), 0, []string{"No data to plot."}, nil},
		{"K = 0", func() *eval.Report { r := single(); r.K = 0; return r }(), 2, []string{"No data to plot."}, nil},
		{"no configuration", &eval.Report{K: 50}, 0, []string{"No data to plot."}, nil},
		{"nil configuration", &eval.Report{K: 50, Configs: []*eval.Result{nil}}, 0, nil, nil},
		{"unknown kind only", func() *eval.Report {
			r := single()
			for i := range r.Configs[0].Outcomes {
				r.Configs[0].Outcomes[i].Kind = "odd"
			}
			r.Configs[0].ByKind = map[string]eval.Modes{"odd": r.Configs[0].Modes}
			return r
		}(), 3, []string{"odd"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			htmlPage := writeHTML(t, tc.report, "en")
			if n := strings.Count(htmlPage, "<figure>"); n != 3 {
				t.Errorf("page has %d figures, want 3", n)
			}
			if n := strings.Count(htmlPage, "<svg"); n != tc.svgs {
				t.Errorf("page has %d <svg, want %d", n, tc.svgs)
			}
			for _, s := range tc.want {
				if !strings.Contains(htmlPage, s) {
					t.Errorf("page lacks %q", s)
				}
			}
			for _, s := range tc.unwanted {
				if strings.Contains(htmlPage, s) {
					t.Errorf("page contains %q", s)
				}
			}
			if strings.Contains(htmlPage, "could not be drawn") {
				t.Error("a plot failed to draw")
			}
			checkSelfContained(t, htmlPage)
		})
	}
}

func TestPlots(t *testing.T) {
	r := sampleReport()
	for name, draw := range map[string]func(*eval.Report, string) ([]byte, error){
		"recall": recallCurveSVG, "histogram": rankHistogramSVG, "kind": kindRecallSVG,
	} {
		svg, err := draw(r, "es")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := string(svg)
		if !strings.HasPrefix(s, "<svg ") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
			t.Errorf("%s: not a bare SVG element: %.80q … %.40q", name, s, s[max(0, len(s)-40):])
		}
		if strings.Contains(s, "font-family:Liberation") || !strings.Contains(s, ",sans-serif") {
			t.Errorf("%s: fonts lack a generic fallback", name)
		}
		// Deterministic: a pure function of the report.
		again, _ := draw(r, "es")
		if !bytes.Equal(svg, again) {
			t.Errorf("%s: two drawings differ", name)
		}
	}
}

func TestPlotsEscapeNames(t *testing.T) {
	r := sampleReport()
	r.Configs[0].Name = `bm25<script>&"x"`
	page := writeHTML(t, r, "en")
	if strings.Contains(page, "<script>") {
		t.Error("a configuration name is not escaped")
	}
	// Once in the summary, the latency table, the legends of two plots.
	if n := strings.Count(page, "bm25&lt;script&gt;&amp;"); n < 4 {
		t.Errorf("escaped configuration name found %d times, want 4", n)
	}
	r.Configs[1].Name = `a "quoted" <name>`
	svg, err := rankHistogramSVG(r, "en")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), `aria-label="Rank of the first relevant chunk: a &#34;quoted&#34; &lt;name&gt;"`) {
		t.Errorf("histogram title not escaped in aria-label: %.200s", svg)
	}
}

func TestRecallCurve(t *testing.T) {
	outs := []eval.Outcome{{Rank: 1}, {Rank: 3}, {Rank: 0}, {Rank: 5}}
	got := recallCurve(outs, 5)
	want := []float64{0.25, 0.25, 0.5, 0.5, 0.75}
	for i, xy := range got {
		if xy.X != float64(i+1) || xy.Y != want[i] {
			t.Errorf("k=%d: got (%v, %v), want (%d, %v)", i+1, xy.X, xy.Y, i+1, want[i])
		}
	}
	if got := recallCurve(nil, 3); len(got) != 3 || got[2].Y != 0 {
		t.Errorf("no outcomes: %v", got)
	}
}

func TestRankBins(t *testing.T) {
	outs := []eval.Outcome{{Rank: 1}, {Rank: 2}, {Rank: 3}, {Rank: 4}, {Rank: 5}, {Rank: 6}, {Rank: 8},
		{Rank: 9}, {Rank: 20}, {Rank: 21}, {Rank: 50}, {Rank: 0}, {Rank: 0}}
	summary := func(bins []rankBin) map[string]int {
		m := map[string]int{}
		for _, b := range bins {
			m[b.Label] = b.Count
		}
		return m
	}
	want := map[string]int{"1": 1, "2": 1, "3": 1, "4–5": 2, "6–8": 2, "9–20": 2, "21–50": 2, "none": 2}
	if got := summary(rankBins(outs, 50, "none")); !reflect.DeepEqual(got, want) {
		t.Errorf("depth 50: %v, want %v", got, want)
	}
	os5 := []eval.Outcome{{Rank: 1}, {Rank: 5}, {Rank: 0}}
	want5 := map[string]int{"1": 1, "2": 0, "3": 0, "4–5": 1, "none": 1}
	if got := summary(rankBins(os5, 5, "none")); !reflect.DeepEqual(got, want5) {
		t.Errorf("depth 5: %v, want %v", got, want5)
	}
	deep := summary(rankBins([]eval.Outcome{{Rank: 80}}, 100, "none"))
	if deep["51–100"] != 1 {
		t.Errorf("depth 100: %v", deep)
	}
}

func TestIntTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []float64
	}{
		{1, 5, []float64{1, 2, 3, 4, 5}},
		{1, 50, []float64{1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50}},
		{0, 1.12, []float64{0, 1}},
		{0.2, 0.5, nil},
	} {
		var got []float64
		for _, tk := range plotIntTicks(true)(tc.lo, tc.hi) {
			got = append(got, tk.Value)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ticks(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestWriteDir(t *testing.T) {
	r := sampleReport()
	dir := filepath.Join(t.TempDir(), "nested", "report")
	index, err := WriteDir(dir, r, "es")
	if err != nil {
		t.Fatal(err)
	}
	if index != filepath.Join(dir, "index.html") {
		t.Errorf("index path %q", index)
	}
	htmlPage, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(htmlPage, []byte("Evaluación de recuperación")) {
		t.Error("index.html is not the Spanish page")
	}
	back, err := eval.LoadReport(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if back.K != r.K || len(back.Configs) != 2 || back.Final().Name != "bm25+dense" ||
		!reflect.DeepEqual(back.Misses, r.Misses) || !reflect.DeepEqual(back.Final().Outcomes, r.Final().Outcomes) ||
		!reflect.DeepEqual(back.Final().Chunk, r.Final().Chunk) || !back.Created.Equal(r.Created) {
		t.Error("report.json does not round-trip")
	}
	// The page of the loaded report is the page of the original.
	var a, b bytes.Buffer
	if err := WriteHTML(&a, r, "es"); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&b, back, "es"); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("the page of the reloaded report differs")
	}
	if _, err := WriteDir(filepath.Join(dir, "x"), r, "fr"); err == nil {
		t.Error("WriteDir accepted language fr")
	}
}

// TestWriteSampleReport writes the sample report's page for a look in a
// browser: ORACULO_EVAL_SAMPLE_DIR=/tmp/eval-sample go test ./eval -run Sample
func TestWriteSampleReport(t *testing.T) {
	dir := os.Getenv("ORACULO_EVAL_SAMPLE_DIR")
	if dir == "" {
		t.Skip("writes the sample report for a look in a browser: set ORACULO_EVAL_SAMPLE_DIR=/tmp/eval-sample to run it")
	}
	lang := os.Getenv("ORACULO_EVAL_SAMPLE_LANG")
	index, err := WriteDir(dir, sampleReport(), lang)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("wrote", index)
}
