package ingest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name       string
		in         string
		title      string
		body       string
		aliases    []string
		visibility string
		repairs    string
		warning    string
		skip       Reason
	}{
		{name: "plain", in: "# Hola\n\ntexto\n", body: "# Hola\n\ntexto\n"},
		{name: "front matter", in: "---\ntitle: Harbin Wester\naliases: [el viejo, Harbin]\ntags: npc\nvisibility: DM\n---\n# Harbin\n",
			title: "Harbin Wester", body: "# Harbin\n", aliases: []string{"el viejo", "Harbin"}, visibility: "dm"},
		{name: "aliases as a string", in: "---\naliases: uno, dos\n---\nx", body: "x", aliases: []string{"uno", "dos"}},
		{name: "CRLF and BOM", in: "\ufeff---\r\ntitle: T\r\n---\r\nuno\r\ndos\r\n", title: "T", body: "uno\ndos\n"},
		{name: "unclosed front matter is text", in: "---\ntitle: x\nsin cierre\n", body: "---\ntitle: x\nsin cierre\n"},
		{name: "bad yaml kept as text", in: "---\ntitle: [x\n---\ncuerpo\n", body: "---\ntitle: [x\n---\ncuerpo\n", warning: "not valid YAML"},
		{name: "invalid utf-8 repaired", in: "canción \xff fin", body: "canción \uFFFD fin", repairs: "replaced 1 invalid"},
		{name: "windows-1252 decoded", in: "Canci\xf3n del a\xf1o", body: "Canción del año", repairs: "Windows-1252"},
		{name: "binary", in: "PNG\x00\x01", skip: ReasonBinary},
		{name: "empty", in: "  \n\n", skip: ReasonEmpty},
		{name: "front matter only with title", in: "---\ntitle: Solo\n---\n", title: "Solo", body: ""},
	}
	for _, c := range cases {
		n, skip := Parse("a.md", []byte(c.in))
		if c.skip != "" {
			if skip == nil || skip.Reason != c.skip {
				t.Errorf("%s: skip = %+v, want %s", c.name, skip, c.skip)
			}
			continue
		}
		if skip != nil {
			t.Errorf("%s: skipped: %+v", c.name, skip)
			continue
		}
		if n.Title != c.title || n.Body != c.body || n.Visibility != c.visibility || !reflect.DeepEqual(n.Aliases, c.aliases) {
			t.Errorf("%s: got title %q body %q vis %q aliases %q", c.name, n.Title, n.Body, n.Visibility, n.Aliases)
		}
		if !strings.Contains(n.Repairs, c.repairs) || (c.repairs == "" && n.Repairs != "") {
			t.Errorf("%s: repairs %q, want %q", c.name, n.Repairs, c.repairs)
		}
		if c.warning != "" && (len(n.Warnings) != 1 || !strings.Contains(n.Warnings[0], c.warning)) {
			t.Errorf("%s: warnings %q", c.name, n.Warnings)
		}
		if len(n.SHA256) != 64 {
			t.Errorf("%s: sha256 %q", c.name, n.SHA256)
		}
	}
}

func TestWalk(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a.md", "Sub/b.markdown", "Sub/c.TXT", ".obsidian/x.md", "Sub/.hidden.md", "img.png", ".git/HEAD"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("x"), 0o644)
	}
	l, err := Walk(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range l.Files {
		got = append(got, f.Path)
	}
	if want := []string{"Sub/b.markdown", "Sub/c.TXT", "a.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files = %q, want %q", got, want)
	}
	if len(l.Skipped) != 1 || l.Skipped[0].Path != "img.png" || l.Skipped[0].Reason != ReasonUnsupported {
		t.Errorf("skipped = %+v", l.Skipped)
	}
	if _, err := Walk(filepath.Join(root, "missing")); err == nil {
		t.Error("walking a missing folder succeeded")
	}
	if _, err := Walk(filepath.Join(root, "a.md")); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("walking a file: %v", err)
	}
}

func TestReadTooLarge(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.md")
	os.WriteFile(p, []byte(strings.Repeat("a ", 100)), 0o644)
	_, skip := Read(File{Path: "big.md", Abs: p, Size: 200}, 100)
	if skip == nil || skip.Reason != ReasonTooLarge {
		t.Fatalf("skip = %+v", skip)
	}
	// The walk saw it small; it grew before the read.
	_, skip = Read(File{Path: "big.md", Abs: p, Size: 10}, 100)
	if skip == nil || skip.Reason != ReasonTooLarge || skip.Detail != "200 bytes > 100" {
		t.Fatalf("skip = %+v", skip)
	}
	_, skip = Read(File{Path: "gone.md", Abs: p + ".gone"}, 100)
	if skip == nil || skip.Reason != ReasonUnreadable {
		t.Fatalf("skip = %+v", skip)
	}
}
