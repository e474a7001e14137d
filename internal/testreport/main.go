// Command testreport reads the JSON stream of `go test -json` on its standard
// input, prints what a plain `go test` prints (a line per package, and the
// output of what failed), and ends with the tests that skipped, grouped by
// why, each group with how to enable it.
//
// CI runs the tests as
//
//	go test ./... -json -timeout 30m | go run ./internal/testreport
//
// so that a green run also says what it did not test. The exit status is 1
// when a test or a package failed (or the stream says nothing), else 0.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	r := newReport(os.Stdout)
	if err := r.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(1)
	}
	r.summary()
	if r.failed || r.packages == 0 {
		os.Exit(1)
	}
}

// event is one line of test2json's output (go doc test2json).
type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	FailedBuild string
}

// read consumes the stream, printing as go test would. A line that is not
// JSON (the go command's own messages) is printed as it is.
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			fmt.Fprintln(r.out, string(line))
			continue
		}
		r.add(ev)
	}
	return sc.Err()
}
