package oraculo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

// inventingModel is a fake chat model (Ollama, streamed three runes a
// piece) whose answers are written by answer from the first label the
// prompt delivers; annotations and reranking as fakeModel's.
func inventingModel(t *testing.T, answer func(label string) string) oraculo.Option {
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		switch kindOf(c) {
		case "annotate":
			return "Resumen de la nota."
		case "rerank":
			return `{"ids":[]}`
		}
		m := labelRe.FindStringSubmatch(c.Text(chat.RoleUser))
		if m == nil {
			return "Las notas no dicen nada de eso."
		}
		return answer(m[1])
	})
	srv.Cut(chattest.Runes(3))
	return oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"}))
}

// An answer whose only citation is invented claims nothing the notes
// back: it abstains, naming the evidence found, and nothing of it is
// streamed as verified.
func TestAskWithoutSupportAbstains(t *testing.T) {
	ctx := context.Background()
	for name, draft := range map[string]string{
		"invented citation": "Además, el dragón huyó al norte [Sesión 99].",
		"no citation":       "El archiduque nos adelantó cien coronas. Además, el dragón huyó al norte.",
	} {
		t.Run(name, func(t *testing.T) {
			eng, _ := openEngine(t, inventingModel(t, func(string) string { return draft }))
			if _, err := eng.Ingest(ctx, []string{askNotes(t)}, oraculo.IngestOptions{}); err != nil {
				t.Fatal(err)
			}
			verified := 0
			a, err := eng.Ask(ctx, "¿Cuánto nos adelantó el archiduque?", oraculo.AskOptions{OnVerified: func([]oraculo.Segment) { verified++ }})
			if err != nil {
				t.Fatal(err)
			}
			if a.Mode != "generated" || !a.Abstained || a.Grounding != "none" {
				t.Fatalf("mode %q, abstained %v, grounding %q: want an abstention; answer %q", a.Mode, a.Abstained, a.Grounding, a.Answer)
			}
			if strings.Contains(a.Answer, "dragón") || !strings.HasPrefix(a.Answer, "Las notas no dicen eso.") || len(a.CitedEvidence()) == 0 {
				t.Errorf("answer %q: want the abstention naming the evidence found", a.Answer)
			}
			if verified != 0 {
				t.Errorf("%d verified parts streamed of an answer that abstains", verified)
			}
		})
	}
}

// A sentence whose invented citation was removed, or that never had one,
// is marked "sin fuente" in the answer, its segments and what is streamed
// as verified; the answer counts its supported sentences.
func TestAskMarksUnsupportedSentences(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t, inventingModel(t, func(label string) string {
		return fmt.Sprintf("El archiduque nos adelantó cien coronas [%s]. Además, el dragón huyó al norte [Sesión 99]. Garrik lo vio todo desde el puerto. Las cajas iban para la Mano Gris [%s].", label, label)
	}))
	if _, err := eng.Ingest(ctx, []string{askNotes(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	var shown []string
	a, err := eng.Ask(ctx, "¿Cuánto nos adelantó el archiduque?", oraculo.AskOptions{OnVerified: func(segs []oraculo.Segment) {
		var b strings.Builder
		for _, s := range segs {
			b.WriteString(s.Text)
		}
		shown = append(shown, b.String())
	}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Abstained || a.Grounding != "direct" {
		t.Fatalf("abstained %v, grounding %q: %q", a.Abstained, a.Grounding, a.Answer)
	}
	for _, s := range []string{"Además, el dragón huyó al norte. _(sin fuente)_ Garrik", "Garrik lo vio todo desde el puerto. _(sin fuente)_ Las cajas"} {
		if !strings.Contains(a.Answer, s) {
			t.Errorf("answer %q: want %q", a.Answer, s)
		}
	}
	if a.Sentences != 4 || a.SupportedSentences != 2 || len(a.Uncited) != 2 {
		t.Errorf("%d of %d sentences supported, uncited %q; want 2 of 4", a.SupportedSentences, a.Sentences, a.Uncited)
	}
	var joined strings.Builder
	var unsupported []string
	for i, s := range a.Segments {
		joined.WriteString(s.Text)
		if s.Supported != nil && !*s.Supported {
			unsupported = append(unsupported, s.Text)
			if i+1 >= len(a.Segments) || a.Segments[i+1].Mark != "unsupported" {
				t.Errorf("segment %q is not followed by its mark: %+v", s.Text, a.Segments)
			}
		}
	}
	if joined.String() != a.Answer || len(unsupported) != 2 {
		t.Errorf("segments %+v: want the answer, two sentences unsupported", a.Segments)
	}
	if len(shown) < 2 {
		t.Fatalf("verified text shown %d times, want it a sentence at a time: %q", len(shown), shown)
	}
	for i, s := range shown {
		if !strings.HasPrefix(a.Answer, s) || (i > 0 && !strings.HasPrefix(s, shown[i-1])) {
			t.Errorf("shown %q does not start the answer %q or go on from %q", s, a.Answer, shown[max(i-1, 0)])
		}
		if strings.Contains(s, "dragón") && !strings.Contains(s, "norte. _(sin fuente)_") {
			t.Errorf("the unsupported sentence was shown unmarked: %q", s)
		}
	}
}
