package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/mcpserver"
)

// The tools show the notes as their reader sees them: ask's answer,
// search's excerpts, read_chunk's and read_note's text carry no
// raw wikilink, highlight, footnote or tag, and the answer still cites.
func TestToolsRenderMarkup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := filepath.Join(dir, "notas", "Sesiones", "Sesion 3.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	note := "# Sesión 3\n\n[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]] llegó a [[Phandalin]] con ==la espada negra==[^1]. #combate\n\n[^1]: La espada de [[NPCs/Kleb.md]].\n"
	if err := os.WriteFile(p, []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	kleb := filepath.Join(dir, "notas", "NPCs", "Kleb.md")
	if err := os.MkdirAll(filepath.Dir(kleb), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kleb, []byte("## Visto en [[Phandalin]]\n\nMago gnomo, dueño de ==la espada negra==.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := oraculo.Open(ctx, filepath.Join(dir, "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.Ingest(ctx, []string{filepath.Join(dir, "notas")}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, ctx, mcpserver.NewServer(eng, "test"))
	check := func(what, s string, wants ...string) {
		t.Helper()
		for _, bad := range []string{"[[", "((", "==", "(^", "[^", "#combate", "Gloomy"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s shows %q:\n%s", what, bad, s)
			}
		}
		for _, w := range wants {
			if !strings.Contains(s, w) {
				t.Errorf("%s lacks %q:\n%s", what, w, s)
			}
		}
	}
	const want = "Ser Morcant llegó a Phandalin con la espada negra."

	var a mcpserver.AskOutput
	res := call(t, cs, "ask", map[string]any{"question": "¿Con qué llegó Ser Morcant a Phandalin?"}, &a)
	if res.IsError || a.Abstained || len(a.Citations) == 0 || !a.Citations[0].Valid || len(a.Evidence) == 0 {
		t.Fatalf("ask: want a cited answer: %+v %s", a, text(res))
	}
	check("ask's text", text(res), want)
	check("ask's answer", a.Answer, want)

	var s mcpserver.SearchOutput
	res = call(t, cs, "search", map[string]any{"question": "espada negra Ser Morcant"}, &s)
	if res.IsError || len(s.Hits) == 0 {
		t.Fatalf("search: %s", text(res))
	}
	check("search's text", text(res), "Ser Morcant llegó a Phandalin")
	check("search's excerpt", s.Hits[0].Excerpt, "Ser Morcant llegó a Phandalin")

	var c mcpserver.Chunk
	res = call(t, cs, "read_chunk", map[string]any{"id": s.Hits[0].ID}, &c)
	if res.IsError {
		t.Fatalf("read_chunk: %s", text(res))
	}
	check("read_chunk's text", text(res), want, "La espada de Kleb.")
	check("read_chunk's chunk", c.Text, want, "La espada de Kleb.")

	// A heading's markup, in the heading path the tools show.
	res = call(t, cs, "read_note", map[string]any{"file": "NPCs/Kleb.md"}, nil)
	check("read_note's heading path", text(res), "Visto en Phandalin", "Mago gnomo, dueño de la espada negra.")
	res = call(t, cs, "search", map[string]any{"question": "mago gnomo dueño"}, nil)
	check("search's heading path", text(res), "Visto en Phandalin")

	var n mcpserver.Note
	res = call(t, cs, "read_note", map[string]any{"file": "Sesiones/Sesion 3.md"}, &n)
	if res.IsError || len(n.Chunks) == 0 {
		t.Fatalf("read_note: %s", text(res))
	}
	check("read_note's text", text(res), want)
	check("read_note's chunk", n.Chunks[0].Text, want)
}
