package load

import (
	"archive/zip"
	"bytes"
	"reflect"
	"testing"
)

func zipOf(t *testing.T, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		w, err := zw.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSniff(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"a.pdf", []byte("%PDF-1.7\n..."), KindPDF},
		{"disfrazado.md", []byte("%PDF-1.4\n"), KindPDF},
		{"a.docx", zipOf(t, "[Content_Types].xml", "x", "word/document.xml", "<w:document/>"), KindDOCX},
		{"a.odt", zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text", "content.xml", "x"), KindODT},
		{"a.epub", zipOf(t, "mimetype", "application/epub+zip", "META-INF/container.xml", "x"), KindEPUB},
		{"a.zip", zipOf(t, "notas.md", "hola"), ""},
		{"a.docx", []byte("PK\x03\x04 not really a zip"), ""},
		{"a.md", []byte("# Sesión 1"), ""},
	} {
		if got := sniff(tt.data); got != tt.want {
			t.Errorf("sniff(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	d := &Document{Blocks: []Block{
		{Level: 1, Text: "Manual", Page: 1},
		{Text: "Primer  párrafo\n partido.", Page: 1},
		{Text: "   ", Page: 2},
		{Level: 2, Text: "Combate", Page: 3},
		{Text: "Tira iniciativa.", Page: 3},
		{Text: "Sigue.", Page: 4},
	}}
	d.clean()
	body, pages := d.Markdown()
	want := "# Manual\n\nPrimer párrafo partido.\n\n## Combate\n\nTira iniciativa.\n\nSigue.\n"
	if body != want {
		t.Errorf("body = %q, want %q", body, want)
	}
	wantPages := []PageStart{{0, 1}, {36, 3}, {66, 4}}
	if !reflect.DeepEqual(pages, wantPages) {
		t.Errorf("pages = %v, want %v", pages, wantPages)
	}
	for off, page := range map[int]int{0: 1, 35: 1, 36: 3, 65: 3, 66: 4, 500: 4} {
		if got := PageAt(pages, off); got != page {
			t.Errorf("PageAt(%d) = %d, want %d", off, got, page)
		}
	}
	if got := PageAt(nil, 10); got != 0 {
		t.Errorf("PageAt without pages = %d", got)
	}
}

func TestLoadRecovers(t *testing.T) {
	saved := formats[KindHTML]
	defer func() { formats[KindHTML] = saved }()
	register(KindHTML, func([]byte) (*Document, error) { panic("index out of range") })
	if doc, err := Load("a.html", []byte("<p>x")); err == nil || doc != nil {
		t.Errorf("a loader's panic: %v, %v", doc, err)
	}
	if _, err := Load("a.md", []byte("# x")); err == nil {
		t.Error("a note loaded as a document")
	}
}
