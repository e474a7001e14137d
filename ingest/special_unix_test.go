//go:build unix

package ingest

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test if f has not returned after a while, instead of
// letting a read that blocks hang the whole run.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("still running after 5 s: blocked on a special file?")
	}
}

// TestWalkSpecialFiles: only regular files, and symlinks to them, are
// listed and read; devices, named pipes, sockets and links to them are
// skipped with what they are, quickly.
func TestWalkSpecialFiles(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	note := filepath.Join(outside, "real.md")
	if err := os.WriteFile(note, []byte("Sesión 3: la canción del ñandú\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(outside, "pipe")
	must(t, syscall.Mkfifo(pipe, 0o644))
	must(t, syscall.Mkfifo(filepath.Join(root, "fifo.md"), 0o644))
	sock, err := net.Listen("unix", filepath.Join(root, "sock.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	must(t, os.Mkdir(filepath.Join(outside, "dir"), 0o755))
	must(t, os.WriteFile(filepath.Join(outside, "dir", "inside.md"), []byte("x"), 0o644))
	links := map[string]string{
		"zero.md":     "/dev/zero",
		"pipe.md":     pipe,
		"link.md":     note,
		"dangling.md": filepath.Join(outside, "missing.md"),
		"dirlink":     filepath.Join(outside, "dir"),
		"dirlink.md":  filepath.Join(outside, "dir"),
	}
	for name, dest := range links {
		must(t, os.Symlink(dest, filepath.Join(root, name)))
	}

	var l *Listing
	notes := map[string]*Note{}
	skips := map[string]Skip{}
	within(t, func() {
		var err error
		// Links lead outside the notes here: what they lead to is judged.
		fence := NewFence(Bounds{Roots: []string{root}, FollowOutside: true})
		if l, err = fence.Walk(root); err != nil {
			t.Error(err)
			return
		}
		for _, f := range l.Files {
			n, skip := Read(f, 0)
			if skip != nil {
				skips[f.Path] = *skip
				continue
			}
			notes[f.Path] = n
		}
	})
	if l == nil {
		return
	}
	for _, s := range l.Skipped {
		skips[s.Path] = s
	}

	wantTarget, err := filepath.EvalSymlinks(note)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path   string
		read   bool // listed and read
		reason Reason
		detail string
	}{
		{path: "zero.md", reason: ReasonNotRegular, detail: `symlink to character device "/dev/zero"`},
		{path: "pipe.md", reason: ReasonNotRegular, detail: "symlink to named pipe (FIFO)"},
		{path: "fifo.md", reason: ReasonNotRegular, detail: "named pipe (FIFO)"},
		{path: "sock.md", reason: ReasonNotRegular, detail: "socket"},
		{path: "dangling.md", reason: ReasonUnreadable, detail: "missing.md"},
		{path: "link.md", read: true},
		// Links to folders are not followed, as before: reported as an
		// unsupported type, or left out silently when named like a note.
		{path: "dirlink", reason: ReasonUnsupported},
		{path: "dirlink.md"},
	}
	for _, c := range cases {
		n, read := notes[c.path]
		s, skipped := skips[c.path]
		switch {
		case c.read != read:
			t.Errorf("%s: read = %v, want %v (skip %+v)", c.path, read, c.read, s)
		case c.reason == "" && skipped:
			t.Errorf("%s: skipped: %+v", c.path, s)
		case c.reason != "" && (s.Reason != c.reason || !strings.Contains(s.Detail, c.detail)):
			t.Errorf("%s: skip = %+v, want %s %q", c.path, s, c.reason, c.detail)
		}
		if read && n.Body != "Sesión 3: la canción del ñandú\n" {
			t.Errorf("%s: body %q", c.path, n.Body)
		}
	}
	if got := len(notes) + len(skips); got != len(cases)-1 {
		t.Errorf("%d files read or skipped, want %d: %v %v", got, len(cases)-1, notes, skips)
	}
	for _, f := range l.Files {
		want := ""
		if f.Path == "link.md" {
			want = wantTarget
		}
		if f.Target != want {
			t.Errorf("%s: target %q, want %q", f.Path, f.Target, want)
		}
	}
	if !slices.Equal(l.Incomplete, []string{"dangling.md"}) {
		t.Errorf("incomplete = %q", l.Incomplete)
	}
}

// TestReadSpecialFiles: a file that changed between the walk and the read
// is judged again on what is opened: Read never blocks on it nor reads it
// without bound.
func TestReadSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	note := filepath.Join(dir, "note.md")
	other := filepath.Join(dir, "other.md")
	fifo := filepath.Join(dir, "fifo.md")
	link := filepath.Join(dir, "link.md")
	must(t, os.WriteFile(note, []byte("la nota"), 0o644))
	must(t, os.WriteFile(other, []byte("otra nota"), 0o644))
	must(t, syscall.Mkfifo(fifo, 0o644))
	must(t, os.Symlink(other, link))
	cases := []struct {
		name   string
		file   File
		max    int64
		body   string
		reason Reason
		detail string
	}{
		{name: "a FIFO", file: File{Path: "fifo.md", Abs: fifo}, reason: ReasonNotRegular, detail: "named pipe (FIFO)"},
		{name: "a device", file: File{Path: "zero.md", Abs: "/dev/zero"}, reason: ReasonNotRegular, detail: "character device"},
		{name: "a link's target swapped for a device", file: File{Path: "link.md", Abs: link, Target: "/dev/zero"},
			reason: ReasonNotRegular, detail: "character device"},
		{name: "a file swapped for a symlink is not followed", file: File{Path: "link.md", Abs: link},
			reason: ReasonNotRegular, detail: "symlink"},
		{name: "a link re-pointed after the walk: its Target is read", file: File{Path: "link.md", Abs: link, Target: note}, body: "la nota"},
		// Regular, and size 0 to stat, yet far from empty.
		{name: "a file larger than stat says", file: File{Path: "maps.md", Abs: "/proc/self/maps"}, max: 16,
			reason: ReasonTooLarge, detail: "more than 16 bytes"},
	}
	for _, c := range cases {
		if _, err := os.Stat(c.file.Abs); err != nil {
			t.Logf("%s: %v", c.name, err)
			continue
		}
		var n *Note
		var skip *Skip
		within(t, func() { n, skip = Read(c.file, c.max) })
		switch {
		case c.reason == "" && skip != nil:
			t.Errorf("%s: skipped: %+v", c.name, skip)
		case c.reason == "" && n.Body != c.body:
			t.Errorf("%s: body %q, want %q", c.name, n.Body, c.body)
		case c.reason != "" && (skip == nil || skip.Reason != c.reason || !strings.Contains(skip.Detail, c.detail)):
			t.Errorf("%s: skip = %+v, want %s %q", c.name, skip, c.reason, c.detail)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
