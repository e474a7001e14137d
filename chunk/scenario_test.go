package chunk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/oraculo/oraculo/internal/golden"
)

// TestSplitScenarios cuts the notes of testdata/split, each written out
// with the options it is cut with, and compares every chunk's label,
// session, heading path and word range with the ones written below it.
// `go test ./chunk -run SplitScenarios -update` rewrites them.
//
//	split path=Campaña/Crónica.md [title=(Title with spaces)] max=N [overlap=N] [lang=en]
//	<the note's Markdown>
//	----
//	<label>
//	  session N · headings: a › b · words [start,end)
func TestSplitScenarios(t *testing.T) {
	golden.Scenarios(t, "testdata/split", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "split" {
			d.Fatalf(t, "unknown command %q (want split)", d.Cmd)
		}
		doc := Document{Text: d.Input}
		var opts Options
		d.ScanArgs(t, "path", &doc.Path)
		d.MaybeScanArgs(t, "title", &doc.Title)
		d.ScanArgs(t, "max", &opts.MaxWords)
		d.MaybeScanArgs(t, "overlap", &opts.OverlapWords)
		d.MaybeScanArgs(t, "lang", &opts.Lang)
		chunks, err := Split(doc, opts)
		if err != nil {
			return fmt.Sprintf("error: %v\n", err)
		}
		checkInvariants(t, doc, opts, chunks)
		return renderScenario(chunks)
	})
}

// TestDetectSessionScenarios reads each line of testdata/detect's blocks
// as DetectSession does and writes below it, after the line and "→",
// the session it starts and the heading its chunk keeps, or "no session".
// `go test ./chunk -run DetectSessionScenarios -update` rewrites them.
func TestDetectSessionScenarios(t *testing.T) {
	golden.Scenarios(t, "testdata/detect", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "detect" {
			d.Fatalf(t, "unknown command %q (want detect)", d.Cmd)
		}
		var b strings.Builder
		for line := range strings.Lines(d.Input) {
			line = strings.TrimSuffix(line, "\n")
			if n, heading, ok := DetectSession(line); ok {
				fmt.Fprintf(&b, "%s → session %d: %s\n", line, n, heading)
			} else {
				fmt.Fprintf(&b, "%s → no session\n", line)
			}
		}
		return b.String()
	})
}

// renderScenario prints each chunk as its label and, indented below it,
// its session, heading path and word range.
func renderScenario(chunks []Chunk) string {
	var b strings.Builder
	for _, c := range chunks {
		session := "no session"
		if c.InSession {
			session = fmt.Sprintf("session %d", c.Session)
		}
		fmt.Fprintf(&b, "%s\n  %s · headings: %s · words [%d,%d)\n",
			c.Label, session, strings.Join(c.Headings, " › "), c.WordStart, c.WordEnd)
	}
	if len(chunks) == 0 {
		b.WriteString("no chunks\n")
	}
	return b.String()
}
