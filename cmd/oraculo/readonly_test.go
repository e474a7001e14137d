package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// An index on a read-only mount (a bind mount remounted read-only: root
// on Linux; skipped where mounting is not allowed) is searched and asked
// as usual, and the commands that write say that it is read-only and why.
func TestCLIReadOnlyMount(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	dir := filepath.Join(t.TempDir(), "idx")
	notes := smallNotes(t)
	if _, errOut, code := runCLI(t, "", "ingest", "--db", filepath.Join(dir, "o.db"), "--quiet", notes); code != 0 {
		t.Fatalf("ingest exit %d: %s", code, errOut)
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "--bind", dir, mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot bind-mount here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	if out, err := exec.Command("mount", "-o", "remount,ro,bind", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only here: %v: %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(mnt, "probe"), nil, 0o644); err == nil {
		t.Fatal("the mount is writable")
	}
	db := filepath.Join(mnt, "o.db")

	out, errOut, code := runCLI(t, "", "search", "--db", db, "tabernero")
	if code != 0 || !strings.Contains(out, "NPCs: Harbin Wester") {
		t.Fatalf("search on a read-only index: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "ask", "--db", db, "¿Quién vende mapas falsos?")
	if code != 0 || !strings.Contains(out, "Harbin Wester") {
		t.Fatalf("ask on a read-only index: exit %d\n%s%s", code, out, errOut)
	}
	for _, args := range [][]string{
		{"ingest", "--db", db, notes},
		{"memory", "add", "--db", db, "--scope", "campaign", "--key", "k", "--value", "v"},
	} {
		_, errOut, code := runCLI(t, "", args...)
		if code == 0 || !strings.Contains(errOut, `the index "`+db+`" is read-only: it is on a read-only file system`) {
			t.Errorf("%s on a read-only index: exit %d: %s", args[0], code, errOut)
		}
	}
}
