package oraculo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

// markupNotes is a campaign written the Obsidian way: wikilinks with and
// without shown text, a highlight, a footnote, a tag, strikethrough.
func markupNotes(t *testing.T) string {
	dir := t.TempDir()
	write(t, dir+"/Sesiones/Sesion 3.md", "# Sesión 3\n\n"+
		"[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]] llegó a [[Phandalin]] con ==la espada negra==[^1] y ~~mató~~ hirió al dragón rojo. #combate\n\n"+
		"[^1]: La espada de [[NPCs/Kleb.md]].\n")
	write(t, dir+"/NPCs/Kleb.md", "# Kleb\n\nMago gnomo de [[Phandalin]], dueño de ==la espada negra==.\n")
	return dir
}

// rawMarkup is what no answer surface may show of the notes' markup, raw
// or bracket-escaped.
var rawMarkup = []string{"[[", "((", "==", "(^", "[^", "#combate", "Gloomy"}

// An answer, extractive or generated, and the evidence it shows are the
// notes as their reader sees them; the quoted sentence still cites its
// note validly, and the model is shown the same clean text.
func TestAskRendersMarkup(t *testing.T) {
	ctx := context.Background()
	var prompts []string
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		switch kindOf(c) {
		case "annotate":
			return "Resumen."
		case "rerank":
			return `{"ids":[]}`
		}
		prompts = append(prompts, c.Text(chat.RoleUser))
		m := labelRe.FindStringSubmatch(c.Text(chat.RoleUser))
		return "Ser Morcant hirió al dragón rojo [" + m[1] + "]."
	})
	model := oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"}))
	for _, mode := range []string{"extractive", "generated"} {
		t.Run(mode, func(t *testing.T) {
			var opts []oraculo.Option
			if mode == "generated" {
				opts = append(opts, model)
			}
			eng, _ := openEngine(t, opts...)
			if _, err := eng.Ingest(ctx, []string{markupNotes(t)}, oraculo.IngestOptions{}); err != nil {
				t.Fatal(err)
			}
			a, err := eng.Ask(ctx, "¿Con qué llegó Ser Morcant a Phandalin?", oraculo.AskOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Mode != mode || a.Abstained || len(a.CitedEvidence()) == 0 {
				t.Fatalf("mode %q, abstained %v, cited %d: want a cited answer; %q", a.Mode, a.Abstained, len(a.CitedEvidence()), a.Answer)
			}
			for _, c := range a.Citations {
				if !c.Valid {
					t.Errorf("citation %+v not valid in %q", c, a.Answer)
				}
			}
			shown := []string{a.Answer}
			for _, s := range a.Segments {
				shown = append(shown, s.Text)
			}
			for _, e := range a.Evidence {
				shown = append(shown, e.Text)
			}
			shown = append(shown, prompts...)
			for _, s := range shown {
				for _, bad := range rawMarkup {
					if strings.Contains(s, bad) {
						t.Errorf("%q shows %q", s, bad)
					}
				}
			}
			if want := "Ser Morcant llegó a Phandalin con la espada negra y ~~mató~~ hirió al dragón rojo."; mode == "extractive" && !strings.Contains(a.Answer, want) {
				t.Errorf("answer %q does not quote %q", a.Answer, want)
			}
		})
	}
	if len(prompts) == 0 {
		t.Fatal("the model was never asked")
	}
}
