package mcpserver_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/mcpserver"
)

var evidenceLabel = regexp.MustCompile(`### \[([^\]]+)\]`)

// modelEngine ingests notes into a fresh index whose chat model, a fake
// Ollama server, answers with write(the first label delivered).
func modelEngine(t *testing.T, write func(label string) string) *oraculo.Engine {
	t.Helper()
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		if c.JSON {
			return `{"ids":[]}`
		}
		if m := evidenceLabel.FindStringSubmatch(c.Text(chat.RoleUser)); m != nil {
			return write(m[1])
		}
		return "Resumen."
	})
	ctx := context.Background()
	dir := t.TempDir()
	eng, err := oraculo.Open(ctx, filepath.Join(dir, "o.db"), oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.Ingest(ctx, []string{writeNotes(t, dir)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	return eng
}

// ask answers no claim without support: an answer whose only citation is
// invented abstains; a sentence left without a citation is marked in the
// answer and the text, and counted.
func TestAskWithoutSupport(t *testing.T) {
	const question = "¿Qué encontraron en las cuevas bajo el faro?"
	eng := modelEngine(t, func(string) string { return "Además, el dragón huyó al norte [Sesión 99]." })
	cs := connect(t, context.Background(), mcpserver.NewServer(eng, "test"))
	var out mcpserver.AskOutput
	res := call(t, cs, "ask", map[string]any{"question": question}, &out)
	if res.IsError || !out.Abstained || out.Grounding != "none" || strings.Contains(text(res), "dragón") || !strings.HasPrefix(out.Answer, "Las notas no dicen eso.") {
		t.Errorf("an answer whose only citation is invented: %+v\n%s", out, text(res))
	}

	eng = modelEngine(t, func(label string) string {
		return fmt.Sprintf("Encontraron cajas con el sello gris [%s]. Además, el dragón huyó al norte [Sesión 99].", label)
	})
	cs = connect(t, context.Background(), mcpserver.NewServer(eng, "test"))
	out = mcpserver.AskOutput{}
	res = call(t, cs, "ask", map[string]any{"question": question}, &out)
	const marked = "Además, el dragón huyó al norte. _(sin fuente)_"
	if res.IsError || out.Abstained || !strings.HasSuffix(out.Answer, marked) || out.Sentences != 2 || out.SupportedSentences != 1 {
		t.Errorf("one sentence supported, one not: %+v", out)
	}
	if !strings.Contains(text(res), marked) || !strings.Contains(text(res), "(1 de 2 frases respaldadas por las notas") || !strings.Contains(text(res), "\nFuentes:\n") {
		t.Errorf("the text does not mark the unsupported sentence, in Spanish:\n%s", text(res))
	}
}

// TestAbstentionInOneLanguage: the text of an answer that abstains is in
// the question's language from start to end, its note on abstaining too.
func TestAbstentionInOneLanguage(t *testing.T) {
	eng := modelEngine(t, func(string) string { return "The dragon fled north [Session 99]. El dragón huyó [Sesión 99]." })
	cs := connect(t, context.Background(), mcpserver.NewServer(eng, "test"))
	for _, c := range []struct {
		question, want string
		unwanted       []string
	}{
		{"¿Qué encontraron en las cuevas bajo el faro?", "(Las notas no responden a esta pregunta.)", []string{"The notes", "Sources", "sentences", "question"}},
		{"What did they find in the caves under the lighthouse?", "(The notes do not answer this question.)", []string{"Las notas", "Fuentes", "frases", "pregunta"}},
	} {
		var out mcpserver.AskOutput
		res := call(t, cs, "ask", map[string]any{"question": c.question}, &out)
		got := text(res)
		if res.IsError || !out.Abstained || !strings.HasSuffix(strings.TrimSpace(got), c.want) {
			t.Errorf("%q: abstained %v, text:\n%s\nwant it to end %q", c.question, out.Abstained, got, c.want)
		}
		for _, u := range c.unwanted {
			if strings.Contains(got, u) {
				t.Errorf("%q: the text mixes in %q:\n%s", c.question, u, got)
			}
		}
	}
}
