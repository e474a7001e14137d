package load

import (
	"bytes"
	"os"
	"testing"
)

func TestEPUBFixture(t *testing.T) {
	d := loadFixture(t, "epub/torre.epub")
	if d.Kind != KindEPUB || d.Title != "La torre del hechicero" {
		t.Errorf("kind %q, title %q", d.Kind, d.Title)
	}
	sameBlocks(t, "torre.epub", d.Blocks, []Block{
		{Level: 1, Text: "La torre del hechicero"}, // pandoc's title page
		{Text: "El DM"},
		{Text: "2026-01-01"},
		{Level: 1, Text: "La llegada"},
		{Text: "Los personajes llegan a Robleda al caer la noche. Anika, la molinera, les habla de la torre."},
		{Level: 2, Text: "Rumores"},
		{Text: "- La torre estaba vacía hace un mes."},
		{Text: "- Brom vio luces verdes en la ventana más alta."},
		{Level: 1, Text: "La torre"},
		{Text: "La puerta no tiene cerradura."},
		{Text: "Sala: Vestíbulo · Peligro: dos gárgolas"},
		{Text: "Sala: Biblioteca · Peligro: un libro que muerde"},
		{Level: 1, Text: "Epílogo"},
		{Text: "Fin."},
	})
}

// epubOf is a book whose package document is opf, with its chapters.
func epubOf(opf string, chapters ...string) []byte {
	files := []string{"mimetype", "application/epub+zip",
		"META-INF/container.xml", `<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles>` +
			`<rootfile full-path="OPS/libro.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"OPS/libro.opf", `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">` + opf + `</package>`}
	return zipped(append(files, chapters...)...)
}

func xhtml(body string) string {
	return `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title/><link rel="stylesheet" href="a.css"/></head><body>` + body + `</body></html>`
}

func TestEPUB(t *testing.T) {
	const opf = `<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Crónicas  de la Marca</dc:title><dc:title>Otro</dc:title></metadata>
<manifest>
 <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
 <item id="indice" href="text/indice.xhtml" media-type="application/xhtml+xml"/>
 <item id="c1" href="text/cap%20uno.xhtml" media-type="application/xhtml+xml"/>
 <item id="c2" href="text/cap2.xhtml#inicio" media-type="application/xhtml+xml"/>
 <item id="img" href="portada.jpg" media-type="image/jpeg"/>
</manifest>
<spine><itemref idref="nav"/><itemref idref="indice"/><itemref idref="c2"/><itemref idref="img"/><itemref idref="c1"/><itemref idref="c2"/><itemref idref="perdido"/></spine>
<guide><reference type="toc" href="text/indice.xhtml"/></guide>`
	book := epubOf(opf,
		"OPS/nav.xhtml", xhtml(`<nav epub:type="toc"><ol><li><a href="text/cap%20uno.xhtml">Uno</a></li></ol></nav>`),
		"OPS/text/indice.xhtml", xhtml(`<h1>Índice</h1><p>Uno ... 1</p>`),
		"OPS/text/cap uno.xhtml", xhtml(`<section><h1>Uno</h1><p>Primero.</p><script/><p>Sigue.</p></section>`),
		// A short chapter whose markup on a web page would be furniture.
		"OPS/text/cap2.xhtml", xhtml(`<header><h1>Dos</h1></header><div class="footer nav">Fin.</div><aside epub:type="footnote"><p>Nota.</p></aside>`),
	)
	d, err := Load("libro.epub", book)
	if err != nil {
		t.Fatal(err)
	}
	if d.Title != "Crónicas de la Marca" {
		t.Errorf("title %q", d.Title)
	}
	sameBlocks(t, "spine", d.Blocks, []Block{
		{Level: 1, Text: "Dos"}, {Text: "Fin."}, {Text: "Nota."},
		{Level: 1, Text: "Uno"}, {Text: "Primero."}, {Text: "Sigue."},
	})

	for name, data := range map[string][]byte{
		"no container": zipped("mimetype", "application/epub+zip"),
		"no spine":     epubOf(`<manifest/>`),
		"missing chapter": epubOf(`<manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest>` +
			`<spine><itemref idref="a"/></spine>`),
	} {
		if _, err := loadEPUB(data); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// FuzzEPUB reads archives, and chapters wrapped in a book.
func FuzzEPUB(f *testing.F) {
	data, err := os.ReadFile("testdata/epub/torre.epub")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(zipEntry(f, data, "EPUB/text/ch002.xhtml")))
	const opf = `<manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/></spine>`
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(data, []byte("PK")) {
			data = epubOf(opf, "OPS/a.xhtml", string(data))
		}
		loadEPUB(data) // must not panic; errors are fine
	})
}
