package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/synth"
)

// The test binary doubles as the oraculo command when this variable is set,
// so the crash test can kill a real ingest process.
func TestMain(m *testing.M) {
	if os.Getenv("ORACULO_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// runCommand runs the command of the table called name on ctx, as run
// does once it has found it, for the tests that stop it by cancelling ctx.
func runCommand(ctx context.Context, name string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, ok := lookup(commands, name)
	if !ok {
		return fmt.Errorf("no command %q", name)
	}
	_, err := c.dispatch(ctx, args, stdio{in: stdin, out: stdout, err: stderr})
	return err
}

func writeNote(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func smallNotes(t *testing.T) string {
	dir := t.TempDir()
	writeNote(t, filepath.Join(dir, "Sesiones", "Campaña.md"), `# Campaña

## Sesión 1 — El puente

Cruzamos el puente de Galerna. Norkiel cayó en combate contra los trolls.

## Sesión 2 — La cripta

En la cripta encontramos el mapa del archiduque, como ya vimos en la sesión 1.
`)
	writeNote(t, filepath.Join(dir, "NPCs", "Harbin Wester.md"), "---\ntitle: Harbin Wester\naliases: [el viejo]\n---\n# Harbin Wester\n\nTabernero de Puertogris, vende mapas falsos.\n")
	return dir
}

func TestCLIIngestSearchChunksStats(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	notes := smallNotes(t)
	db := filepath.Join(t.TempDir(), "o.db")
	out, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", notes)
	if code != 0 {
		t.Fatalf("ingest exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "2 files (2 indexed") || !strings.Contains(out, "2 sessions") {
		t.Fatalf("ingest summary:\n%s", out)
	}

	out, errOut, code = runCLI(t, "", "search", "--db", db, "--json", "--k", "2", "¿Quién", "cayó en combate?")
	if code != 0 {
		t.Fatalf("search exit %d: %s", code, errOut)
	}
	var res struct {
		Question string `json:"question"`
		Hits     []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("search --json is not one JSON object: %v\n%s", err, out)
	}
	if strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("search --json printed more than one line:\n%s", out)
	}
	if res.Question != "¿Quién cayó en combate?" || len(res.Hits) == 0 {
		t.Fatalf("search result: %+v", res)
	}
	h := res.Hits[0]
	for _, key := range []string{"rank", "id", "file", "label", "headings", "session", "words", "text", "score", "paths"} {
		if _, ok := h[key]; !ok {
			t.Errorf("hit lacks %q: %v", key, h)
		}
	}
	if h["label"] != "Sesión 1" || h["session"] != float64(1) || h["file"] != "Sesiones/Campaña.md" {
		t.Errorf("first hit: %v", h)
	}
	if p, _ := h["paths"].(map[string]any); p["bm25"] != float64(1) {
		t.Errorf("paths: %v", h["paths"])
	}

	// Questions from standard input, one JSON line each, in order.
	out, _, code = runCLI(t, "mapa del archiduque\n\nHarbin\n", "search", "--db", db, "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.Contains(lines[0], `"question":"mapa del archiduque"`) || !strings.Contains(lines[1], `"question":"Harbin"`) {
		t.Fatalf("stdin questions: exit %d\n%s", code, out)
	}
	out, _, _ = runCLI(t, "", "search", "--db", db, "tabernero")
	if !strings.Contains(out, "NPCs: Harbin Wester") {
		t.Fatalf("table output:\n%s", out)
	}

	out, _, code = runCLI(t, "", "chunks", "--db", db, "NPCs")
	if code != 0 || !strings.Contains(out, "NPCs: Harbin Wester") || strings.Contains(out, "Sesión 1") {
		t.Fatalf("chunks NPCs:\n%s", out)
	}
	out, _, code = runCLI(t, "", "chunks", "--db", db, "--json")
	if code != 0 || strings.Count(out, "\n") != 3 {
		t.Fatalf("chunks --json:\n%s", out)
	}
	out, _, code = runCLI(t, "", "stats", "--db", db, "--json")
	var st map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st["documents"] != float64(2) || st["sessions"] != float64(2) || st["chunks"] != float64(3) || st["entities"] == float64(0) {
		t.Fatalf("stats --json:\n%s", out)
	}
}

func TestCLIErrors(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "")
	db := filepath.Join(t.TempDir(), "o.db")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, "orden desconocida"},
		{[]string{"ingest", "--db", db}, 2, "al menos una carpeta"},
		{[]string{"search", "--db", db, "hola"}, 1, "oraculo ingest"},
		{[]string{"ingest", "--db", db, "--max-words", "10", "--overlap-words", "10", "."}, 1, "overlap"},
		{[]string{"ingest", "--db", db, "--lang", "fr", "."}, 1, `"fr"`},
		{[]string{"search", "--db", db, "--k", "0", "x"}, 2, "--k"},
	}
	for _, c := range cases {
		_, errOut, code := runCLI(t, "", append(c.args, "--ui-lang", "es")...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d containing %q", c.args, code, errOut, c.code, c.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("a failed command created the index %s", db)
	}
}

// TestKilledIngestIsCompletedByNextRun kills a real ingest process with
// SIGKILL part-way, checks the index is consistent, runs ingest again and
// compares the result with a clean ingest of the same notes.
func TestKilledIngestIsCompletedByNextRun(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	notes := t.TempDir()
	if _, err := synth.Write(notes, 3000, 2, 400); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "crash.db")
	cmd, percent, finish := ingestProcess(t, db, notes)
	killed := false
	for p := range percent {
		if p >= 20 {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
			break
		}
	}
	finish()
	if !killed {
		t.Fatal("the ingest finished before it could be killed")
	}

	ctx := context.Background()
	eng, err := oraculo.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkIndex(ctx, db); err != nil {
		t.Fatalf("index after kill -9: %v", err)
	}
	mid, _ := eng.Stats(ctx)
	if mid.Documents == 0 || mid.Documents >= 1500 {
		t.Fatalf("killed mid-way, yet %d of 1500 documents are in", mid.Documents)
	}
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unchanged != mid.Documents || rep.Indexed != 1500-mid.Documents {
		t.Errorf("second run: %d unchanged, %d indexed; want %d and %d", rep.Unchanged, rep.Indexed, mid.Documents, 1500-mid.Documents)
	}
	if err := checkIndex(ctx, db); err != nil {
		t.Fatal(err)
	}
	eng.Close()

	clean, err := oraculo.Open(ctx, filepath.Join(t.TempDir(), "clean.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer clean.Close()
	if _, err := clean.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	eng, _ = oraculo.Open(ctx, db)
	defer eng.Close()
	a, _ := eng.Stats(ctx)
	b, _ := clean.Stats(ctx)
	if a.Documents != b.Documents || a.Chunks != b.Chunks || a.Children != b.Children || a.Sessions != b.Sessions {
		t.Fatalf("completed index %+v differs from a clean one %+v", a.Stats, b.Stats)
	}
	for _, q := range []string{synth.Name(17), "puente archiduque", "sesión 40"} {
		x, _ := eng.Search(ctx, q, oraculo.SearchOptions{K: 5})
		y, _ := clean.Search(ctx, q, oraculo.SearchOptions{K: 5})
		if len(x) != len(y) {
			t.Fatalf("%q: %d hits vs %d", q, len(x), len(y))
		}
		for i := range x {
			if x[i].ID != y[i].ID {
				t.Fatalf("%q: hit %d differs: %s vs %s", q, i, x[i].Label, y[i].Label)
			}
		}
	}
	_ = time.Second
}

func TestCLIEval(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	notes := smallNotes(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", notes); code != 0 {
		t.Fatal(errOut)
	}
	golden := filepath.Join(dir, "g.jsonl")
	writeNote(t, golden, `{"id":"q1","question":"¿Quién cayó en combate?","kind":"single","sources":[{"file":"Sesiones/Campaña.md","heading":"Sesión 1"}],"answer":"Norkiel"}
{"id":"q2","question":"¿Dónde estaba el mapa del archiduque?","kind":"paraphrase","sources":[{"file":"Sesiones/Campaña.md","heading":"Sesión 2"}],"answer":"en la cripta"}
{"id":"q3","question":"¿Quién vende mapas falsos?","kind":"multi","sources":[{"file":"NPCs/Harbin Wester.md","heading":null},{"file":"Sesiones/Campaña.md","heading":"Sesión 2"}],"answer":"Harbin"}
{"id":"q4","question":"¿Cómo se llama el dragón?","kind":"unanswerable","sources":[],"answer":"no consta"}
`)
	out, errOut, code := runCLI(t, "", "eval", "--db", db, "--golden", golden, "--diagnose", "--report", filepath.Join(dir, "rep"))
	if code != 0 {
		t.Fatalf("eval exit %d: %s", code, errOut)
	}
	for _, want := range []string{"4 questions (3 answerable", "bm25", "per chunk", "one slot per note", "R@50", "retrieve:bm25", "Diagnosis:", "paraphrase"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q:\n%s", want, out)
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "rep", "index.html"))
	if err != nil || strings.Count(string(html), "<svg") != 3 {
		t.Fatalf("report: %v, %d plots", err, strings.Count(string(html), "<svg"))
	}
	a := filepath.Join(dir, "a.json")
	out, _, code = runCLI(t, "", "eval", "--db", db, "--golden", golden, "--json", "--k", "1")
	if code != 0 {
		t.Fatal("eval --json failed")
	}
	writeNote(t, a, out)
	var rep struct {
		K       int `json:"k"`
		Configs []struct {
			Name  string `json:"name"`
			Chunk struct {
				Recall map[string]float64 `json:"recall"`
			} `json:"chunk"`
		} `json:"configs"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.K != 1 || len(rep.Configs) != 3 || rep.Configs[0].Name != "bm25" || rep.Configs[2].Name != "bm25+entity" {
		t.Fatalf("eval --json: %v %+v", err, rep)
	}
	out, errOut, code = runCLI(t, "", "eval", "--compare", a, filepath.Join(dir, "rep", "report.json"))
	if code != 0 || !strings.Contains(out, "R@1") || !strings.Contains(out, "Better in B") {
		t.Fatalf("compare: exit %d %s\n%s", code, errOut, out)
	}
	out, _, code = runCLI(t, "", "eval", "--from", a, "--diagnose")
	if code != 0 || !strings.Contains(out, "Diagnosis:") {
		t.Fatalf("--from --diagnose: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"eval"}, {"eval", "--compare", a}, {"eval", "--golden", filepath.Join(dir, "none.jsonl"), "--db", db}} {
		if _, errOut, code := runCLI(t, "", bad...); code == 0 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errOut)
		}
	}
}

func TestCLIDensePath(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_EMBEDDER", "")
	notes := smallNotes(t)
	db := filepath.Join(t.TempDir(), "o.db")
	out, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", "--embedder", "hashing", "--embed-dims", "128", notes)
	if code != 0 || !regexp.MustCompile(`Dense path \(hashing/v2\.1-es-[^ ]+-128\): 3 chunks embedded`).MatchString(out) {
		t.Fatalf("ingest with hashing: exit %d %s\n%s", code, errOut, out)
	}
	// Search uses the stored embedder: both paths, fused.
	out, _, code = runCLI(t, "", "search", "--db", db, "--json", "--k", "1", "combate en el puente")
	if code != 0 || !strings.Contains(out, `"paths":{"bm25":1,"dense":1}`) {
		t.Fatalf("fused search: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "", "search", "--db", db, "--json", "--paths", "dense", "--k", "1", "combate en el puente")
	if code != 0 || !strings.Contains(out, `"paths":{"dense":1}`) {
		t.Fatalf("dense alone: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "", "stats", "--db", db)
	if code != 0 || !regexp.MustCompile(`retrieval paths +bm25, dense`).MatchString(out) || !regexp.MustCompile(`dense path \(hashing/v2\.1-es-[^)]+-128\) +3 vectors, scanned exactly`).MatchString(out) {
		t.Fatalf("stats with the stored embedder:\n%s", out)
	}
	out, _, code = runCLI(t, "", "search", "--db", db, "--explain", "--k", "1", "combate en el puente")
	if code != 0 || !strings.Contains(out, "RRF: bm25 #1: 1/(60+1) = 0.0164 + dense #1: 1/(60+1) = 0.0164 = 0.0328") {
		t.Fatalf("--explain:\n%s", out)
	}
	// --embedder none switches the dense path off for this command.
	_, errOut, code = runCLI(t, "", "search", "--db", db, "--paths", "dense", "--embedder", "none", "x")
	if code != 1 || !strings.Contains(errOut, "needs an embedding model") {
		t.Fatalf("dense with --embedder none: exit %d %q", code, errOut)
	}
	out, _, code = runCLI(t, "", "eval", "--db", db, "--golden", writeGolden(t))
	if code != 0 || !strings.Contains(out, "bm25+dense") || !strings.Contains(out, "Approximate vs exact") || !strings.Contains(out, "Dense recall@10 of the approximate index against an exact scan: 1.000") {
		t.Fatalf("eval with the dense path:\n%s", out)
	}
	out, _, code = runCLI(t, "", "eval", "--db", db, "--json", "--golden", writeGolden(t))
	if code != 0 || !strings.Contains(out, `"recall_at_10": 1,`) || !strings.Contains(out, `"recall": 1,`) {
		t.Fatalf("eval --json with the dense path:\n%s", out)
	}
	// An unreachable server: ingest still succeeds, with a warning, and a
	// search falls back to BM25 with a warning on stderr.
	db2 := filepath.Join(t.TempDir(), "o2.db")
	out, errOut, code = runCLI(t, "", "ingest", "--db", db2, "--quiet", "--embedder", "ollama", "--embed-url", "http://127.0.0.1:1", notes)
	if code != 0 || !strings.Contains(out, "Warnings (1)") || !strings.Contains(out, "keyword search works") {
		t.Fatalf("ingest with an unreachable server: exit %d %s\n%s", code, errOut, out)
	}
	_, _, code = runCLI(t, "", "search", "--db", db2, "Norkiel")
	if code != 0 {
		t.Fatal("search failed without vectors")
	}
	_, errOut, code = runCLI(t, "", "ingest", "--db", db2, "--embedder", "magic", notes)
	if code != 2 || !strings.Contains(errOut, `unknown embedder "magic"`) {
		t.Fatalf("unknown embedder: exit %d %q", code, errOut)
	}
}

func writeGolden(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "g.jsonl")
	writeNote(t, p, `{"id":"q1","question":"¿Quién cayó en combate?","kind":"single","sources":[{"file":"Sesiones/Campaña.md","heading":"Sesión 1"}],"answer":"Norkiel"}
`)
	return p
}

func TestCLICompendium(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	notes := smallNotes(t)
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", notes); code != 0 {
		t.Fatal(errOut)
	}
	out, _, code := runCLI(t, "", "compendium", "--db", db)
	if code != 0 || !strings.Contains(out, "Harbin Wester") || !strings.Contains(out, "npc") || !strings.Contains(out, "el viejo") {
		t.Fatalf("compendium list: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "", "compendium", "--db", db, "show", "EL VIEJO", "--json")
	var e struct {
		Name    string   `json:"name"`
		Kind    string   `json:"kind"`
		Aliases []string `json:"aliases"`
		Note    string   `json:"note"`
		Files   []string `json:"files"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &e) != nil || e.Name != "Harbin Wester" || e.Note != "NPCs/Harbin Wester.md" || len(e.Files) == 0 {
		t.Fatalf("compendium show: exit %d %+v\n%s", code, e, out)
	}
	out, _, code = runCLI(t, "", "compendium", "--db", db, "--kind", "npc", "--json")
	if code != 0 || strings.Count(strings.TrimSpace(out), "\n") != 0 || !strings.Contains(out, `"kind":"npc"`) {
		t.Fatalf("compendium --kind npc --json: exit %d\n%s", code, out)
	}
	if _, errOut, code := runCLI(t, "", "compendium", "--db", db, "show", "Nadie"); code != 1 || !strings.Contains(errOut, `"Nadie"`) {
		t.Fatalf("unknown entity: exit %d %q", code, errOut)
	}
	if _, _, code := runCLI(t, "", "compendium", "--db", db, "frob"); code != 2 {
		t.Fatalf("unknown verb: exit %d", code)
	}
}

// --explain says what was understood of the question and weighs each
// path's rank as fusion does (the entity path at its own weight).
func TestCLIExplainAnalysis(t *testing.T) {
	t.Setenv("ORACULO_EMBEDDER", "")
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", filepath.Join("..", "..", "examples", "campaign")); code != 0 {
		t.Fatalf("ingest: exit %d %s", code, errOut)
	}
	out, _, code := runCLI(t, "", "search", "--db", db, "--ui-lang", "en", "--explain", "--k", "3", "¿Qué papel ha jugado Rhosyn Calatrava en la sesión 3?")
	if code != 0 || !strings.Contains(out, "Understood: an arc (") || !strings.Contains(out, "entities: Rhosyn Calatrava · filters: sessions 3") {
		t.Fatalf("arc with a session:\n%s", out)
	}
	out, _, code = runCLI(t, "", "search", "--db", db, "--ui-lang", "es", "--explain", "--k", "8", "¿Qué sabemos de Rhosyn Calatrava?")
	if code != 0 || !strings.Contains(out, "Entendido: una consulta puntual · entidades: Rhosyn Calatrava · filtros: ninguno") {
		t.Fatalf("lookup, Spanish:\n%s", out)
	}
	// The entity path reorders BM25's candidates: the explanation gives
	// each hit's share of the best BM25 score and what the entity path
	// added, summed.
	if !regexp.MustCompile(`bm25:\d+: [01]\.\d{3} de la mejor \+ entidad #\d+: 0\.\d{3} = \d\.\d{3}`).MatchString(out) {
		t.Fatalf("the entity path's lift is not in the explanation:\n%s", out)
	}
	// The keyword path weighed each hit by the share of the question its
	// best paragraph holds: the explanation says it.
	if !regexp.MustCompile(`\(su mejor párrafo tiene [01]\.\d{2} de la pregunta\)`).MatchString(out) {
		t.Fatalf("the coverage is not in the explanation:\n%s", out)
	}
	out, _, _ = runCLI(t, "", "search", "--db", db, "--ui-lang", "en", "--k", "3", "¿Qué sabemos de Rhosyn Calatrava?")
	if strings.Contains(out, "Understood:") {
		t.Fatalf("the analysis is printed without --explain:\n%s", out)
	}
}

// checkIndex runs SQLite's and the index's own consistency checks on the
// file at db, through a handle of its own.
func checkIndex(ctx context.Context, db string) error {
	ix, err := index.Open(ctx, db)
	if err != nil {
		return err
	}
	defer ix.Close()
	return ix.Check(ctx)
}
