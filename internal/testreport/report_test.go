package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportOfARealRun runs `go test -json` on a small module with a
// passing, a failing and three skipping tests (two for one reason) and
// checks what the report prints: the ok and FAIL lines, the failure's
// output, and the skips grouped by reason with how to run them.
func TestReportOfARealRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command: run without -short")
	}
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("good/good_test.go", `package good
import "testing"
func TestFine(t *testing.T) {}
func TestLong(t *testing.T) { t.Skip("long: every question") }
func TestBrowser(t *testing.T) { t.Skip("no chromium in PATH") }
func TestBrowserToo(t *testing.T) { t.Run("sub", func(t *testing.T) { t.Skip("no chromium in PATH") }) }
`)
	write("bad/bad_test.go", `package bad
import "testing"
func TestBroken(t *testing.T) { t.Log("context of the failure"); t.Fatal("it broke") }
func TestOther(t *testing.T) { t.Log("not printed") }
`)
	cmd := exec.Command("go", "test", "-count=1", "-json", "./...")
	cmd.Dir = dir
	stream, _ := cmd.Output() // a failing package exits 1; the stream is what matters
	var out bytes.Buffer
	r := newReport(&out)
	if err := r.read(bytes.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	r.summary()
	got := out.String()
	for _, want := range []string{
		"ok  \texample.com/m/good",
		"it broke",
		"context of the failure",
		"FAIL\texample.com/m/bad",
		"Skipped: 3 tests, in 2 groups",
		"- 2 × no chromium in PATH",
		"example.com/m/good.TestBrowser, example.com/m/good.TestBrowserToo/sub",
		"to run them: apt-get install chromium",
		"- 1 × long: every question",
		"to run them: run without -short",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "not printed") || strings.Contains(got, "=== RUN") {
		t.Errorf("report prints a passing test's output:\n%s", got)
	}
	if !r.failed || r.packages != 2 {
		t.Errorf("failed=%v packages=%d, want true 2", r.failed, r.packages)
	}
}

// TestSkipReason: the message without the file:line prefix; a message of
// several lines is kept whole.
func TestSkipReason(t *testing.T) {
	got := skipReason([]string{"=== RUN   TestX\n", "    x_test.go:12: node is missing\n", "        (npm ci --prefix js)\n", "--- SKIP: TestX (0.00s)\n"})
	if got != "node is missing (npm ci --prefix js)" {
		t.Errorf("skipReason = %q", got)
	}
	if got := skipReason([]string{"=== RUN   TestY\n", "    y_test.go:3: \n", "--- SKIP: TestY (0.00s)\n"}); got != "(no reason given)" {
		t.Errorf("skipReason of a bare skip = %q", got)
	}
}

// TestHint: the first matching hint wins, so the narrower ones come first
// ("no node was started" is Weaviate's, not node's).
func TestHint(t *testing.T) {
	for why, want := range map[string]string{
		"no node was started":                       "it checks the nodes the other tests started: run it with them",
		"node or the openai package is missing (x)": "install node and npm, then the npm ci named above (CI sets ORACULO_REQUIRE_NODE=1 to fail instead)",
		"set ORACULO_WATCH_DELAY=1 to measure":      "",
	} {
		if got := hint(why); got != want {
			t.Errorf("hint(%q) = %q, want %q", why, got, want)
		}
	}
}
