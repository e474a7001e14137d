package main

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// report follows the packages of one run.
type report struct {
	out      io.Writer
	pkgs     map[string]*pkgState
	skips    []skip
	failed   bool
	packages int
}

// pkgState is one package's output so far: its own lines, each test's
// lines, and the tests that failed, in order.
type pkgState struct {
	own    []string
	tests  map[string][]string
	failed []string
}

// skip is one skipped test and why it skipped.
type skip struct {
	pkg, test, why string
}

func newReport(out io.Writer) *report {
	return &report{out: out, pkgs: map[string]*pkgState{}}
}

func (r *report) pkg(name string) *pkgState {
	p := r.pkgs[name]
	if p == nil {
		p = &pkgState{tests: map[string][]string{}}
		r.pkgs[name] = p
	}
	return p
}

// add takes one event.
func (r *report) add(ev event) {
	p := r.pkg(ev.Package)
	switch {
	case ev.Action == "output" && ev.Test != "":
		p.tests[ev.Test] = append(p.tests[ev.Test], ev.Output)
	case ev.Action == "build-output":
		fmt.Fprint(r.out, ev.Output) // the compiler's errors, as they come
	case ev.Action == "output":
		p.own = append(p.own, ev.Output)
	case ev.Action == "fail" && ev.Test != "":
		p.failed = append(p.failed, ev.Test)
	case ev.Action == "skip" && ev.Test != "":
		r.skips = append(r.skips, skip{pkg: ev.Package, test: ev.Test, why: skipReason(p.tests[ev.Test])})
	case ev.Test == "" && (ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip"):
		r.finish(ev, p)
	}
}

// finish prints a package's end as go test does: its "ok" line when it
// passed; the failed tests' output and its own when it failed.
func (r *report) finish(ev event, p *pkgState) {
	r.packages++
	if ev.Action != "fail" {
		for _, l := range p.own {
			if strings.HasPrefix(l, "ok  ") || strings.HasPrefix(l, "?   ") {
				fmt.Fprint(r.out, l)
			}
		}
		delete(r.pkgs, ev.Package)
		return
	}
	r.failed = true
	for _, t := range p.failed {
		for _, l := range p.tests[t] {
			if !strings.HasPrefix(l, "=== ") {
				fmt.Fprint(r.out, l)
			}
		}
	}
	for _, l := range p.own {
		fmt.Fprint(r.out, l)
	}
	if len(p.own) == 0 {
		fmt.Fprintf(r.out, "FAIL\t%s\n", ev.Package)
	}
	delete(r.pkgs, ev.Package)
}

var fileLine = regexp.MustCompile(`^\s*[\w./-]+\.go:\d+: ?`)

// skipReason is the message a test gave t.Skip: the last lines of its
// output that are neither the runner's own ("=== RUN", "--- SKIP") nor
// empty, without their file:line prefix.
func skipReason(lines []string) string {
	var msg []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		if fileLine.MatchString(l) {
			msg = msg[:0]
			t = strings.TrimSpace(fileLine.ReplaceAllString(l, ""))
		}
		if t != "" {
			msg = append(msg, t)
		}
	}
	if len(msg) == 0 {
		return "(no reason given)"
	}
	return strings.Join(msg, " ")
}

// group is the skipped tests that share a reason.
type group struct {
	why   string
	tests []skip
}

// summary prints the skipped tests grouped by reason, the largest group
// first, each with how to enable it.
func (r *report) summary() {
	if len(r.skips) == 0 {
		fmt.Fprintln(r.out, "\nNo test skipped.")
		return
	}
	by := map[string]*group{}
	var groups []*group
	for _, s := range r.skips {
		g := by[s.why]
		if g == nil {
			g = &group{why: s.why}
			by[s.why] = g
			groups = append(groups, g)
		}
		g.tests = append(g.tests, s)
	}
	sort.SliceStable(groups, func(i, j int) bool { return len(groups[i].tests) > len(groups[j].tests) })
	fmt.Fprintf(r.out, "\nSkipped: %d tests, in %d groups (why, and how to run them):\n", len(r.skips), len(groups))
	for _, g := range groups {
		fmt.Fprintf(r.out, "- %d × %s\n", len(g.tests), g.why)
		fmt.Fprintf(r.out, "    %s\n", names(g.tests, 6))
		if h := hint(g.why); h != "" {
			fmt.Fprintf(r.out, "    to run them: %s\n", h)
		}
	}
}

// names lists up to max tests as "pkg.Test", then how many more.
func names(tests []skip, max int) string {
	var s []string
	for i, t := range tests {
		if i == max {
			s = append(s, fmt.Sprintf("and %d more", len(tests)-max))
			break
		}
		s = append(s, shortPkg(t.pkg)+"."+t.test)
	}
	return strings.Join(s, ", ")
}

// shortPkg drops the module path: "github.com/oraculo/oraculo/server" is
// "server", the module itself ".".
func shortPkg(p string) string {
	const mod = "github.com/oraculo/oraculo"
	if p == mod {
		return "."
	}
	return strings.TrimPrefix(p, mod+"/")
}

// hints say how to run what a skip message alone does not say how to.
var hints = []struct {
	re   *regexp.Regexp
	hint string
}{
	{regexp.MustCompile(`(?i)no node was started`), "it checks the nodes the other tests started: run it with them"},
	{regexp.MustCompile(`(?i)-short|short mode|^long:|^builds the binary`), "run without -short"},
	{regexp.MustCompile(`(?i)evaluation data not found|golden set not present|sample campaign not present`), "put the evaluation sets at ../shared/eval beside the repository (see README.md)"},
	{regexp.MustCompile(`(?i)weaviate-server`), "go install github.com/weaviate/weaviate/cmd/weaviate-server@v1.35.2 (CI sets ORACULO_REQUIRE_WEAVIATE=1 to fail instead)"},
	{regexp.MustCompile(`(?i)chromium`), "apt-get install chromium (CI sets ORACULO_REQUIRE_BROWSER=1 to fail instead)"},
	{regexp.MustCompile(`(?i)node|npm`), "install node and npm, then the npm ci named above (CI sets ORACULO_REQUIRE_NODE=1 to fail instead)"},
	{regexp.MustCompile(`(?i)pseudo-terminal`), "run where /dev/ptmx opens (a real or container terminal device)"},
	{regexp.MustCompile(`(?i)bind-mount|remount`), "run as root where mount(8) may bind-mount (a privileged container or a VM)"},
}

// hint is how to run tests skipped for why, or "" when the message says it.
func hint(why string) string {
	for _, h := range hints {
		if h.re.MatchString(why) {
			return h.hint
		}
	}
	return ""
}
