package oraculo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/eval"
)

// askNotes is a tiny campaign: two sessions and an NPC.
func askNotes(t *testing.T) string {
	dir := t.TempDir()
	write(t, dir+"/Sesiones/Sesion 1.md", "# Sesión 1\n\nEl archiduque Leoric nos recibe en palacio. Nos adelanta cien coronas de oro por encontrar el sello gris.\n\nAl salir, una mujer con máscara de plata nos sigue hasta el puerto.\n")
	write(t, dir+"/Sesiones/Sesion 2.md", "# Sesión 2\n\nEn el puerto encontramos al contrabandista Garrik. Garrik confiesa que las cajas iban para la Mano Gris.\n\nEsa noche el archiduque cae enfermo: alguien lo envenena con beso de ceniza.\n")
	write(t, dir+"/NPCs/Garrik.md", "# Garrik\n\nContrabandista manco del puerto de Caldemora. Le faltan dos dedos.\n")
	return dir
}

// kindOf tells the fake server's calls apart by their prompt.
func kindOf(c chattest.Call) string {
	switch {
	case c.JSON:
		return "rerank"
	case c.MaxTokens > 0 && c.MaxTokens <= 200:
		return "annotate"
	}
	return "answer"
}

var labelRe = regexp.MustCompile(`### \[([^\]]+)\]`)

// fakeModel answers like a careful model: annotations are the chunk's
// first words; the reranker keeps the order; answers cite the first
// evidence label they were shown, plus a label that was never delivered.
func fakeModel(t *testing.T) (*chattest.Server, *atomic.Int32) {
	var annotations atomic.Int32
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		switch kindOf(c) {
		case "annotate":
			annotations.Add(1)
			words := strings.Fields(c.Text(chat.RoleUser))
			return "Resumen: " + strings.Join(words[len(words)-min(8, len(words)):], " ")
		case "rerank":
			return `{"ids":[2,1]}`
		}
		m := labelRe.FindStringSubmatch(c.Text(chat.RoleUser))
		if m == nil {
			return "Las notas no dicen nada de eso."
		}
		return fmt.Sprintf("El archiduque nos adelantó cien coronas [%s]. Luego llegó el dragón [Sesión 119].", m[1])
	})
	return srv, &annotations
}

func TestAskGeneratedVerifiesCitations(t *testing.T) {
	ctx := context.Background()
	srv, annotations := fakeModel(t)
	model := chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"})
	eng, _ := openEngine(t, oraculo.WithChatModel(model))
	rep, err := eng.Ingest(ctx, []string{askNotes(t)}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Annotate == nil || rep.Annotate.Annotated != 3 || rep.Annotate.Pending != 0 || annotations.Load() != 3 {
		t.Fatalf("annotate report %+v, %d calls; want 3 chunks annotated", rep.Annotate, annotations.Load())
	}
	// Unchanged chunks are never annotated twice.
	if rep, err = eng.Ingest(ctx, []string{askNotes(t)}, oraculo.IngestOptions{}); err != nil || rep.Annotate.Annotated != 0 || rep.Annotate.Cached != 3 || annotations.Load() != 3 {
		t.Fatalf("second ingest: %+v, %v, %d calls", rep.Annotate, err, annotations.Load())
	}

	var streamed strings.Builder
	a, err := eng.Ask(ctx, "¿Cuánto nos adelantó el archiduque?", oraculo.AskOptions{OnDelta: func(s string) { streamed.WriteString(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != "generated" || a.Abstained || a.Lang != "es" {
		t.Fatalf("mode %q abstained %v lang %q", a.Mode, a.Abstained, a.Lang)
	}
	if !strings.Contains(streamed.String(), "[Sesión 119]") {
		t.Errorf("the raw answer was not streamed: %q", streamed.String())
	}
	if strings.Contains(a.Answer, "Sesión 119") || len(a.Removed) != 1 || a.Removed[0].Label != "Sesión 119" || a.Removed[0].Valid {
		t.Errorf("the invented citation was not removed: answer %q, removed %+v", a.Answer, a.Removed)
	}
	var valid int
	for _, c := range a.Citations {
		if c.Valid {
			valid++
			if c.Evidence == nil || !c.Delivered {
				t.Errorf("valid citation without delivered evidence: %+v", c)
			}
		}
	}
	if valid != 1 || len(a.Citations) != 2 {
		t.Errorf("citations %+v: want one valid and one invalid", a.Citations)
	}
	if a.Rerank.Reranker == "" || !a.Rerank.Reranked {
		t.Errorf("rerank %+v: with every candidate annotated, the model's order should be used", a.Rerank)
	}
	if len(a.Evidence) == 0 || a.Evidence[0].Kind != "full" || a.Query != a.Question {
		t.Errorf("evidence %+v query %q", a.Evidence, a.Query)
	}
	// The model saw annotations in the reranking call, never raw text.
	for _, c := range srv.Calls() {
		if kindOf(c) == "rerank" && strings.Contains(c.Text(chat.RoleUser), "cien coronas de oro por encontrar") {
			t.Error("the reranker was shown raw chunk text")
		}
	}
}

func TestAskFallsBackWhenTheModelIsDown(t *testing.T) {
	ctx := context.Background()
	srv, _ := fakeModel(t)
	eng, db := openEngine(t)
	var warnings []string
	if _, err := eng.Ingest(ctx, []string{askNotes(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	eng = reopen(t, db, oraculo.WithWarnings(func(s string) { warnings = append(warnings, s) }),
		oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"})))
	srv.Fail(chattest.Fault{Status: 503})
	a, err := eng.Ask(ctx, "¿Qué confiesa Garrik sobre las cajas?", oraculo.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != "extractive" || len(a.Warnings) == 0 || len(warnings) == 0 {
		t.Fatalf("mode %q warnings %q: a failing model should give an extractive answer and a warning", a.Mode, a.Warnings)
	}
	// No annotations were made: the reranker keeps the fused order.
	if a.Rerank.Reranked || !strings.Contains(a.Rerank.Fallback, "annotation") {
		t.Errorf("rerank %+v: want the missing-annotations fallback", a.Rerank)
	}
	if a.Abstained || !strings.Contains(a.Answer, "Mano Gris") || len(a.Removed) != 0 {
		t.Errorf("extractive answer %q (removed %+v)", a.Answer, a.Removed)
	}
}

func TestAskFollowUpAndAbstention(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{askNotes(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	a, err := eng.Ask(ctx, "¿y después?", oraculo.AskOptions{History: []oraculo.Turn{{Question: "¿Qué le pasó al archiduque?"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !a.FollowUp || !strings.Contains(a.Query, "archiduque") || a.Question != "¿y después?" {
		t.Errorf("follow-up: query %q, follow_up %v", a.Query, a.FollowUp)
	}
	a, err = eng.Ask(ctx, "¿Qué opina Garrik de los gnomos voladores?", oraculo.AskOptions{History: []oraculo.Turn{{Question: "¿Qué le pasó al archiduque?"}}})
	if err != nil || a.FollowUp {
		t.Errorf("a question naming someone is not a follow-up: %+v %v", a.Query, err)
	}
	a, err = eng.Ask(ctx, "xylofón cuántico zzzq", oraculo.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Abstained || a.Mode != "extractive" {
		t.Errorf("nothing retrieved: abstained %v mode %q answer %q", a.Abstained, a.Mode, a.Answer)
	}
	if a, err = eng.Ask(ctx, "What did Garrik confess about the boxes?", oraculo.AskOptions{}); err != nil || a.Lang != "en" {
		t.Errorf("English question: lang %q, %v", a.Lang, err)
	}
}

// TestAnnotationsResume: a model that fails midway leaves the rest
// pending; the next ingest annotates only those.
func TestAnnotationsResume(t *testing.T) {
	ctx := context.Background()
	srv, annotations := fakeModel(t)
	real := chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"})
	var calls atomic.Int32
	eng, db := openEngine(t, oraculo.WithChatModel(failingAfter{real, &calls, 1}))
	notes := askNotes(t)
	rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{AnnotateWorkers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Annotate.Annotated != 1 || rep.Annotate.Pending != 2 || rep.Annotate.Error == "" || len(rep.Warnings) == 0 {
		t.Fatalf("first ingest: %+v, warnings %+v", rep.Annotate, rep.Warnings)
	}
	eng = reopen(t, db, oraculo.WithChatModel(failingAfter{real, &calls, 1 << 30}))
	if rep, err = eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil || rep.Annotate.Annotated != 2 || rep.Annotate.Cached != 1 {
		t.Fatalf("second ingest: %+v %v", rep.Annotate, err)
	}
	if n := annotations.Load(); n != 3 {
		t.Errorf("%d successful annotation calls, want 3 (nothing annotated twice)", n)
	}
}

// TestEvalAnswersOnSample runs the answer evaluation on the sample
// campaign: extractive answers' citations must all be valid, and with a
// model whose chunks have no annotations the reranker must fall back to
// the fused order, so Recall@8 after reranking equals the fused one.
func TestEvalAnswersOnSample(t *testing.T) {
	ctx := context.Background()
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	qs, err := eval.Load(sampleGolden)
	if err != nil {
		t.Fatal(err)
	}
	ext, err := eval.EvaluateAnswers(ctx, qs, "extractive", eval.EngineAsker(eng, oraculo.AskOptions{Extractive: true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("extractive: %+v", *ext)
	if ext.Citations == 0 || ext.CitationValidity != 1 || ext.CitedAnswers < 0.9 {
		t.Errorf("extractive citations: %d, validity %.3f, cited answers %.3f", ext.Citations, ext.CitationValidity, ext.CitedAnswers)
	}
	if ext.FusedRecall8 != ext.RerankRecall8 || ext.Reranked != 0 {
		t.Errorf("no model: recall@8 %.3f → %.3f, %d reranked", ext.FusedRecall8, ext.RerankRecall8, ext.Reranked)
	}
	if ext.AbstentionAccuracy < 0.5 {
		t.Errorf("abstention accuracy %.3f", ext.AbstentionAccuracy)
	}

	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		if c.JSON {
			return `{"ids":[1]}`
		}
		return "Las notas no dicen eso."
	})
	eng = reopen(t, db, oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"})))
	gen, err := eval.EvaluateAnswers(ctx, qs[:20], "fake", eval.EngineAsker(eng, oraculo.AskOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if gen.FusedRecall8 != gen.RerankRecall8 || gen.Reranked != 0 || gen.Fallbacks["missing annotations"] == 0 {
		t.Errorf("fake model without annotations: recall@8 %.3f → %.3f, reranked %d, fallbacks %v", gen.FusedRecall8, gen.RerankRecall8, gen.Reranked, gen.Fallbacks)
	}
	for _, c := range srv.Calls() {
		if c.JSON {
			t.Fatal("the reranker called the model although annotations were missing")
		}
	}
}

// failingAfter is a model whose server loses the model after n calls.
type failingAfter struct {
	chat.Model
	calls *atomic.Int32
	n     int32
}

func (f failingAfter) Chat(ctx context.Context, req chat.Request, onDelta func(string)) (string, error) {
	if f.calls.Add(1) > f.n {
		return "", fmt.Errorf("fake: %w", chat.ErrModel)
	}
	return f.Model.Chat(ctx, req, onDelta)
}

// TestIngestNoneForgetsTheModels: an ingest with the chat model and the
// embedder set to none stores that choice, so later commands (which load
// the index's) run without them.
func TestIngestNoneForgetsTheModels(t *testing.T) {
	ctx := context.Background()
	srv, _ := fakeModel(t)
	eng, db := openEngine(t, oraculo.WithChat(oraculo.ChatConfig{Provider: "ollama", URL: srv.URL, Model: "fake"}),
		oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "hashing", Dims: 64}))
	notes := askNotes(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	stored := func() *oraculo.Engine {
		return reopen(t, db, oraculo.WithChat(oraculo.ChatConfig{}), oraculo.WithEmbedder(oraculo.EmbedderConfig{}))
	}
	if e := stored(); e.ChatModel() == nil || e.Embedder() == nil {
		t.Fatal("the models named at ingest are not remembered")
	}
	eng = reopen(t, db, oraculo.WithChat(oraculo.ChatConfig{Provider: "none"}), oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "none"}))
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if e := stored(); e.ChatModel() != nil || e.Embedder() != nil {
		t.Errorf("after ingest with none: chat %v, embedder %v", e.ChatModel(), e.Embedder())
	}
}

// A thinking model's reasoning, inline or sent apart, streamed in pieces
// cut anywhere and left unclosed at the end, never reaches a delta nor
// the answer, through either server's API; the caller learns when the
// model thinks.
func TestAskHidesReasoning(t *testing.T) {
	ctx := t.Context()
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	const secret = "RAZONAMIENTO-OCULTO"
	reply := func(c chattest.Call) string {
		if c.JSON {
			return `{"ids":[]}`
		}
		m := labelRe.FindStringSubmatch(c.Text(chat.RoleUser))
		if m == nil {
			return "Las notas no dicen nada de eso."
		}
		return "<think>\nThe user asks about the archduke. " + secret + "\n</think>\n\n" +
			"El archiduque pagó la armadura [" + m[1] + "]. <THINK>\nWait, " + secret
	}
	ollama := func(url string) chat.Model { return chat.NewOllama(chat.OllamaConfig{BaseURL: url, Model: "fake"}) }
	openAI := func(url string) chat.Model { return chat.NewOpenAI(chat.OpenAIConfig{BaseURL: url, Model: "fake"}) }
	for _, tc := range []struct {
		name   string
		start  func(testing.TB, func(chattest.Call) string) *chattest.Server
		model  func(url string) chat.Model
		cut    int  // runes a piece, 0 for the default pieces
		reason bool // reasoning apart too
	}{
		{name: "ollama", start: chattest.NewOllama, model: ollama},
		{name: "ollama, one rune a piece", start: chattest.NewOllama, model: ollama, cut: 1},
		{name: "ollama, three runes a piece, reasoning apart", start: chattest.NewOllama, model: ollama, cut: 3, reason: true},
		{name: "openai", start: chattest.NewOpenAI, model: openAI},
		{name: "openai, two runes a piece", start: chattest.NewOpenAI, model: openAI, cut: 2},
		{name: "openai, reasoning_content", start: chattest.NewOpenAI, model: openAI, cut: 5, reason: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.start(t, reply)
			if tc.cut > 0 {
				srv.Cut(chattest.Runes(tc.cut))
			}
			if tc.reason {
				srv.Reason(func(chattest.Call) string { return "Apart: " + secret })
			}
			eng := reopen(t, db, oraculo.WithChatModel(tc.model(srv.URL)))
			var deltas []string
			var events strings.Builder // "T" for thinking, "d" for a delta
			a, err := eng.Ask(ctx, "¿Qué le pagó el archiduque a Tomás?", oraculo.AskOptions{
				OnDelta: func(s string) {
					deltas = append(deltas, s)
					events.WriteString("d")
				},
				OnThinking: func() { events.WriteString("T") },
			})
			if err != nil {
				t.Fatal(err)
			}
			if a.Mode != "generated" || a.Abstained {
				t.Fatalf("mode %q, abstained %v, warnings %q", a.Mode, a.Abstained, a.Warnings)
			}
			streamed := strings.Join(deltas, "")
			whole, _ := json.Marshal(a)
			for what, text := range map[string]string{"the deltas": streamed, "the answer": string(whole)} {
				if strings.Contains(text, secret) || strings.Contains(strings.ToLower(text), "think>") {
					t.Errorf("reasoning reached %s: %s", what, text)
				}
			}
			if !strings.HasPrefix(streamed, "El archiduque pagó la armadura [") || !strings.HasSuffix(streamed, "]. ") {
				t.Errorf("deltas %q, want the answer's text", streamed)
			}
			if valid := len(a.CitedEvidence()); valid != 1 || !strings.HasPrefix(a.Answer, "El archiduque pagó la armadura [") {
				t.Errorf("answer %q with %d cited sources", a.Answer, valid)
			}
			// Thinking first, then the answer's deltas, then thinking again
			// (the block left unclosed).
			if ev := events.String(); !strings.HasPrefix(ev, "Td") || strings.Count(ev, "T") != 2 || !strings.HasSuffix(ev, "dT") {
				t.Errorf("events %q, want thinking, deltas, thinking", ev)
			}
		})
	}
}
