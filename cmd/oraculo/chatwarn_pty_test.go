//go:build linux

package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestChatWarningWrapped: on a terminal 60 columns wide, the warning the
// chat starts with (no chat model) comes in lines of at most 60 columns,
// cut between words, in English and in Spanish: the terminal, wrapping a
// longer line itself, would cut it mid-word.
func TestChatWarningWrapped(t *testing.T) {
	t.Setenv("ORACULO_CHAT", "")
	defer func(was string) { lang = was }(lang)
	db := ingestSmall(t)
	for _, ui := range []string{"en", "es"} {
		t.Run(ui, func(t *testing.T) {
			p := startPTYChat(t, []string{"ORACULO_UI_LANG=" + ui}, "--db", db, "--chat", "none")
			hello := map[string]string{"en": "Ask about your notes", "es": "Pregunta sobre tus notas"}[ui]
			p.expect(hello)
			shown := p.all()
			shown = shown[:strings.Index(shown, hello)]
			lang = ui
			warning := msg("warning", msg("no-chat-model"))
			lines := strings.Split(strings.TrimRight(strings.ReplaceAll(shown, "\r", ""), "\n"), "\n")
			if len(lines) < 3 || strings.Join(lines, " ") != warning {
				t.Fatalf("the warning, in %d lines, is not %q cut between words:\n%q", len(lines), warning, shown)
			}
			for _, l := range lines {
				if utf8.RuneCountInString(l) > 60 {
					t.Errorf("a line of %d columns on a terminal of 60: %q", utf8.RuneCountInString(l), l)
				}
			}
			p.typeKeys("\x04")
			if code := p.exited(); code != 0 {
				t.Errorf("exit %d", code)
			}
		})
	}
}
