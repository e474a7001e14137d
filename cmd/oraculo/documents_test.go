package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIngestDocuments: a folder with documents besides notes (made by real
// tools: see load/testdata/README.md) is ingested as notes are. Each
// readable document becomes chunks whose labels name their pages when it
// has pages; a scan, an encrypted PDF and a damaged DOCX are skipped with
// their reasons and never stop the run; the summary and stats count the
// documents by type; a re-run reads nothing again.
func TestIngestDocuments(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	dir := t.TempDir()
	fixture := func(from, to string) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join("..", "..", "load", "testdata", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fixture("pdf/indice.pdf", "Módulos/aventura.pdf")
	fixture("pdf/escaneo.pdf", "Módulos/escaneo.pdf")
	fixture("pdf/cifrado.pdf", "Módulos/cifrado.pdf")
	fixture("docx/reglas.docx", "Reglas/reglas.docx")
	fixture("odt/reglas.odt", "Reglas/reglas.odt")
	fixture("html/anika-fandom.html", "Wiki/anika.html")
	fixture("epub/torre.epub", "Libros/torre.epub")
	if err := os.WriteFile(filepath.Join(dir, "Reglas", "roto.docx"), []byte("PK\x03\x04 a truncated archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Sesion 1.md"), []byte("# Sesión 1\n\nLlegamos a la costa.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "o.db")
	out, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", dir)
	if code != 0 {
		t.Fatalf("ingest: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"Documents read: 1 DOCX, 1 EPUB, 1 HTML, 1 ODT, 1 PDF (",
		"Módulos/escaneo.pdf — no text to read (a scan?)",
		"Módulos/cifrado.pdf — encrypted (it needs a password)",
		"Reglas/roto.docx — damaged or not what its name says (not a valid DOCX file)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}

	out, _, code = runCLI(t, "", "chunks", "--db", db, "--json")
	if code != 0 {
		t.Fatal(out)
	}
	kinds := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var c struct {
			File      string `json:"file"`
			Label     string `json:"label"`
			PageStart *int   `json:"page_start"`
			PageEnd   *int   `json:"page_end"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		kinds[filepath.Ext(c.File)] = true
		paged := strings.HasSuffix(c.File, ".pdf")
		switch {
		case paged && (c.PageStart == nil || c.PageEnd == nil || *c.PageStart < 1 || *c.PageEnd < *c.PageStart):
			t.Errorf("a PDF chunk without its pages: %+v", c)
		case paged && !strings.Contains(c.Label, ", p"):
			t.Errorf("a PDF chunk's label does not name its page: %q", c.Label)
		case !paged && (c.PageStart != nil || strings.Contains(c.Label, ", p. ")):
			t.Errorf("a chunk of %s has pages: %+v", c.File, c)
		}
	}
	for _, ext := range []string{".pdf", ".docx", ".odt", ".html", ".epub", ".md"} {
		if !kinds[ext] {
			t.Errorf("no chunk of a %s file", ext)
		}
	}

	out, _, _ = runCLI(t, "", "stats", "--db", db, "--json")
	var st struct {
		Documents int            `json:"documents"`
		ByType    map[string]int `json:"documents_by_type"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("stats --json: %v\n%s", err, out)
	}
	want := map[string]int{"pdf": 1, "docx": 1, "odt": 1, "html": 1, "epub": 1, "md": 1}
	if st.Documents != 6 || len(st.ByType) != len(want) {
		t.Errorf("stats: %d documents, by type %v, want 6, %v", st.Documents, st.ByType, want)
	}
	for k, n := range want {
		if st.ByType[k] != n {
			t.Errorf("stats by type %s = %d, want %d", k, st.ByType[k], n)
		}
	}

	// Unchanged: nothing is read again, and the skipped stay skipped.
	out, _, _ = runCLI(t, "", "ingest", "--db", db, "--quiet", dir)
	if !strings.Contains(out, "(0 indexed, 6 unchanged, 0 removed)") || strings.Contains(out, "Documents read") {
		t.Errorf("an unchanged re-run:\n%s", out)
	}
}
