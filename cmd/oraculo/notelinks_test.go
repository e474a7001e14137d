package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
)

// TestAskJSONLinksNotes: ask --json's "markdown" links a name its notes
// write as a wikilink to the page of that note (signed with the index's
// link key, at --public-url), not a name whose wikilink names no note;
// "answer" and the terminal's answer show the names alone.
func TestAskJSONLinksNotes(t *testing.T) {
	t.Setenv("ORACULO_TOKENS", "")
	notes := t.TempDir()
	for name, text := range map[string]string{
		"Sesiones/Sesion 3.md": "# Sesión 3\n\n[[harbin|Harbin]] cruzó el puente de Galerna con [[Nadie]].\n",
		"NPCs/Harbin.md":       "# Harbin\n\nEl alcalde.\n",
	} {
		p := filepath.Join(notes, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "o.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", notes); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	const q = "¿Quién cruzó el puente de Galerna?"
	out, errOut, code := runCLI(t, "", "ask", "--db", db, "--json", "--public-url", "https://oraculo.example", q)
	if code != 0 {
		t.Fatalf("ask --json: exit %d: %s", code, errOut)
	}
	var a struct {
		Answer   string `json:"answer"`
		Markdown string `json:"markdown"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Answer, "Harbin cruzó el puente de Galerna con Nadie.") || strings.Contains(a.Answer, "](") {
		t.Errorf("answer: %q", a.Answer)
	}
	m := regexp.MustCompile(`\[Harbin\]\((https://oraculo\.example/n\?[^)\s]+)\) cruzó el puente de Galerna con Nadie\.`).FindStringSubmatch(a.Markdown)
	if m == nil {
		t.Fatalf("markdown does not link Harbin alone:\n%s", a.Markdown)
	}
	u, err := url.Parse(m[1])
	if err != nil {
		t.Fatal(err)
	}
	key, err := link.LoadKey(db)
	if err != nil {
		t.Fatal(err)
	}
	qv := u.Query()
	if qv.Get("file") != "NPCs/Harbin.md" || !(&link.Maker{Key: key}).Valid(link.KindNote, qv.Get("r"), "NPCs/Harbin.md", qv.Get("k")) || qv.Get("r") != oraculo.RoleDM {
		t.Errorf("Harbin's link %s is not the DM's signed link to NPCs/Harbin.md", m[1])
	}

	out, errOut, code = runCLI(t, "", "ask", "--db", db, q)
	if code != 0 || !strings.Contains(out, "Harbin cruzó el puente de Galerna con Nadie.") || strings.Contains(out, "/n?") {
		t.Errorf("the terminal's answer: exit %d\n%s%s", code, out, errOut)
	}
}
