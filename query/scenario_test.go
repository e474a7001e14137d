package query

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/oraculo/oraculo/internal/golden"
)

// TestAnalyzeScenarios reads each question of testdata/analyze against the
// sessions its case says the index holds and compares the sessions it
// restricts the search to, the words that asked for them and its kind with
// the ones written below it. `go test ./query -run AnalyzeScenarios -update`
// rewrites them.
//
//	analyze known=1-120|known=(1, 2, 3)|known=none [lang=es|en]
//	<the question>
//	----
//	sessions: 3, 4, 5 | any
//	said: <the words that asked for them>
//	kind: lookup | arc
//	until: 20         (only when the question asks as of a session)
//	state: true       (only for a state question)
func TestAnalyzeScenarios(t *testing.T) {
	golden.Scenarios(t, "testdata/analyze", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "analyze" {
			d.Fatalf(t, "unknown command %q (want analyze)", d.Cmd)
		}
		arg, ok := d.Arg("known")
		if !ok {
			d.Fatalf(t, "analyze needs known=")
		}
		known, err := parseKnown(arg.Vals)
		if err != nil {
			d.Fatalf(t, "%v", err)
		}
		var lang string
		d.MaybeScanArgs(t, "lang", &lang)
		return renderAnalysis(Analyze(d.Input, lang, known))
	})
}

// parseKnown reads known=1-120 (a range), known=(9, 3, 7) (a list) or
// known=none (no sessions).
func parseKnown(vals []string) ([]int, error) {
	if len(vals) == 1 && vals[0] == "none" {
		return nil, nil
	}
	if len(vals) == 1 && strings.Contains(vals[0], "-") {
		from, to, _ := strings.Cut(vals[0], "-")
		a, err1 := strconv.Atoi(from)
		b, err2 := strconv.Atoi(to)
		if err1 != nil || err2 != nil || a > b {
			return nil, fmt.Errorf("reading the range known=%s", vals[0])
		}
		var s []int
		for n := a; n <= b; n++ {
			s = append(s, n)
		}
		return s, nil
	}
	s := make([]int, len(vals))
	for i, v := range vals {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("reading the session %q of known: %w", v, err)
		}
		s[i] = n
	}
	return s, nil
}

// renderAnalysis prints what the analysis restricts the search to.
func renderAnalysis(a Analysis) string {
	var b strings.Builder
	if a.Sessions == nil {
		b.WriteString("sessions: any\n")
	} else {
		ns := make([]string, len(a.Sessions))
		for i, n := range a.Sessions {
			ns[i] = strconv.Itoa(n)
		}
		fmt.Fprintf(&b, "sessions: %s\n", strings.Join(ns, ", "))
	}
	if a.Said != "" {
		fmt.Fprintf(&b, "said: %s\n", a.Said)
	}
	fmt.Fprintf(&b, "kind: %s\n", a.Kind)
	if a.Until > 0 {
		fmt.Fprintf(&b, "until: %d\n", a.Until)
	}
	if a.State {
		b.WriteString("state: true\n")
	}
	return b.String()
}
