package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/internal/golden"
)

// helpGoldenCalls are the command lines whose whole output (both streams
// and the exit code) testdata/help.golden holds: the usage, every
// command's -h in English and Spanish, and what a mistyped command, verb or
// flag gets. They touch no index.
var helpGoldenCalls = func() [][]string {
	calls := [][]string{{}, {"help"}, {"-h"}, {"--help"}, {"version"}, {"--version"},
		{"serch"}, {"memory"}, {"memory", "-h"}, {"memory", "remember"}, {"token"}, {"token", "--help"}, {"token", "give"},
		{"search", "--kk", "3"}, {"search", "--zzz"}, {"search", "--k", "0"}, {"ingest", "--max-words", "x"}, {"ingest"},
		{"ask", "--as", "wizard", "hola"}, {"ask"}, {"memory", "add", "--scop", "x"}, {"memory", "show"},
		{"token", "add", "--rol", "dm"}, {"token", "add", "ana", "--role", "king"}, {"eval"}, {"eval", "--compare", "a.json"},
		{"bench", "extra"}, {"doctor", "extra"}, {"serve", "extra"}, {"chat", "extra"}, {"mcp", "extra"}, {"show"},
		{"search", "--session", "x-y", "q"}}
	var out [][]string
	for _, ui := range []string{"en", "es"} {
		for _, c := range calls {
			out = append(out, append(append([]string{}, c...), "--ui-lang", ui))
		}
		for _, c := range [][]string{{"ingest"}, {"search"}, {"ask"}, {"chat"}, {"show"}, {"chunks"}, {"stats"}, {"eval"},
			{"bench"}, {"compendium"}, {"timeline"}, {"mcp"}, {"serve"}, {"doctor"}, {"health"},
			{"token", "add"}, {"token", "list"}, {"token", "remove"}, {"token", "rotate-links"},
			{"memory", "add"}, {"memory", "list"}, {"memory", "show"}, {"memory", "verify"}, {"memory", "supersede"}, {"memory", "forget"}} {
			out = append(out, append(c, "-h", "--ui-lang", ui))
		}
	}
	return out
}()

// TestHelpGolden: the usage, every command's help and the messages of a
// mistyped command or flag are byte for byte those of
// testdata/help.golden (go test -run HelpGolden -update rewrites it).
func TestHelpGolden(t *testing.T) {
	t.Setenv("ORACULO_DB", t.TempDir()+"/none.db")
	t.Setenv("ORACULO_CONFIG", "")
	t.Setenv("ORACULO_ADDR", "")
	var b strings.Builder
	for _, args := range helpGoldenCalls {
		out, errOut, code := runCLI(t, "", args...)
		fmt.Fprintf(&b, "$ oraculo %s\nexit %d\n--- stdout\n%s--- stderr\n%s\n", strings.Join(args, " "), code, machineFree(out), machineFree(errOut))
	}
	golden.Check(t, "testdata/help.golden", []byte(b.String()))
}

// limitBlock is the help of one of serve's load-shedding flags, whose
// default is counted from this machine's processors.
var limitBlock = regexp.MustCompile(`(?m)^  --(max-search|max-ask|max-model|queue) N\n((?:      .*\n)+)`)

// machineFree is help text without what changes from machine to machine:
// each of serve's processor-counted defaults is N, on one line.
func machineFree(s string) string {
	return limitBlock.ReplaceAllStringFunc(s, func(block string) string {
		head, text, _ := strings.Cut(block, "\n")
		text = strings.Join(strings.Fields(text), " ")
		text = regexp.MustCompile(`\((default|por defecto) \d+\)`).ReplaceAllString(text, "($1 N)")
		return head + "\n      " + text + "\n"
	})
}

// TestCommandTable: every command and verb of the table has help whose
// synopsis begins with its name and flags whose help -h prints, and
// "oraculo help" lists every command; a command's verbs are found by
// their name and no other entry is (a verb is not a command).
func TestCommandTable(t *testing.T) {
	usageText := usage()
	for _, c := range commands {
		if !strings.Contains(usageText, "  oraculo "+c.name) {
			t.Errorf("oraculo help does not list %s", c.name)
		}
		entries := c.verbs
		if entries == nil {
			entries = []command{c}
		}
		for _, e := range entries {
			if e.name == "version" {
				continue
			}
			doc, ok := docOf(e.name)
			if !ok || !strings.HasPrefix(doc.synopsis[0], e.name+" ") || e.flags == nil {
				t.Errorf("%s: help %v (found %v), flags %v", e.name, doc.synopsis, ok, e.flags != nil)
				continue
			}
			out, errOut, code := runCLI(t, "", append(strings.Fields(e.name), "-h", "--ui-lang", "en")...)
			if code != 0 || errOut != "" || !strings.HasPrefix(out, "Usage: oraculo "+doc.synopsis[0]+"\n") {
				t.Errorf("%s -h: exit %d, stderr %q, stdout:\n%s", e.name, code, errOut, out)
			}
		}
	}
	if _, ok := lookup(commands, "memory add"); ok {
		t.Error(`"memory add" is found as a command`)
	}
	if _, _, code := runCLI(t, "", "memory add", "--ui-lang", "en"); code != 2 {
		t.Errorf(`oraculo "memory add": exit %d, want 2 (unknown command)`, code)
	}
}
