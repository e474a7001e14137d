package main

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oraculo/oraculo/chat/chattest"
)

// No claim without support on the command line: an answer whose only
// citation is invented abstains in ask, ask --json and chat; a sentence
// whose citation was invented is marked "sin fuente" and counted.
func TestCLIAnswersWithoutSupport(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CHAT", "")
	db := ingestSmall(t)
	var reply atomic.Value
	reply.Store("Norkiel cayó ante los trolls [Sesión 1]. Además, el dragón huyó al norte [Sesión 99].")
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		if c.JSON {
			return `{"ids":[]}`
		}
		return reply.Load().(string)
	})
	model := []string{"--db", db, "--chat", "ollama", "--chat-url", srv.URL, "--chat-model", "fake"}
	ask := func(args ...string) string {
		t.Helper()
		out, errOut, code := runCLI(t, "", append(append([]string{"ask"}, model...), args...)...)
		if code != 0 {
			t.Fatalf("ask %v: exit %d %s", args, code, errOut)
		}
		return out
	}
	const question = "¿Quién cayó en el puente?"
	const marked = "Además, el dragón huyó al norte. _(sin fuente)_"

	var a struct {
		Answer             string `json:"answer"`
		Abstained          bool   `json:"abstained"`
		Grounding          string `json:"grounding"`
		Sentences          int    `json:"sentences"`
		SupportedSentences int    `json:"supported_sentences"`
		Markdown           string `json:"markdown"`
		Segments           []struct {
			Text      string `json:"text"`
			Supported *bool  `json:"supported"`
			Mark      string `json:"mark"`
		} `json:"segments"`
	}
	out := ask("--json", question)
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("ask --json: %v\n%s", err, out)
	}
	if a.Abstained || a.Grounding != "direct" || !strings.HasSuffix(a.Answer, marked) || a.Sentences != 2 || a.SupportedSentences != 1 || !strings.Contains(a.Markdown, marked) {
		t.Errorf("ask --json: %s", out)
	}
	var unsupported, marks []string
	for _, s := range a.Segments {
		if s.Supported != nil && !*s.Supported {
			unsupported = append(unsupported, s.Text)
		}
		if s.Mark != "" {
			marks = append(marks, s.Mark+":"+s.Text)
		}
	}
	if strings.Join(unsupported, "|") != "Además, el dragón huyó al norte." || strings.Join(marks, "|") != "unsupported: _(sin fuente)_" {
		t.Errorf("segments: unsupported %q, marks %q", unsupported, marks)
	}
	out = ask(question)
	if !strings.Contains(out, marked) || !strings.Contains(out, "1 of 2 sentences are supported by the notes; the others are marked (sin fuente).") || strings.Contains(out, "answered by the notes") {
		t.Errorf("ask:\n%s", out)
	}
	out, errOut, code := runCLI(t, question+"\n/exit\n", append([]string{"chat"}, model...)...)
	if code != 0 || !strings.Contains(out, marked) {
		t.Errorf("chat: exit %d %s\n%s", code, errOut, out)
	}

	reply.Store("Además, el dragón huyó al norte [Sesión 99].")
	out = ask("--json", question)
	a.Abstained, a.Grounding = false, ""
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if !a.Abstained || a.Grounding != "none" || strings.Contains(out, "dragón") {
		t.Errorf("ask --json, the only citation invented: %s", out)
	}
	for _, out := range []string{ask(question), func() string {
		o, _, _ := runCLI(t, question+"\n/exit\n", append([]string{"chat"}, model...)...)
		return o
	}()} {
		if strings.Contains(out, "dragón") || !strings.Contains(out, "the notes do not say") {
			t.Errorf("ask or chat, the only citation invented:\n%s", out)
		}
	}
}
