package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagErrors: a wrong flag is one error line, a "did you mean" when a
// flag is close, and where the options are, exit 2 (not 28 lines of
// usage with the error twice); -h prints the command's options and exits
// 0; no command at all is a usage error.
func TestFlagErrors(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	out, errOut, code := runCLI(t, "", "search", "--kk", "3", "hola")
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != 2 || out != "" || len(lines) != 3 || strings.Count(errOut, "not defined") != 1 ||
		!strings.Contains(errOut, "did you mean --k?") || !strings.Contains(errOut, "oraculo search -h") {
		t.Errorf("a wrong flag: exit %d, stderr:\n%s", code, errOut)
	}
	_, errOut, code = runCLI(t, "", "ingest", "--quiett")
	if code != 2 || !strings.Contains(errOut, "did you mean --quiet?") {
		t.Errorf("ingest --quiett: exit %d, stderr:\n%s", code, errOut)
	}
	_, errOut, code = runCLI(t, "", "search", "--zzzzzz")
	if code != 2 || strings.Contains(errOut, "did you mean") {
		t.Errorf("a flag like none: exit %d, stderr:\n%s", code, errOut)
	}
	_, errOut, code = runCLI(t, "", "search", "--k", "x")
	if code != 2 || !strings.Contains(errOut, "invalid value") || strings.Count(errOut, "\n") > 3 {
		t.Errorf("a bad value: exit %d, stderr:\n%s", code, errOut)
	}
	out, errOut, code = runCLI(t, "", "search", "-h")
	if code != 0 || errOut != "" || !strings.Contains(out, "\n  --paths LIST\n") {
		t.Errorf("search -h: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if _, errOut, code = runCLI(t, ""); code != 2 || !strings.Contains(errOut, "oraculo ingest") {
		t.Errorf("no command: exit %d, stderr:\n%s", code, errOut)
	}
	if out, _, code = runCLI(t, "", "help"); code != 0 || !strings.Contains(out, "oraculo ingest") {
		t.Errorf("help: exit %d", code)
	}
}

func TestSingular(t *testing.T) {
	for in, want := range map[string]string{
		"Ingest finished in 1s: 1 files (1 indexed, 0 unchanged, 0 removed), 1.2 KiB read":        "Ingest finished in 1s: 1 file (1 indexed, 0 unchanged, 0 removed), 1.2 KiB read",
		"Index o.db: 1 documents, 1 sessions, 11 chunks, 21 paragraphs, 3 KiB":                    "Index o.db: 1 document, 1 session, 11 chunks, 21 paragraphs, 3 KiB",
		"Vía densa (x): 1 fragmentos vectorizados, 0 sin vector, 1 vectores obsoletos eliminados": "Vía densa (x): 1 fragmento vectorizado, 0 sin vector, 1 vector obsoleto eliminado",
		"1 archivos (1 indexados, 2 eliminados)":                                                  "1 archivo (1 indexado, 2 eliminados)",
		"1 chunks embedded, 1 without a vector":                                                   "1 chunk embedded, 1 without a vector",
		"21 files, 1.5 MiB, 1 fragmentos en 1 notas":                                              "21 files, 1.5 MiB, 1 fragmento en 1 nota",
	} {
		if got := singular(in); got != want {
			t.Errorf("singular(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// TestErrorsTranslated: the errors people meet most are in Spanish under
// a Spanish locale, as the warnings are.
func TestErrorsTranslated(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "es")
	missing := t.TempDir() + "/nada.db"
	db := ingestSmall(t)
	for args, want := range map[string]string{
		"search --db " + missing + " hola": "no existe: ejecuta antes `oraculo ingest`",
		"search --kk 1 hola":               "opción desconocida: -kk",
		"ingest --db " + t.TempDir() + "/otra.db " + t.TempDir() + "/no-hay": "no encuentro la carpeta de notas",
		"ingest --db " + t.TempDir() + "/l.db --lang fr " + t.TempDir():      "idioma no admitido \"fr\": es o en",
		"ask --db " + missing + " --chat foo hola":                           "proveedor de chat desconocido \"foo\" (ollama, openai o none)",
		"search --db " + db + " --embedder bar hola":                         "proveedor de embeddings desconocido \"bar\"",
		"eval --db " + missing + " --golden " + t.TempDir() + "/no.jsonl":    "no encuentro el conjunto de referencia",
		"serve --db " + db + " --addr 127.0.0.1:99999":                       "puerto no válido",
	} {
		_, errOut, code := runCLI(t, "", strings.Fields(args)...)
		if code == 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, %q, want %q", args, code, errOut, want)
		}
	}
	// A folder that is not there leaves no index behind.
	idx := filepath.Join(t.TempDir(), "nueva.db")
	if _, _, code := runCLI(t, "", "ingest", "--db", idx, filepath.Join(t.TempDir(), "no-hay")); code == 0 {
		t.Error("ingest of a missing folder succeeded")
	}
	if _, err := os.Stat(idx); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ingest of a missing folder left %s: %v", idx, err)
	}
}

// TestCommandHelp: every command's -h has a synopsis, says what it does,
// its arguments and examples, and lists its options with their real
// defaults (no sentinel such as -1), the common ones apart; in Spanish
// under --ui-lang es.
func TestCommandHelp(t *testing.T) {
	for _, c := range [][]string{{"ingest"}, {"search"}, {"ask"}, {"chat"}, {"show"}, {"chunks"}, {"stats"}, {"eval"}, {"bench"},
		{"compendium", "list"}, {"mcp"}, {"serve"}, {"doctor"}, {"health"}, {"token", "add"}, {"token", "list"}, {"token", "remove"},
		{"memory", "add"}, {"memory", "list"}, {"memory", "show"}, {"memory", "verify"}, {"memory", "supersede"}, {"memory", "forget"}} {
		name := strings.Join(c, " ")
		if name == "compendium list" {
			name = "compendium"
		}
		doc, ok := docOf(name)
		if !ok {
			t.Errorf("%s has no help text", name)
			continue
		}
		for i, ui := range []string{"en", "es"} {
			out, errOut, code := runCLI(t, "", append(c, "-h", "--ui-lang", ui)...)
			words := map[string][2]string{"usage": {"Usage:", "Uso:"}, "examples": {"Examples:", "Ejemplos:"}, "common": {"Common options:", "Opciones comunes:"}}
			if code != 0 || errOut != "" || !strings.HasPrefix(out, words["usage"][i]+" oraculo "+doc.synopsis[i]+"\n") ||
				!strings.Contains(out, words["examples"][i]) || !strings.Contains(out, words["common"][i]+"\n  --as ") {
				t.Errorf("%s -h (%s): exit %d, stderr %q, stdout:\n%s", name, ui, code, errOut, out)
			}
			if strings.Contains(out, "(default -1)") || strings.Contains(out, "default 0)") || strings.Contains(out, "default \"\")") {
				t.Errorf("%s -h (%s) shows a sentinel default:\n%s", name, ui, out)
			}
			if ui == "es" && strings.Contains(out, "(default ") {
				t.Errorf("%s -h (es) has English defaults:\n%s", name, out)
			}
			for _, a := range doc.args {
				if !strings.Contains(out, "  "+a[i]+" ") {
					t.Errorf("%s -h (%s) lacks argument %s", name, ui, a[i])
				}
			}
		}
	}
	// Every flag's text is in Spanish under --ui-lang es.
	texts := func(out string) map[string]string {
		m := map[string]string{}
		var flag string
		for _, line := range strings.Split(out, "\n") {
			if f, ok := strings.CutPrefix(line, "  --"); ok {
				flag, _, _ = strings.Cut(f, " ")
			} else if strings.HasPrefix(line, "      ") && flag != "" {
				m[flag] += strings.TrimSpace(line) + " "
			}
		}
		return m
	}
	for _, c := range [][]string{{"ingest"}, {"search"}, {"ask"}, {"chat"}, {"show"}, {"chunks"}, {"stats"}, {"eval"}, {"bench"},
		{"compendium", "list"}, {"mcp"}, {"serve"}, {"doctor"}, {"health"}, {"token", "add"},
		{"memory", "add"}, {"memory", "list"}, {"memory", "supersede"}} {
		en, _, _ := runCLI(t, "", append(c, "-h", "--ui-lang", "en")...)
		es, _, _ := runCLI(t, "", append(c, "-h", "--ui-lang", "es")...)
		esTexts := texts(es)
		for f, text := range texts(en) {
			if esTexts[f] == text {
				t.Errorf("%s --%s has no Spanish text: %q", strings.Join(c, " "), f, text)
			}
		}
	}
	// The default that the flag package would print as -1 is not shown;
	// a real one is.
	out, _, _ := runCLI(t, "", "ingest", "-h", "--ui-lang", "en")
	if !strings.Contains(out, "  --annotate-workers N\n      chunks the chat model annotates at once (default 2)") || !strings.Contains(out, "--overlap-words N") {
		t.Errorf("ingest -h:\n%s", out)
	}
}
