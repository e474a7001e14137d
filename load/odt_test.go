package load

import (
	"os"
	"testing"
)

func TestODTFixture(t *testing.T) {
	d := loadFixture(t, "odt/reglas.odt")
	if d.Kind != KindODT || d.Title != "Reglas de la casa — La Marca del Este" {
		t.Errorf("kind %q, title %q", d.Kind, d.Title)
	}
	want := append([]Block{
		{Text: "Reglas de la casa — La Marca del Este"},
		{Text: "El DM"},
	}, reglas...)
	sameBlocks(t, "reglas.odt", d.Blocks, want)
}

const odtNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"`

// odtOf is an OpenDocument text of a body and its automatic styles.
func odtOf(body, styles string) []byte {
	return zipped("mimetype", "application/vnd.oasis.opendocument.text",
		"content.xml", `<office:document-content `+odtNS+`><office:automatic-styles>`+styles+
			`</office:automatic-styles><office:body><office:text>`+body+`</office:text></office:body></office:document-content>`)
}

func TestODT(t *testing.T) {
	const styles = `
<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Hechizo"/>
<style:style style:name="Hechizo" style:family="paragraph" style:parent-style-name="Heading_20_3"/>
<style:style style:name="Heading_20_3" style:family="paragraph" style:default-outline-level="3"/>
<style:style style:name="T_c3_ad_tulo_20_2" style:display-name="Título 2" style:family="paragraph"/>
<style:style style:name="Bucle" style:family="paragraph" style:parent-style-name="Bucle"/>`
	for _, tt := range []struct {
		name, body string
		want       []Block
	}{
		{"headings", `<text:h text:outline-level="4">Cuatro</text:h><text:h>Sin nivel</text:h>` +
			`<text:p text:style-name="P1">Bola de fuego</text:p><text:p text:style-name="T_c3_ad_tulo_20_2">Dos</text:p>` +
			`<text:p text:style-name="Bucle">Sin fin</text:p>`,
			[]Block{{Level: 4, Text: "Cuatro"}, {Level: 1, Text: "Sin nivel"}, {Level: 3, Text: "Bola de fuego"},
				{Level: 2, Text: "Dos"}, {Text: "Sin fin"}}},
		{"changes and comments", `<text:tracked-changes><text:changed-region text:id="c1"><text:deletion>` +
			`<text:p>borrado</text:p></text:deletion></text:changed-region></text:tracked-changes>` +
			`<text:p>Tira<text:s text:c="1000000000"/><text:change text:change-id="c1"/>` +
			`<text:change-start text:change-id="c2"/>2d6<text:change-end text:change-id="c2"/>` +
			`<office:annotation><dc:creator>DM</dc:creator><text:p>nota del DM</text:p></office:annotation>.<office:annotation-end/></text:p>`,
			[]Block{{Text: "Tira 2d6."}}},
		{"lists", `<text:list><text:list-item><text:p>uno</text:p><text:list><text:list-item><text:p>uno y medio</text:p>` +
			`</text:list-item></text:list></text:list-item><text:list-item><text:h text:outline-level="2">Dos</text:h></text:list-item></text:list>`,
			[]Block{{Text: "- uno"}, {Text: "- uno y medio"}, {Level: 2, Text: "Dos"}}},
		{"index and table", `<text:table-of-content><text:index-body><text:p>Combate 7</text:p></text:index-body></text:table-of-content>` +
			`<table:table><table:table-row><table:table-cell><text:p>Arma</text:p></table:table-cell><table:table-cell><text:p>Daño</text:p></table:table-cell></table:table-row>` +
			`<table:table-rows><table:table-row table:number-rows-repeated="1000000"><table:table-cell><text:p>Daga</text:p></table:table-cell>` +
			`<table:covered-table-cell/><table:table-cell table:number-columns-repeated="1000000"><text:p>1d4</text:p></table:table-cell></table:table-row></table:table-rows></table:table>`,
			[]Block{{Text: "Arma: Daga · 1d4"}}},
		{"notes", `<text:p>Muere.<text:note><text:note-citation>a</text:note-citation><text:note-body><text:p>Tres fallos.</text:p></text:note-body></text:note></text:p><text:p>Sigue.</text:p>`,
			[]Block{{Text: "Muere."}, {Text: "[a] Tres fallos."}, {Text: "Sigue."}}},
	} {
		d, err := Load("a.odt", odtOf(tt.body, styles))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		sameBlocks(t, tt.name, d.Blocks, tt.want)
	}
}

// FuzzODT reads archives, and content parts wrapped in one.
func FuzzODT(f *testing.F) {
	data, err := os.ReadFile("testdata/odt/reglas.odt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(zipEntry(f, data, "content.xml")))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 || string(data[:2]) != "PK" {
			data = zipped("content.xml", string(data))
		}
		loadODT(data) // must not panic; errors are fine
	})
}
