package load

import (
	"archive/zip"
	"bytes"
	"os"
	"reflect"
	"testing"
)

// loadFixture loads a file of testdata.
func loadFixture(t testing.TB, name string) *Document {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Load(name, data)
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return d
}

// sameBlocks fails t unless got is want, block by block.
func sameBlocks(t *testing.T, name string, got, want []Block) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	for i := range max(len(got), len(want)) {
		var g, w Block
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s block %d = %+v, want %+v", name, i, g, w)
		}
	}
}

// reglas is the house rules document as every office fixture reads,
// after its title page.
var reglas = []Block{
	{Level: 1, Text: "Creación de personajes"},
	{Text: "Cada jugador tira 4d6 y descarta el dado más bajo, seis veces, y los reparte como quiera."},
	{Level: 2, Text: "Trasfondos"},
	{Text: "Los trasfondos permitidos en la Marca son:"},
	{Text: "- Campesino de Robleda"},
	{Text: "- Soldado licenciado"},
	{Text: "- Acólito del Alba"},
	{Level: 1, Text: "Combate"},
	{Level: 2, Text: "Iniciativa"},
	// "una vez por combate" was deleted, "al comienzo de cada asalto" inserted.
	{Text: "La iniciativa se tira al comienzo de cada asalto con 1d20 más el modificador de Destreza."},
	// The comment ("Revisar con el grupo...") is not the text.
	{Text: "Los críticos duplican todos los dados de daño."},
	{Level: 2, Text: "Muerte y heridas"}, // a custom style named "Título 2"
	{Text: "A 0 puntos de golpe el personaje queda inconsciente y tira salvación contra muerte."},
	{Text: "[1] Como en la tercera edición, con tres fallos se muere."},
	{Level: 1, Text: "Personajes no jugadores"},
	{Text: "Nombre: Anika · Rol: molinera · Lugar: Robleda"},
	{Text: "Nombre: Brom · Rol: herrero · Lugar: Robleda"},
	{Text: "Nombre: Ser Aldric · Rol: capitán de la guardia · Lugar: Castillo de Vigía"},
}

func TestDOCXFixture(t *testing.T) {
	d := loadFixture(t, "docx/reglas.docx")
	if d.Kind != KindDOCX || d.Title != "Reglas de la casa — La Marca del Este" {
		t.Errorf("kind %q, title %q", d.Kind, d.Title)
	}
	want := append([]Block{
		{Text: "Reglas de la casa — La Marca del Este"}, // pandoc's Title paragraph
		{Text: "El DM"},
	}, reglas...)
	sameBlocks(t, "reglas.docx", d.Blocks, want)
}

// docxOf is a Word document of a body and its styles.
func docxOf(t *testing.T, body, styles string) []byte {
	t.Helper()
	const w = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	files := []string{"word/document.xml", `<w:document ` + w + `><w:body>` + body + `</w:body></w:document>`}
	if styles != "" {
		files = append(files, "word/styles.xml", `<w:styles `+w+`>`+styles+`</w:styles>`)
	}
	return zipOf(t, files...)
}

func TestDOCX(t *testing.T) {
	// Word in Spanish: localized ids, the built-in names; a style of the
	// user's based on a heading; outline levels set on a style or a
	// paragraph.
	const styles = `
<w:style w:type="paragraph" w:styleId="Ttulo1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Ttulo2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Ttulo"><w:name w:val="Title"/></w:style>
<w:style w:type="paragraph" w:styleId="Hechizo"><w:name w:val="Hechizo"/><w:basedOn w:val="Ttulo2"/></w:style>
<w:style w:type="paragraph" w:styleId="Capitulo"><w:name w:val="Capítulo"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Bucle"><w:name w:val="Bucle"/><w:basedOn w:val="Bucle"/></w:style>
<w:style w:type="paragraph" w:styleId="Vieta"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr></w:style>`
	p := func(style, text string) string {
		return `<w:p><w:pPr><w:pStyle w:val="` + style + `"/></w:pPr><w:r><w:t>` + text + `</w:t></w:r></w:p>`
	}
	for _, tt := range []struct {
		name, body, styles string
		want               []Block
	}{
		{"styles", p("Ttulo", "Grimorio") + p("Ttulo1", "Magia") + p("Hechizo", "Bola de fuego") +
			p("Capitulo", "Escuelas") + p("Bucle", "Sin fin") + p("Vieta", "evocación") +
			`<w:p><w:pPr><w:pStyle w:val="Vieta"/><w:numPr><w:numId w:val="0"/></w:numPr></w:pPr><w:r><w:t>sin viñeta</w:t></w:r></w:p>` +
			`<w:p><w:pPr><w:outlineLvl w:val="3"/></w:pPr><w:r><w:t>Nivel cuatro</w:t></w:r></w:p>`, styles,
			[]Block{{Text: "Grimorio"}, {Level: 1, Text: "Magia"}, {Level: 2, Text: "Bola de fuego"},
				{Level: 3, Text: "Escuelas"}, {Text: "Sin fin"}, {Text: "- evocación"}, {Text: "sin viñeta"},
				{Level: 4, Text: "Nivel cuatro"}}},
		{"ids without styles.xml", p("Heading3", "Tres") + p("Título1", "Uno") + p("Normal", "Texto"), "",
			[]Block{{Level: 3, Text: "Tres"}, {Level: 1, Text: "Uno"}, {Text: "Texto"}}},
		{"runs", `<w:p><w:r><w:t>Ti</w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>oculto</w:t></w:r>` +
			`<w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t>ra</w:t></w:r><w:r><w:tab/><w:t>1d6</w:t></w:r>` +
			`<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGEREF _Toc1 \h</w:instrText></w:r>` +
			`<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>` +
			`<w:moveFrom><w:r><w:t>movido</w:t></w:r></w:moveFrom><w:ins><w:r><w:t>!</w:t></w:r></w:ins></w:p>`, "",
			[]Block{{Text: "Tira 1d67!"}}},
		{"table without a marked header", `<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Arma</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Daño</w:t></w:r></w:p></w:tc></w:tr>` +
			`<w:tr><w:tc><w:p><w:r><w:t>Daga</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>1d4</w:t></w:r></w:p><w:p><w:r><w:t>arrojadiza</w:t></w:r></w:p></w:tc></w:tr>` +
			`<w:tr><w:trPr><w:del/></w:trPr><w:tc><w:p><w:r><w:t>Borrada</w:t></w:r></w:p></w:tc></w:tr>` +
			`<w:tr><w:tc><w:p/></w:tc><w:tc><w:p><w:r><w:t>1d8</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`, "",
			[]Block{{Text: "Arma: Daga · Daño: 1d4 arrojadiza"}, {Text: "Daño: 1d8"}}},
		{"content control", `<w:sdt><w:sdtPr/><w:sdtContent>` + p("Heading2", "Dentro") + `</w:sdtContent></w:sdt>`, "",
			[]Block{{Level: 2, Text: "Dentro"}}},
	} {
		d, err := Load("a.docx", docxOf(t, tt.body, tt.styles))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		sameBlocks(t, tt.name, d.Blocks, tt.want)
	}
}

func TestDOCXDamaged(t *testing.T) {
	for name, data := range map[string][]byte{
		"not xml":    zipOf(t, "word/document.xml", "<w:document><w:body><w:p>"),
		"too deep":   zipOf(t, "word/document.xml", "<a>"+repeat("<b>", maxDepth+10)),
		"no archive": []byte("PK\x03\x04 truncated"),
	} {
		if _, err := loadDOCX(data); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func repeat(s string, n int) string {
	b := make([]byte, 0, len(s)*n)
	for range n {
		b = append(b, s...)
	}
	return string(b)
}

// zipped is an archive of name, content pairs, for fuzzing the parts
// themselves rather than the archive around them.
func zipped(files ...string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		w, _ := zw.Create(files[i])
		w.Write([]byte(files[i+1]))
	}
	zw.Close()
	return buf.Bytes()
}

// zipEntry is an entry of a fixture archive.
func zipEntry(f *testing.F, data []byte, name string) string {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range zr.File {
		if e.Name == name {
			b, err := readZipFile(e, maxPart)
			if err != nil {
				f.Fatal(err)
			}
			return string(b)
		}
	}
	f.Fatalf("no %s", name)
	return ""
}

// FuzzDOCX reads archives, and document parts wrapped in one.
func FuzzDOCX(f *testing.F) {
	data, err := os.ReadFile("testdata/docx/reglas.docx")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(zipEntry(f, data, "word/document.xml")))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(data, []byte("PK")) {
			data = zipped("word/document.xml", string(data))
		}
		loadDOCX(data) // must not panic; errors are fine
	})
}
