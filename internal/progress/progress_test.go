package progress

import (
	"bytes"
	"strings"
	"testing"
)

func TestPlainLinesEveryTenth(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, false, "ingest")
	for i := 1; i <= 200; i++ {
		b.Update(i, 200, int64(i*1000), "x.md")
	}
	b.Done()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) < 10 || len(lines) > 12 {
		t.Fatalf("%d plain lines, want about one per tenth:\n%s", len(lines), buf.String())
	}
	if !strings.HasPrefix(lines[len(lines)-1], "ingest: 200/200 (100%)") {
		t.Fatalf("last line %q", lines[len(lines)-1])
	}
	if strings.Contains(buf.String(), "\r") || strings.Contains(buf.String(), "\033") {
		t.Fatal("terminal control characters in plain output")
	}
}

func TestTerminalBarRedrawsOneLine(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, true, "ingest")
	b.Update(1, 4, 10, "a.md")
	b.Update(4, 4, 40, "d.md")
	b.Done()
	out := buf.String()
	if strings.Count(out, "\n") != 0 || !strings.Contains(out, "\r\033[K") || !strings.Contains(out, "4/4 100%") {
		t.Fatalf("terminal output %q", out)
	}
	if !strings.HasSuffix(out, "\r\033[K") {
		t.Fatal("Done does not clear the bar")
	}
}
