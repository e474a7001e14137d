package progress

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
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

// TestRate: a task that reads bytes shows MB/s (and pages/s once there
// are pages); one that counts items shows them per second in its unit,
// and none shows a rate before anything is done or before minRateTime:
// never "0.0 MB/s" for annotating chunks, nor thousands of MB/s for the
// first file.
func TestRate(t *testing.T) {
	for _, c := range []struct {
		unit  string
		el    time.Duration
		done  int
		bytes int64
		pages int
		want  string
	}{
		{"", 2 * time.Second, 10, 4e6, 0, "2.0 MB/s"},
		{"", 2 * time.Second, 10, 4e6, 6, "2.0 MB/s, 3 PDF pages/s"},
		{"chunks/s", 2 * time.Second, 10, 0, 0, "5.0 chunks/s"},
		{"chunks/s", 2 * time.Second, 0, 0, 0, ""},
		{"", 2 * time.Second, 10, 0, 0, ""},
		{"", time.Millisecond, 1, 2e6, 0, ""},
		{"chunks/s", minRateTime - time.Millisecond, 3, 0, 0, ""},
	} {
		b := New(io.Discard, false, "x")
		b.ItemUnit, b.PageUnit = c.unit, "PDF pages/s"
		if got := b.rate(c.el, c.done, c.bytes, c.pages); got != c.want {
			t.Errorf("rate(%s, %d done, %d bytes, %d pages) with unit %q = %q, want %q", c.el, c.done, c.bytes, c.pages, c.unit, got, c.want)
		}
	}
}

// TestBarOfItems: a bar of chunks, after a second, shows chunks/s and no
// MB/s, on a terminal and in plain lines.
func TestBarOfItems(t *testing.T) {
	for _, tty := range []bool{false, true} {
		var buf bytes.Buffer
		b := New(&buf, tty, "annotating")
		b.ItemUnit = "chunks/s"
		b.Update(0, 4, 0, "")
		b.start = b.start.Add(-time.Second)
		b.Update(4, 4, 0, "")
		out := buf.String()
		if strings.Contains(out, "MB/s") || !strings.Contains(out, " chunks/s") || strings.Contains(out, "(0%) ") {
			t.Errorf("tty %v: %q", tty, out)
		}
	}
}

// TestTerminalBarFitsItsWidth: on a terminal of 60 columns the redrawn
// line stays within 59 (a wrapped line would be left behind by the next
// redraw).
func TestTerminalBarFitsItsWidth(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, true, "ingesting")
	b.Width = 60
	b.Update(1, 4, 10, "Sesiones/una nota con un nombre muy largo que no cabe.md")
	for _, line := range strings.Split(buf.String(), "\r\033[K") {
		if n := len([]rune(line)); n > 59 {
			t.Errorf("a line of %d columns on a terminal of 60: %q", n, line)
		}
	}
	if !strings.Contains(buf.String(), "…") {
		t.Errorf("the long line is not cut: %q", buf.String())
	}
}
