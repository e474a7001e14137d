package main

import (
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	names := []string{"ingest", "search", "ask", "chat", "chunks", "check", "stats", "lang", "session", "json", "k"}
	for typo, want := range map[string]string{
		"serach":     "search", // two letters swapped: one edit
		"lnag":       "lang",
		"sesion":     "session",
		"jsno":       "json",
		"serch":      "search",
		"sea":        "search", // a prefix
		"chnks":      "chunks",
		"kk":         "k",
		"j":          "", // one letter is one edit from any short name
		"xyz":        "",
		"frobnicate": "",
		"s":          "", // too short for a prefix to mean anything
		"chekc":      "check",
	} {
		if got := nearest(typo, names); got != want {
			t.Errorf("nearest(%q) = %q, want %q", typo, got, want)
		}
	}
}

// TestDidYouMean: a mistyped command, verb or flag is a usage error (exit
// 2) that names the one meant, in the interface's language; a word like
// none still gets the usage.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args   []string
		ui     string
		want   []string
		unwant string
	}{
		{[]string{"serach"}, "en", []string{`unknown command "serach"`, `did you mean "search"?`, "oraculo help lists the commands"}, "Usage:"},
		{[]string{"serach"}, "es", []string{"orden desconocida «serach»", "¿querías decir «search»?", "oraculo help muestra las órdenes"}, "Uso:"},
		{[]string{"chnks", "--db", "x.db"}, "en", []string{`did you mean "chunks"?`}, ""},
		{[]string{"frobnicate"}, "en", []string{`unknown command "frobnicate"`, "Usage:"}, "did you mean"},
		{[]string{"frobnicate"}, "es", []string{"orden desconocida «frobnicate»", "Uso:"}, "querías decir"},
		{[]string{"ask", "--lnag", "es", "hola"}, "en", []string{"not defined: -lnag", "did you mean --lang?", "oraculo ask -h"}, ""},
		{[]string{"ingest", "--lnag", "es", "."}, "es", []string{"opción desconocida: -lnag", "¿querías decir --lang?", "oraculo ingest -h"}, ""},
		{[]string{"stats", "--jsno"}, "en", []string{"did you mean --json?"}, ""},
		{[]string{"token", "ad", "x"}, "en", []string{`token has no command "ad"; did you mean "add"?`}, ""},
		{[]string{"memory", "lst"}, "es", []string{"memory no tiene la orden «lst»; ¿querías decir «list»?"}, ""},
		{[]string{"token", "zzzzzz"}, "en", []string{"token needs a command"}, "did you mean"},
	} {
		_, errOut, code := runCLI(t, "", append(c.args, "--ui-lang", c.ui)...)
		name := strings.Join(c.args, " ") + " (" + c.ui + ")"
		if code != 2 {
			t.Errorf("%s: exit %d, want 2; stderr:\n%s", name, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", name, w, errOut)
			}
		}
		if c.unwant != "" && strings.Contains(errOut, c.unwant) {
			t.Errorf("%s: stderr has %q:\n%s", name, c.unwant, errOut)
		}
	}
}

// TestOptionBeforeCommand: an option where the command goes is told to
// follow its command, with the usage, not called an unknown command.
func TestOptionBeforeCommand(t *testing.T) {
	for ui, want := range map[string]string{"en": "--lnag comes before any command", "es": "--lnag va antes de ninguna orden"} {
		_, errOut, code := runCLI(t, "", "--lnag", "--ui-lang", ui)
		if code != 2 || !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, "oraculo ingest") || strings.Contains(errOut, "«--lnag»") || strings.Contains(errOut, `"--lnag"`) {
			t.Errorf("(%s) exit %d, stderr:\n%s", ui, code, errOut)
		}
	}
}
