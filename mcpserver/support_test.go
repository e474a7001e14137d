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
	if !strings.Contains(text(res), marked) || !strings.Contains(text(res), "(1 of 2 sentences supported by the notes") {
		t.Errorf("the text does not mark the unsupported sentence:\n%s", text(res))
	}
}
