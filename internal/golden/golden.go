// Package golden holds the -update flag shared by every test package, so
// that `go test ./... -update` rewrites golden files, scenario files
// ([Scenarios]) and ranking baselines wherever they are, and compares them
// everywhere else.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is set by -update: rewrite expected files from the current output.
var Update = flag.Bool("update", false, "rewrite golden files and ranking baselines from the current output")

// Check compares got with the file at path, or rewrites the file under -update.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the current output (run with -update if the change is intended)\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
