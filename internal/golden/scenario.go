package golden

import (
	"flag"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// Scenarios runs the data-driven test file at path in pebble's style
// (github.com/cockroachdb/datadriven): each case is a command line with
// its arguments, the input below it, a "----" line and the expected
// output. run gives a case's output; a case whose output differs fails.
// Under -update (this package's flag; datadriven's own -rewrite works
// too) the file is rewritten with the current outputs instead.
func Scenarios(t *testing.T, path string, run func(t *testing.T, d *datadriven.TestData) string) {
	t.Helper()
	if *Update {
		if err := flag.Set("rewrite", "true"); err != nil {
			t.Fatalf("turning on datadriven's -rewrite for -update: %v", err)
		}
	}
	datadriven.RunTest(t, path, run)
}
