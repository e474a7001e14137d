//go:build unix

package ingest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFence: a symlink is followed only to a file inside the fence's
// folders, unless it follows links outside; the index's own files (the
// index and the files named after it, a private folder's files, a hard
// link to one of them) are refused however they are reached, also when
// the notes folder holds the index's folder, and whatever the fence
// follows.
func TestFence(t *testing.T) {
	base := t.TempDir()
	notes, other, outside := filepath.Join(base, "notes"), filepath.Join(base, "other"), filepath.Join(base, "outside")
	idx := filepath.Join(notes, "indice") // the index's folder, in the notes, not hidden
	for _, d := range []string{notes, other, outside, idx, filepath.Join(notes, "sub")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	write := func(p, text string) {
		t.Helper()
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	db := filepath.Join(idx, "o.db")
	write(db, "SQLite format 3")
	write(db+".linkkey", "zarquiclave")
	write(db+"-wal", "wal")
	write(filepath.Join(idx, "extra.md"), "una nota en la carpeta del índice")
	write(filepath.Join(notes, "sub", "a.md"), "nota a")
	write(filepath.Join(other, "b.md"), "nota b, en otra carpeta ingerida")
	write(filepath.Join(outside, "c.md"), "nota c, fuera")
	secrets := filepath.Join(base, "secrets")
	must(t, os.Mkdir(secrets, 0o755))
	write(filepath.Join(secrets, "tokens.yaml"), "tokens")
	links := map[string]string{
		"inside.md":  "sub/a.md",
		"other.md":   filepath.Join(other, "b.md"),
		"outside.md": filepath.Join(outside, "c.md"),
		"key.md":     db + ".linkkey",
		"wal.md":     db + "-wal",
		"db.md":      db,
		"tokens.md":  filepath.Join(secrets, "tokens.yaml"),
		// Through a link to the folder that holds them.
		"via.md": filepath.Join(base, "secretsdir", "tokens.yaml"),
	}
	must(t, os.Symlink(secrets, filepath.Join(base, "secretsdir")))
	for name, target := range links {
		must(t, os.Symlink(target, filepath.Join(notes, name)))
	}
	hard := true
	if err := os.Link(db+".linkkey", filepath.Join(notes, "hard.md")); err != nil {
		t.Logf("no hard link: %v", err)
		hard = false
	}
	const in, out, own = "", ReasonOutside, ReasonIndexFile
	cases := []struct {
		follow bool
		want   map[string]Reason
	}{
		{false, map[string]Reason{"sub/a.md": in, "inside.md": in, "other.md": in, "outside.md": out, "key.md": own, "wal.md": own,
			"db.md": own, "tokens.md": own, "via.md": own, "hard.md": own, "indice/extra.md": own}},
		{true, map[string]Reason{"sub/a.md": in, "inside.md": in, "other.md": in, "outside.md": in, "key.md": own, "wal.md": own,
			"db.md": own, "tokens.md": own, "via.md": own, "hard.md": own, "indice/extra.md": own}},
	}
	for _, c := range cases {
		fence := NewFence(Bounds{Roots: []string{notes, other}, FollowOutside: c.follow, Private: []string{db, idx, filepath.Join(secrets, "tokens.yaml")}})
		l, err := fence.Walk(notes)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]Reason{}
		for _, f := range l.Files {
			if _, skip := fence.Read(f, 0); skip != nil {
				got[f.Path] = skip.Reason
				continue
			}
			got[f.Path] = in
		}
		for _, s := range l.Skipped {
			got[s.Path] = s.Reason
		}
		for path, want := range c.want {
			if path == "hard.md" && !hard {
				continue
			}
			if r, ok := got[path]; !ok || r != want {
				t.Errorf("follow outside %v: %s: %q (listed %v), want %q", c.follow, path, r, ok, want)
			}
		}
		if len(l.Incomplete) > 0 {
			t.Errorf("refused files make the listing incomplete: %q", l.Incomplete)
		}
	}
}

// TestFenceReadsWhatIsOpened: a file swapped after the walk is judged by
// what is opened: a note replaced by a hard link to the link key, or a
// folder of notes replaced by a link to a folder outside, is refused.
func TestFenceReadsWhatIsOpened(t *testing.T) {
	base := t.TempDir()
	notes, outside, idx := filepath.Join(base, "notes"), filepath.Join(base, "outside"), filepath.Join(base, "idx")
	for _, d := range []string{filepath.Join(notes, "sub"), outside, idx} {
		must(t, os.MkdirAll(d, 0o755))
	}
	key := filepath.Join(idx, "o.db.linkkey")
	must(t, os.WriteFile(key, []byte("zarquiclave"), 0o600))
	must(t, os.WriteFile(filepath.Join(notes, "a.md"), []byte("nota a"), 0o644))
	must(t, os.WriteFile(filepath.Join(notes, "sub", "b.md"), []byte("nota b"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "b.md"), []byte("nota b de fuera"), 0o644))
	fence := NewFence(Bounds{Roots: []string{notes}, Private: []string{filepath.Join(idx, "o.db"), idx}})
	l, err := fence.Walk(notes)
	if err != nil || len(l.Files) != 2 {
		t.Fatalf("walk: %+v %v", l, err)
	}
	must(t, os.Remove(filepath.Join(notes, "a.md")))
	hard := os.Link(key, filepath.Join(notes, "a.md")) == nil
	must(t, os.RemoveAll(filepath.Join(notes, "sub")))
	must(t, os.Symlink(outside, filepath.Join(notes, "sub")))
	for _, f := range l.Files {
		n, skip := fence.Read(f, 0)
		want := map[string]Reason{"a.md": ReasonIndexFile, "sub/b.md": ReasonOutside}[f.Path]
		if f.Path == "a.md" && !hard {
			continue
		}
		if skip == nil || skip.Reason != want {
			t.Errorf("%s swapped after the walk: read %+v, skip %+v; want %s", f.Path, n, skip, want)
		}
	}
}
