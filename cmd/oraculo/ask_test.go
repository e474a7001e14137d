package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/chat/chattest"
)

// TestCLIAskJSON checks the public shape of ask --json, extractive (no
// model) and generated (a fake Ollama), and the chat and show commands.
func TestCLIAskJSON(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CHAT", "")
	db := ingestSmall(t)
	out, errOut, code := runCLI(t, "", "ask", "--db", db, "--json", "¿Quién cayó en combate en el puente?")
	if code != 0 {
		t.Fatalf("ask exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "no chat model") {
		t.Errorf("no warning about the missing chat model: %q", errOut)
	}
	var a map[string]any
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("ask --json: %v\n%s", err, out)
	}
	for _, key := range []string{"answer", "abstained", "citations", "evidence", "query", "timings"} {
		if _, ok := a[key]; !ok {
			t.Errorf("ask --json lacks %q", key)
		}
	}
	if a["abstained"] != false || !strings.Contains(a["answer"].(string), "Norkiel") || a["mode"] != "extractive" {
		t.Fatalf("answer: %v", a)
	}
	cit := a["citations"].([]any)[0].(map[string]any)
	for _, key := range []string{"label", "evidence", "delivered", "valid"} {
		if _, ok := cit[key]; !ok {
			t.Errorf("citation lacks %q: %v", key, cit)
		}
	}
	ev := a["evidence"].([]any)[0].(map[string]any)
	for _, key := range []string{"id", "label", "file", "kind"} {
		if _, ok := ev[key]; !ok {
			t.Errorf("evidence lacks %q: %v", key, ev)
		}
	}
	// show prints the chunk behind a citation.
	id := cit["evidence"].(string)
	out, _, code = runCLI(t, "", "show", "--db", db, id)
	if code != 0 || !strings.Contains(out, "Norkiel cayó en combate") {
		t.Errorf("show %s: exit %d\n%s", id, code, out)
	}
	if _, errOut, code := runCLI(t, "", "show", "--db", db, "nope"); code == 0 || !strings.Contains(errOut, "no such chunk") {
		t.Errorf("show of an unknown id: exit %d, %q", code, errOut)
	}

	// A fake Ollama answers; the invented citation is removed and reported.
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		return "Norkiel cayó ante los trolls [Sesión 1]. Y un dragón [Sesión 99]."
	})
	out, errOut, code = runCLI(t, "", "ask", "--db", db, "--chat", "ollama", "--chat-url", srv.URL, "--chat-model", "fake", "--json", "¿Quién cayó en el puente?")
	if code != 0 {
		t.Fatalf("ask with model: exit %d %s", code, errOut)
	}
	a = map[string]any{}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	removed := a["removed_citations"].([]any)
	if a["mode"] != "generated" || strings.Contains(a["answer"].(string), "Sesión 99") || len(removed) != 1 {
		t.Errorf("generated answer: %v", a)
	}
	// The model's tokens, as the (fake) Ollama counted them.
	if u, _ := a["usage"].(map[string]any); u == nil || u["source"] != "model" || u["prompt_tokens"].(float64) < 50 ||
		u["total_tokens"].(float64) != u["prompt_tokens"].(float64)+u["completion_tokens"].(float64) {
		t.Errorf("generated answer's usage: %v", a["usage"])
	}
	out, _, code = runCLI(t, "", "ask", "--db", db, "--chat", "ollama", "--chat-url", srv.URL, "--chat-model", "fake", "¿Quién cayó en el puente?")
	if code != 0 || !strings.Contains(out, "Removed citations") || !strings.Contains(out, "Sources:") || !strings.Contains(out, "model tokens (counted by the model server)") {
		t.Errorf("ask (text):\n%s", out)
	}

	// chat: a question, a follow-up, opening a source, leaving.
	out, errOut, code = runCLI(t, "¿Quién cayó en combate en el puente?\n¿y por qué?\n/open 1\n/exit\n", "chat", "--db", db)
	if code != 0 {
		t.Fatalf("chat: exit %d %s", code, errOut)
	}
	if !strings.Contains(out, "Norkiel") || !strings.Contains(out, "searched as: ¿Quién cayó en combate en el puente? ¿y por qué?") || !strings.Contains(out, "── [") {
		t.Errorf("chat transcript:\n%s", out)
	}
	for _, bad := range [][]string{{"ask", "--db", db}, {"ask", "--db", db, "--lang", "fr", "x"}, {"ask", "--db", db, "--chat", "nope", "x"}, {"ask", "--db", db, "--rerank", "cross", "x"}} {
		if _, errOut, code := runCLI(t, "", bad...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, %q", bad, code, errOut)
		}
	}
}

func TestEngineTextInSpanish(t *testing.T) {
	old := lang
	defer func() { lang = old }()
	lang = "es"
	for in, want := range map[string]string{
		"missing annotations": "faltan anotaciones de algunos candidatos",
		"unknown id 17":       "el modelo nombró un candidato inexistente (17)",
		"model error: boom":   "error del modelo: boom",
		"something else":      "something else",
		"the chat model failed (x: y); answering from the notes' own sentences":                                                    "el modelo de chat falló (x: y); respondo con frases de las propias notas",
		"the chat model did not answer in time (x: y); answering from the notes' own sentences":                                    "el modelo de chat no respondió a tiempo (x: y); respondo con frases de las propias notas",
		`the index "/m/o.db" is read-only: it is on a read-only file system`:                                                       `el índice "/m/o.db" es de solo lectura: está en un sistema de archivos de solo lectura`,
		`another ingest of this index is running: "/m/o.db": pid 42 (oraculo ingest notas) since 2026-12-02 07:00:00 UTC holds it`: `otra ingesta de este índice está en curso: "/m/o.db": la lleva el proceso 42 (oraculo ingest notas) desde 2026-12-02 07:00:00 UTC`,
		`another ingest of this index is running: "/m/o.db": another process holds it`:                                             `otra ingesta de este índice está en curso: "/m/o.db": la lleva otro proceso`,
	} {
		if got := engineText(in); got != want {
			t.Errorf("engineText(%q) = %q, want %q", in, got, want)
		}
	}
	lang = "en"
	if got := engineText("missing annotations"); got != "missing annotations" {
		t.Errorf("English interface changed the text: %q", got)
	}
}

// The note that the model thinks comes before the answer streams, never
// inside it, in the interface language.
func TestThinkingNote(t *testing.T) {
	old := lang
	defer func() { lang = old }()
	for l, want := range map[string]string{"es": "(el modelo está pensando…)\n", "en": "(the model is thinking…)\n"} {
		lang = l
		var w strings.Builder
		streamed := false
		note := thinkingNote(&w, &streamed)
		note()
		streamed = true
		note()
		if w.String() != want {
			t.Errorf("%s: %q, want %q", l, w.String(), want)
		}
	}
}
