package ingest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	textunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
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
		frontRaw   string
		skip       Reason
	}{
		{name: "plain", in: "# Hola\n\ntexto\n", body: "# Hola\n\ntexto\n"},
		{name: "front matter", in: "---\ntitle: Harbin Wester\naliases: [el viejo, Harbin]\ntags: npc\nvisibility: DM\n---\n# Harbin\n",
			title: "Harbin Wester", body: "# Harbin\n", aliases: []string{"el viejo", "Harbin"}, visibility: "dm",
			frontRaw: "title: Harbin Wester\naliases: [el viejo, Harbin]\ntags: npc\nvisibility: DM\n"},
		{name: "aliases as a string", in: "---\naliases: uno, dos\n---\nx", body: "x", aliases: []string{"uno", "dos"}, frontRaw: "aliases: uno, dos\n"},
		{name: "CRLF and BOM", in: "\ufeff---\r\ntitle: T\r\n---\r\nuno\r\ndos\r\n", title: "T", body: "uno\ndos\n", frontRaw: "title: T\n"},
		{name: "unclosed front matter is text", in: "---\ntitle: x\nsin cierre\n", body: "---\ntitle: x\nsin cierre\n"},
		{name: "bad yaml kept as text", in: "---\ntitle: [x\n---\ncuerpo\n", body: "---\ntitle: [x\n---\ncuerpo\n", warning: "not valid YAML", frontRaw: "title: [x\n"},
		{name: "duplicate keys kept as text", in: "---\nvisibility: dm\nvisibility: players\n---\nx\n", body: "---\nvisibility: dm\nvisibility: players\n---\nx\n",
			warning: `mapping key "visibility" already defined`, frontRaw: "visibility: dm\nvisibility: players\n"},
		{name: "front matter over the size bound kept as text", in: "---\n" + bigFront + "---\nx\n", body: "---\n" + bigFront + "---\nx\n",
			warning: fmt.Sprintf("front matter is %d bytes, over the bound of 65536", len(bigFront)), frontRaw: bigFront},
		{name: "front matter of too many keys kept as text", in: "---\n" + manyKeys + "---\nx\n", body: "---\n" + manyKeys + "---\nx\n",
			warning: "more than 4096 YAML nodes", frontRaw: manyKeys},
		{name: "UTF-16 LE", in: encode(textunicode.UTF16(textunicode.LittleEndian, textunicode.UseBOM), sesion),
			title: "Sesión 3", body: "la canción del ñandú\n", repairs: "decoded from UTF-16 LE", frontRaw: "title: Sesión 3\n"},
		{name: "UTF-16 BE", in: encode(textunicode.UTF16(textunicode.BigEndian, textunicode.UseBOM), sesion),
			title: "Sesión 3", body: "la canción del ñandú\n", repairs: "decoded from UTF-16 BE", frontRaw: "title: Sesión 3\n"},
		{name: "UTF-32 LE", in: encode(utf32.UTF32(utf32.LittleEndian, utf32.UseBOM), sesion),
			title: "Sesión 3", body: "la canción del ñandú\n", repairs: "decoded from UTF-32 LE", frontRaw: "title: Sesión 3\n"},
		{name: "UTF-32 BE", in: encode(utf32.UTF32(utf32.BigEndian, utf32.UseBOM), sesion),
			title: "Sesión 3", body: "la canción del ñandú\n", repairs: "decoded from UTF-32 BE", frontRaw: "title: Sesión 3\n"},
		{name: "UTF-16 LE without BOM", in: encode(textunicode.UTF16(textunicode.LittleEndian, textunicode.IgnoreBOM), sesion),
			title: "Sesión 3", body: "la canción del ñandú\n", repairs: "decoded from UTF-16 LE (no byte-order mark)", frontRaw: "title: Sesión 3\n"},
		{name: "UTF-16 BE without BOM", in: encode(textunicode.UTF16(textunicode.BigEndian, textunicode.IgnoreBOM), sesion),
			title: "Sesión 3", body: "la canción del ñandú\n", repairs: "decoded from UTF-16 BE (no byte-order mark)", frontRaw: "title: Sesión 3\n"},
		{name: "UTF-16 with a NUL", in: encode(textunicode.UTF16(textunicode.LittleEndian, textunicode.UseBOM), "canción\x00"), skip: ReasonBinary},
		{name: "UTF-32 with a NUL", in: encode(utf32.UTF32(utf32.BigEndian, utf32.UseBOM), "\x00canción"), skip: ReasonBinary},
		{name: "UTF-16 without BOM with a control character", in: encode(textunicode.UTF16(textunicode.LittleEndian, textunicode.IgnoreBOM), "canción\x01"), skip: ReasonBinary},
		{name: "NUL after 8 KiB", in: strings.Repeat("la canción del ñandú ", 500) + "\x00", skip: ReasonBinary},
		{name: "UTF-8 BOM and a NUL", in: "\ufeffcanción\x00", skip: ReasonBinary},
		{name: "invalid utf-8 repaired", in: "canción \xff fin", body: "canción \uFFFD fin", repairs: "replaced 1 invalid"},
		{name: "windows-1252 decoded", in: "Canci\xf3n del a\xf1o", body: "Canción del año", repairs: "Windows-1252"},
		{name: "binary", in: "PNG\x00\x01", skip: ReasonBinary},
		{name: "empty", in: "  \n\n", skip: ReasonEmpty},
		{name: "front matter only with title", in: "---\ntitle: Solo\n---\n", title: "Solo", body: "", frontRaw: "title: Solo\n"},
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
		if c.warning == "" && len(n.Warnings) != 0 {
			t.Errorf("%s: unexpected warnings %q", c.name, n.Warnings)
		}
		if n.FrontMatterRaw != c.frontRaw {
			t.Errorf("%s: front matter %q, want %q", c.name, n.FrontMatterRaw, c.frontRaw)
		}
		if len(n.SHA256) != 64 {
			t.Errorf("%s: sha256 %q", c.name, n.SHA256)
		}
	}
}

// sesion is a note with front matter, CRLF line endings and Spanish accents.
const sesion = "---\r\ntitle: Sesión 3\r\n---\r\nla canción del ñandú\r\n"

var (
	// bigFront is a valid front matter of 70 KiB.
	bigFront = "visibility: dm\nnotas: |\n" + strings.Repeat("  la canción del ñandú\n", 70<<10/25)
	// manyKeys is a front matter under 64 KiB with more nodes than allowed.
	manyKeys = func() string {
		var b strings.Builder
		for i := range 3000 {
			fmt.Fprintf(&b, "k%d: v\n", i)
		}
		return b.String()
	}()
)

func encode(enc encoding.Encoding, s string) string {
	out, err := enc.NewEncoder().String(s)
	if err != nil {
		panic(err)
	}
	return out
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

// TestParseBinaries: files that are not text are skipped as binary, however
// their NUL bytes fall; none passes for UTF-16 without a byte-order mark.
func TestParseBinaries(t *testing.T) {
	var img bytes.Buffer
	m := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range m.Pix {
		m.Pix[i] = byte(i * 7)
	}
	if err := png.Encode(&img, m); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(strings.Repeat("la canción del ñandú\n", 100)))
	w.Close()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	program, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, 1<<16)
	rand.NewChaCha8([32]byte{1}).Read(noise)
	// Text and NULs, as a UTF-16 reading would see them: ASCII in every
	// second byte, but a control character among them.
	controls := encode(textunicode.UTF16(textunicode.LittleEndian, textunicode.IgnoreBOM), "canci\u00f3n\x1b[0m")
	cases := []struct {
		name string
		data []byte
	}{
		{"PNG", img.Bytes()},
		{"PNG signature and header", img.Bytes()[:16]},
		{"gzip", gz.Bytes()},
		{"this test's program", program},
		{"random bytes", noise},
		{"UTF-8 text with a NUL", []byte("la canción\x00 del ñandú")},
		{"UTF-16 LE with an escape", []byte(controls)},
		{"one NUL", []byte{0}},
		{"NUL pairs", []byte{0, 0, 0, 0}},
	}
	for _, c := range cases {
		if n, skip := Parse("x.md", c.data); skip == nil || skip.Reason != ReasonBinary {
			t.Errorf("%s: not binary: skip %+v, note %+v", c.name, skip, n)
		}
	}
}

// FuzzParse: no input panics, and a note's text is valid UTF-8 without NUL.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"# Hola\n\ntexto\n", sesion, "---\ntitle: [x\n---\ncuerpo\n", "Canci\xf3n del a\xf1o", "PNG\x00\x01",
		"---\na: &a [*a]\n---\nb\n", "---\nb: &b {x: 1}\nc: *b\nd: {<<: *b}\n---\nb\n",
		encode(textunicode.UTF16(textunicode.LittleEndian, textunicode.UseBOM), sesion),
		encode(textunicode.UTF16(textunicode.BigEndian, textunicode.IgnoreBOM), sesion),
		encode(utf32.UTF32(utf32.LittleEndian, utf32.UseBOM), sesion),
		"\xff\xfe\x00\x00\x41\x00", "\xfe\xff\xd8\x00", "\ufeff---\r\ntitle: T\r\n...\r\nx",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, skip := Parse("f.md", data)
		if (n == nil) == (skip == nil) {
			t.Fatalf("note %v, skip %v", n, skip)
		}
		if n == nil {
			return
		}
		for _, s := range append([]string{n.Title, n.Body, n.FrontMatterRaw, n.Visibility}, append(n.Aliases, n.Tags...)...) {
			if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
				t.Fatalf("not valid text: %q", s)
			}
		}
		if !json.Valid(n.Metadata) {
			t.Fatalf("metadata %q", n.Metadata)
		}
	})
}

// BenchmarkParseFrontMatter: front matters that yaml.v3 alone decodes in
// quadratic time.
func BenchmarkParseFrontMatter(b *testing.B) {
	fill := func(size int, line func(i int) string) string {
		var sb strings.Builder
		for i := 0; sb.Len() < size; i++ {
			sb.WriteString(line(i))
		}
		return sb.String()
	}
	for _, c := range []struct{ name, front string }{
		{"64KiB of short keys", fill(MaxFrontMatterBytes-16, func(i int) string { return fmt.Sprintf("k%d: v\n", i) })},
		{"2000 short keys", strings.Join(strings.SplitAfter(manyKeys, "\n")[:2000], "")},
		{"64KiB of one duplicate key", fill(MaxFrontMatterBytes-16, func(int) string { return "k: v\n" })},
		{"64KiB flow map of one duplicate key", "{" + fill(MaxFrontMatterBytes-16, func(int) string { return "k: v, " }) + "}\n"},
	} {
		data := []byte("---\n" + c.front + "---\nx\n")
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				n, _ := Parse("b.md", data)
				b.ReportMetric(float64(len(n.Warnings)), "warnings")
			}
		})
	}
}
