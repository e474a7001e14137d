package main

import (
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
	_, errOut, code = runCLI(t, "", "search", "-h")
	if code != 0 || !strings.Contains(errOut, "-paths") {
		t.Errorf("search -h: exit %d, stderr:\n%s", code, errOut)
	}
	if _, errOut, code = runCLI(t, ""); code != 2 || !strings.Contains(errOut, "oraculo ingest") {
		t.Errorf("no command: exit %d, stderr:\n%s", code, errOut)
	}
	if out, _, code = runCLI(t, "", "help"); code != 0 || !strings.Contains(out, "oraculo ingest") {
		t.Errorf("help: exit %d", code)
	}
}
