package load

import (
	"os"
	"testing"
)

func TestHTMLFandom(t *testing.T) {
	d := loadFixture(t, "html/anika-fandom.html")
	if d.Kind != KindHTML || d.Title != "Anika" {
		t.Errorf("kind %q, title %q", d.Kind, d.Title)
	}
	// Left out: the global and community navigation, the page's actions
	// and categories, the ad slot, the table of contents, the "editar"
	// links, the hidden spoiler, the navbox, the "Obtenido de" footer, the
	// rail, the global footer, the scripts and styles.
	sameBlocks(t, "anika-fandom.html", d.Blocks, []Block{
		{Level: 1, Text: "Anika"}, // the page header's h1, above the content
		{Text: "Anika"},           // the infobox's title row
		{Text: "Rol: molinera"},
		{Text: "Lugar: Robleda"},
		{Text: "Alineamiento: neutral buena"},
		{Text: "Anika es la molinera de Robleda, un pueblo de la Marca del Este a orillas del río Vado. Conoce a todos los campesinos de la comarca y sabe quién debe harina a quién."},
		{Level: 2, Text: "Historia"},
		{Text: "Heredó el molino de su padre tras la crecida del año del cometa. Desde entonces paga el diezmo al castillo de Vigía con retraso."},
		{Level: 3, Text: "Relaciones"},
		{Text: "- Brom, el herrero, es su hermano."},
		{Text: "- Desconfía de Ser Aldric, capitán de la guardia."},
		{Level: 2, Text: "Ganchos de aventura"},
		{Text: "- Las ratas del molino no son ratas normales."},
		{Text: "- Alguien roba sacos de grano por la noche."},
		{Level: 2, Text: "Precios de molienda"},
		{Text: "Grano: Trigo · Precio: 2 pc el saco · Días: 1"},
		{Text: "Grano: Centeno · Precio: 1 pc el saco · Días: 2"},
	})
}

func TestHTML(t *testing.T) {
	const menu = `<nav><a href="/">Inicio</a> <a href="/blog">Blog</a></nav>`
	long := "La ciudad de Vigía guarda el paso del norte desde hace tres siglos."
	for _, tt := range []struct {
		name, page, title string
		want              []Block
	}{
		{"article with its header",
			`<html><head><title>Vigía - Mi blog</title><script>var x = 1;</script></head><body><header>` + menu + `<h1>Mi blog</h1></header>` +
				`<article><header><h1>Vigía</h1><p class="byline">por DM</p></header><p>` + long + `</p>` +
				`<aside>Lee también: Robleda</aside><div aria-hidden="true">icono</div><div hidden>oculto</div>` +
				`<form><label>Buscar</label></form><footer>Etiquetas: ciudades</footer></article>` +
				`<footer><p>© 2026</p></footer></body></html>`,
			"Vigía - Mi blog",
			[]Block{{Level: 1, Text: "Vigía"}, {Text: "por DM"}, {Text: long}}},
		{"no container: the densest element",
			`<body><div class="top">` + menu + `</div><div class="wrap"><div class="sidebar"><p>` + long + `</p></div>` +
				`<div class="cuerpo"><h2>Vigía</h2><p>` + long + `</p><p>Tiene <br>dos puertas.</p><div>Una cae al río.</div></div></div></body>`,
			"",
			[]Block{{Level: 2, Text: "Vigía"}, {Text: long}, {Text: "Tiene dos puertas."}, {Text: "Una cae al río."}}},
		{"lists and tables",
			`<main><ul><li>uno<ul><li>uno y medio</li></ul></li><li><p>dos</p></li></ul>` +
				`<table><caption>Armas</caption><thead><tr><th>Arma</th><th>Daño</th></tr></thead>` +
				`<tbody><tr><td>Daga</td><td>1d4</td></tr></tbody></table></main>`,
			"",
			[]Block{{Text: "- uno"}, {Text: "- uno y medio"}, {Text: "- dos"}, {Text: "Armas"}, {Text: "Arma: Daga · Daño: 1d4"}}},
		{"latin-1", "<meta charset=\"iso-8859-1\"><title>Cap\xedtulo</title><p>Ca\xf1\xf3n</p>", "Capítulo",
			[]Block{{Text: "Cañón"}}},
	} {
		d, err := Load("a.html", []byte(tt.page))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if d.Title != tt.title {
			t.Errorf("%s: title %q, want %q", tt.name, d.Title, tt.title)
		}
		sameBlocks(t, tt.name, d.Blocks, tt.want)
	}
}

func FuzzHTML(f *testing.F) {
	data, err := os.ReadFile("testdata/html/anika-fandom.html")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("<table><tr><th>a<th>b<tr><td><table><tr><td>c</table>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		loadHTML(data) // must not panic; errors are fine
	})
}
