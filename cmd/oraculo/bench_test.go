package main

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// sampleIndex ingests the bundled sample campaign into a fresh index.
func sampleIndex(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "sample.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", filepath.Join("..", "..", "examples", "campaign")); code != 0 {
		t.Fatalf("ingest exit %d: %s", code, errOut)
	}
	return db
}

// benchJSON runs bench --json and decodes its report, failing on a
// non-zero exit.
func benchJSON(t *testing.T, args ...string) (map[string]json.RawMessage, benchReport) {
	t.Helper()
	out, errOut, code := runCLI(t, "", append([]string{"bench", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("bench exit %d: %s", code, errOut)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("bench --json is not JSON: %v\n%s", err, out)
	}
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return raw, rep
}

// checkRun checks a run's figures: n queries, the stages in order with
// "total" last, percentiles in order, a positive rate.
func checkRun(t *testing.T, what string, res json.RawMessage, n int, stages ...string) {
	t.Helper()
	var r struct {
		Queries int                `json:"queries"`
		NoHits  int                `json:"no_hits"`
		FirstMS map[string]float64 `json:"first_ms"`
		Stages  []map[string]any   `json:"stages"`
		Wall    float64            `json:"wall_seconds"`
		QPS     float64            `json:"queries_per_second"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if r.Queries != n || r.NoHits < 0 || r.NoHits > n {
		t.Errorf("%s: %d queries, %d without hits; want %d", what, r.Queries, r.NoHits, n)
	}
	if r.Wall <= 0 || r.QPS <= 0 || r.FirstMS["total"] <= 0 {
		t.Errorf("%s: %.3f s, %.1f queries/s, first %.3f ms: want all positive", what, r.Wall, r.QPS, r.FirstMS["total"])
	}
	var names []string
	for _, s := range r.Stages {
		if keys := slices.Sorted(maps.Keys(s)); !slices.Equal(keys, []string{"count", "max_ms", "mean_ms", "p50_ms", "p95_ms", "p99_ms", "stage"}) {
			t.Fatalf("%s: stage fields %v", what, keys)
		}
		name := s["stage"].(string)
		names = append(names, name)
		p50, p95, p99, maxMS := s["p50_ms"].(float64), s["p95_ms"].(float64), s["p99_ms"].(float64), s["max_ms"].(float64)
		if !(0 <= p50 && p50 <= p95 && p95 <= p99 && p99 <= maxMS) {
			t.Errorf("%s: %s p50 %.3f p95 %.3f p99 %.3f max %.3f: not in order", what, name, p50, p95, p99, maxMS)
		}
		if c := int(s["count"].(float64)); c < 1 || c > n-1 {
			t.Errorf("%s: %s counts %d queries; want 1 to %d (the first is apart)", what, name, c, n-1)
		}
		if _, ok := r.FirstMS[name]; !ok && name != "fuse" {
			t.Errorf("%s: the first query has no %s time: %v", what, name, r.FirstMS)
		}
	}
	if !slices.Equal(names, stages) {
		t.Errorf("%s: stages %v, want %v", what, names, stages)
	}
	for _, s := range r.Stages {
		if s["stage"] == "total" && s["p50_ms"].(float64) <= 0 {
			t.Errorf("%s: a search takes no time: %v", what, s)
		}
	}
}

func TestCLIBenchOnTheSample(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_EMBEDDER", "")
	db := sampleIndex(t)

	raw, rep := benchJSON(t, "--db", db, "--n", "20", "--ask")
	if keys := slices.Sorted(maps.Keys(raw)); !slices.Equal(keys, []string{"ask", "index", "k", "machine", "peak_rss_bytes", "questions", "role", "search"}) {
		t.Fatalf("top-level fields %v", keys)
	}
	if rep.Index.Path != db || rep.Index.Chunks < 50 || rep.Index.Bytes <= 0 || rep.Index.Entities == 0 {
		t.Errorf("index %+v: want the sample's path, its chunks, its size and its compendium", rep.Index)
	}
	if !slices.Equal(rep.Index.Paths, []string{"bm25", "entity"}) {
		t.Errorf("paths %v, want bm25 and entity (no embedder)", rep.Index.Paths)
	}
	if rep.Questions.Source != "generated" || rep.Questions.Seed != 1 || rep.Questions.Distinct < 15 || rep.K != 10 || rep.Role != "dm" {
		t.Errorf("questions %+v, k %d, role %q", rep.Questions, rep.K, rep.Role)
	}
	checkRun(t, "search", raw["search"], 20, "retrieve:bm25", "retrieve:entity", "fuse", "total")
	checkRun(t, "ask", raw["ask"], 20, "search", "rerank", "answer", "verify", "total")
	if runtime.GOOS == "linux" && (rep.PeakRSS == nil || *rep.PeakRSS < 1<<20) {
		t.Errorf("peak RSS %v on Linux: want more than 1 MiB", rep.PeakRSS)
	}
	if rep.Machine.CPUs < 1 || rep.Machine.Go == "" {
		t.Errorf("machine %+v", rep.Machine)
	}

	// A golden set is read as eval reads it; --n cycles through it, and
	// one path alone is timed alone.
	raw, rep = benchJSON(t, "--db", db, "--questions", filepath.Join("..", "..", "examples", "golden.jsonl"), "--n", "80", "--paths", "bm25", "--k", "3", "--as", "player")
	if rep.Questions.Source != "file" || rep.Questions.Distinct != 64 || rep.K != 3 || rep.Role != "player" {
		t.Errorf("golden set: questions %+v, k %d, role %q", rep.Questions, rep.K, rep.Role)
	}
	if _, ok := raw["ask"]; ok {
		t.Error("an ask run without --ask")
	}
	checkRun(t, "golden", raw["search"], 80, "retrieve:bm25", "merge", "total")

	// The same figures, in Spanish.
	out, errOut, code := runCLI(t, "", "bench", "--db", db, "--n", "5", "--ui-lang", "es")
	if code != 0 {
		t.Fatalf("bench exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Índice " + db, "5 hechas con el propio índice (semilla 1", "Búsqueda (k 10)", "retrieve:bm25", "Pico de memoria residente"} {
		if !strings.Contains(out, want) {
			t.Errorf("Spanish report lacks %q:\n%s", want, out)
		}
	}
}

func TestCLIBenchErrors(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	missing := filepath.Join(t.TempDir(), "nowhere.db")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing index", []string{"--db", missing}, 1, `"` + missing + `" does not exist`},
		{"missing questions", []string{"--db", missing, "--questions", missing + ".txt"}, 1, "does not exist"},
		{"an argument", []string{"--db", missing, "quién"}, 2, `bench takes no arguments, only flags: "quién"`},
		{"negative n", []string{"--n", "-1"}, 2, "--n must be 0"},
		{"k zero", []string{"--k", "0"}, 2, "--k must be at least 1"},
	}
	for _, tt := range tests {
		_, errOut, code := runCLI(t, "", append([]string{"bench"}, tt.args...)...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, %q; want %d and %q", tt.name, code, errOut, tt.code, tt.want)
		}
	}
	// An empty index has nothing to make questions from.
	empty := filepath.Join(t.TempDir(), "empty.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", empty, "--quiet", t.TempDir()); code != 0 {
		t.Fatalf("ingest of an empty folder: exit %d: %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "", "bench", "--db", empty); code != 1 || !strings.Contains(errOut, "no text to make questions from") {
		t.Errorf("empty index: exit %d, %q", code, errOut)
	}
}
