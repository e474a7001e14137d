package load

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func readPDF(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "pdf", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// findBlock is the first block whose text holds s.
func findBlock(doc *Document, s string) (Block, int) {
	for i, b := range doc.Blocks {
		if strings.Contains(b.Text, s) {
			return b, i
		}
	}
	return Block{}, -1
}

func TestPDFHeadings(t *testing.T) {
	for _, tt := range []struct {
		file    string
		heading string
		level   int
		page    int
	}{
		// From the outline: its depth is the level.
		{"indice.pdf", "Introducción", 1, 1},
		{"indice.pdf", "Trasfondo", 2, 1},
		{"indice.pdf", "La cripta", 1, 2},
		{"indice.pdf", "Encuentros del osario", 3, 2},
		{"indice.pdf", "Tercer nivel: la tumba del rey", 2, 2},
		{"indice.pdf", "Recompensas", 2, 3},
		// From the font size alone: 22, 16 and 13 pt over an 11 pt body.
		{"cabeceras.pdf", "Introducción", 1, 1},
		{"cabeceras.pdf", "Ganchos para la aventura", 2, 1},
		{"cabeceras.pdf", "Encuentros del osario", 3, 2},
		{"cabeceras.pdf", "Desenlace", 1, 3},
		{"columnas.pdf", "Bestiario de la cripta", 1, 1},
		{"columnas.pdf", "Necrófago", 2, 1},
	} {
		doc := loadFixture(t, "pdf/"+tt.file)
		var got *Block
		for i, b := range doc.Blocks {
			if b.Text == tt.heading {
				got = &doc.Blocks[i]
				break
			}
		}
		if got == nil {
			t.Errorf("%s: no block %q", tt.file, tt.heading)
			continue
		}
		if got.Level != tt.level || got.Page != tt.page {
			t.Errorf("%s: %q is level %d on page %d, want level %d on page %d", tt.file, tt.heading, got.Level, got.Page, tt.level, tt.page)
		}
	}
}

func TestPDFDocument(t *testing.T) {
	for _, tt := range []struct {
		file         string
		title        string
		pages        int
		headings     int
		firstHeading string
	}{
		{"indice.pdf", "La Cripta del Rey Olvidado", 3, 10, "Introducción"},
		{"cabeceras.pdf", "La Cripta del Rey Olvidado", 3, 10, "Introducción"},
		{"columnas.pdf", "Bestiario de la cripta", 1, 5, "Bestiario de la cripta"},
		{"cifrado-sin-clave.pdf", "Bestiario de la cripta", 1, 5, "Bestiario de la cripta"},
	} {
		doc := loadFixture(t, "pdf/"+tt.file)
		headings := 0
		for _, b := range doc.Blocks {
			if b.Level > 0 {
				headings++
			}
		}
		if doc.Kind != KindPDF || doc.Title != tt.title || doc.Pages != tt.pages || headings != tt.headings || doc.Blocks[0].Text != tt.firstHeading {
			t.Errorf("%s: kind %q title %q, %d pages, %d headings, first block %q; want %q, %d, %d, %q",
				tt.file, doc.Kind, doc.Title, doc.Pages, headings, doc.Blocks[0].Text, tt.title, tt.pages, tt.headings, tt.firstHeading)
		}
	}
}

func TestPDFPages(t *testing.T) {
	doc := loadFixture(t, "pdf/indice.pdf")
	for _, tt := range []struct {
		text string
		page int
	}{
		{"Este módulo es una aventura corta", 1},
		{"El director de juego puede elegir", 1},
		{"La cripta tiene tres niveles", 2},
		{"1–2 Dos esqueletos guardianes", 2},
		{"El sepulcro de Ordoño III", 2},
		{"Si los personajes restauran el sello", 3},
	} {
		b, i := findBlock(doc, tt.text)
		if i < 0 || b.Page != tt.page {
			t.Errorf("%q: page %d (block %d), want %d", tt.text, b.Page, i, tt.page)
		}
	}
	last := 0
	for _, b := range doc.Blocks {
		if b.Page < last || b.Page < 1 || b.Page > doc.Pages {
			t.Fatalf("block %q on page %d after page %d", b.Text, b.Page, last)
		}
		last = b.Page
	}
}

func TestPDFTwoColumns(t *testing.T) {
	doc := loadFixture(t, "pdf/columnas.pdf")
	prev := -1
	for _, start := range []string{"Uno.", "Dos.", "Tres.", "Cuatro.", "Cinco.", "Seis.", "Siete.", "Ocho."} {
		_, i := findBlock(doc, start+" ")
		if i < 0 || !strings.HasPrefix(doc.Blocks[i].Text, start) {
			t.Fatalf("no paragraph starting %q", start)
		}
		if i <= prev {
			t.Errorf("%q is block %d, before the previous paragraph's %d", start, i, prev)
		}
		prev = i
	}
	// A paragraph read whole down its column, not across the gutter.
	want := "Cinco. El necrófago es un monje que comió carne de los muertos durante un invierno de hambre. Sus garras paralizan a quien no supere una prueba de Constitución. Se esconde entre los bancos de la capilla y ataca por la espalda."
	if b, _ := findBlock(doc, "Cinco."); b.Text != want {
		t.Errorf("got  %q\nwant %q", b.Text, want)
	}
}

func TestPDFRunningLinesDropped(t *testing.T) {
	doc := loadFixture(t, "pdf/cabeceras.pdf")
	plain := loadFixture(t, "pdf/indice.pdf")
	for _, b := range doc.Blocks {
		for _, s := range []string{"file://", "/3", "PM", "AM"} {
			if strings.Contains(b.Text, s) {
				t.Errorf("running header or footer kept: %q", b.Text)
			}
		}
	}
	// Dropped, and nothing else: the same text as the print without them.
	if len(doc.Blocks) != len(plain.Blocks) {
		t.Fatalf("%d blocks with the header and footer printed, %d without", len(doc.Blocks), len(plain.Blocks))
	}
	for i := range doc.Blocks {
		if doc.Blocks[i].Text != plain.Blocks[i].Text {
			t.Errorf("block %d: %q, without header: %q", i, doc.Blocks[i].Text, plain.Blocks[i].Text)
		}
	}
}

func TestPDFHyphenation(t *testing.T) {
	doc := loadFixture(t, "pdf/indice.pdf")
	for _, want := range []string{
		"El pueblo de Villaseca pide ayuda a los aventureros: desde la última luna llena, los muertos caminan.",
		"La guía del grupo es la hermana Sancho-Panza, una monja que conoce los túneles.",
	} {
		if b, i := findBlock(doc, want[:20]); i < 0 || b.Text != want {
			t.Errorf("got  %q\nwant %q", b.Text, want)
		}
	}
}

func TestPDFErrors(t *testing.T) {
	good := readPDF(t, "columnas.pdf")
	garbled := []byte(string(good))
	for i := 200; i < len(garbled)-200; i += 97 {
		garbled[i] ^= 0x5a
	}
	for _, tt := range []struct {
		name string
		data []byte
		is   error // nil: any error
	}{
		{"escaneo.pdf", readPDF(t, "escaneo.pdf"), ErrNoText},
		{"cifrado.pdf", readPDF(t, "cifrado.pdf"), ErrEncrypted},
		{"truncated.pdf", good[:len(good)/2], nil},
		{"header-only.pdf", []byte("%PDF-1.4\n%%EOF\n"), nil},
		{"garbled.pdf", garbled, nil},
		{"huge-size.pdf", []byte("%PDF-1.7\n1 0 obj <</Type/XRef/Size 999999999999/W[1 2 1]>> stream\nendstream endobj\nstartxref\n9\n%%EOF\n"), nil},
		{"no-xref.pdf", []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\nstartxref\n999999\n%%EOF\n"), nil},
	} {
		doc, err := Load(tt.name, tt.data)
		switch {
		case err == nil && tt.name != "garbled.pdf":
			t.Errorf("%s: no error, %d blocks", tt.name, len(doc.Blocks))
		case err != nil && tt.is != nil && !errors.Is(err, tt.is):
			t.Errorf("%s: %v, want %v", tt.name, err, tt.is)
		case err != nil && tt.is == nil && !strings.Contains(err.Error(), "PDF"):
			t.Errorf("%s: %q does not say it is the PDF that is damaged", tt.name, err)
		}
	}
}

func TestJoinLines(t *testing.T) {
	for _, tt := range []struct {
		lines []string
		want  string
	}{
		{[]string{"los aventu-", "reros llegan"}, "los aventureros llegan"},
		{[]string{"los aventu\u00ad\u2010", "reros"}, "los aventureros"},
		{[]string{"la hermana Sancho-", "Panza"}, "la hermana Sancho-Panza"},
		{[]string{"año 1990-", "2000"}, "año 1990- 2000"},
		{[]string{"dos -", "tres"}, "dos - tres"},
		{[]string{"una línea", "y otra"}, "una línea y otra"},
		{[]string{"sua\u00adve"}, "suave"},
	} {
		if got := joinLines(tt.lines); got != tt.want {
			t.Errorf("joinLines(%q) = %q, want %q", tt.lines, got, tt.want)
		}
	}
}

func TestIsPageNumber(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"3", true}, {"- 12 -", true}, {"Página 3", true}, {"pág. 7", true}, {"Page 4 of 9", true},
		{"3 / 12", true}, {"3 de 12", true}, {"12/1/26", false}, {"3 enanos", false}, {"Capítulo 3", false},
	} {
		if got := isPageNumber(tt.s); got != tt.want {
			t.Errorf("isPageNumber(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// TestRunningLinesAsBody: lines that repeat on every page but frame no
// body are the body; page numbers still go.
func TestRunningLinesAsBody(t *testing.T) {
	for _, tt := range []struct {
		name  string
		pages [][]line
		want  []map[int]bool
	}{
		{"one line a page", [][]line{{{text: "Sesión 1"}}, {{text: "Sesión 2"}}, {{text: "Sesión 3"}}}, []map[int]bool{{}, {}, {}}},
		{"with page numbers", [][]line{{{text: "Sesión 1"}, {text: "1"}}, {{text: "Sesión 2"}, {text: "2"}}}, []map[int]bool{{1: true}, {1: true}}},
		{"only page numbers", [][]line{{{text: "1"}}, {{text: "2"}}}, []map[int]bool{{}, {}}},
		// A blank page in a book keeps losing its running header, also
		// in a document of two pages.
		{"a blank page of two", [][]line{{{text: "Manual"}, {text: "Uno"}}, {{text: "Manual"}}}, []map[int]bool{{0: true}, {0: true}}},
		{"a blank page among bodies", [][]line{
			{{text: "Manual"}, {text: "Uno"}, {text: "Dos"}},
			{{text: "Manual"}},
			{{text: "Manual"}, {text: "Tres"}},
		}, []map[int]bool{{0: true}, {0: true}, {0: true}}},
	} {
		got := runningLines(tt.pages)
		for p := range tt.pages {
			for i := range tt.pages[p] {
				if got[p][i] != tt.want[p][i] {
					t.Errorf("%s: page %d line %d: dropped %v, want %v", tt.name, p+1, i, got[p][i], tt.want[p][i])
				}
			}
		}
	}
}

func TestRunningLines(t *testing.T) {
	page := func(n string, body ...string) []line {
		ls := []line{{text: "Manual del jugador"}}
		for _, b := range body {
			ls = append(ls, line{text: b})
		}
		return append(ls, line{text: "Página " + n}, line{text: "Edición 2024 — " + n})
	}
	got := runningLines([][]line{page("1", "Uno", "Dos"), page("2", "Tres"), page("10", "Cuatro", "Cinco", "Seis")})
	want := []map[int]bool{{0: true, 3: true, 4: true}, {0: true, 2: true, 3: true}, {0: true, 4: true, 5: true}}
	for p := range want {
		for i := range 6 {
			if got[p][i] != want[p][i] {
				t.Errorf("page %d line %d: dropped %v, want %v", p+1, i, got[p][i], want[p][i])
			}
		}
	}
}

// FuzzPDF feeds the loader damaged PDFs: it must return, in bounded
// time, a document or an error, and never panic (Load would hide a
// panic as an error, so the fuzz calls loadPDF itself).
func FuzzPDF(f *testing.F) {
	for _, name := range []string{"indice.pdf", "columnas.pdf", "escaneo.pdf", "cifrado.pdf", "cifrado-sin-clave.pdf"} {
		data := readPDF(f, name)
		f.Add(data)
		f.Add(data[:len(data)/3])
		f.Add(data[len(data)/2:])
	}
	f.Add(makePDF([][]string{{"Sesión 1: la cripta."}, {"Sesión 2: la cripta."}, {"Sesión 3: la cripta."}}))
	f.Add([]byte("%PDF-1.4\n1 0 obj<</Type/Pages/Kids[1 0 R]/Count 1>>endobj\ntrailer<</Root<</Pages 1 0 R>>>>\nstartxref\n9\n%%EOF\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() {
				if v := recover(); v != nil {
					t.Errorf("panic: %v", v)
				}
			}()
			doc, err := loadPDF(data)
			if err == nil && doc == nil {
				t.Error("no document and no error")
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer after 20s for %d bytes", len(data))
		}
	})
}

func BenchmarkLoadPDF(b *testing.B) {
	data := readPDF(b, "indice.pdf")
	if p := os.Getenv("PDF_BENCH_FILE"); p != "" {
		var err error
		if data, err = os.ReadFile(p); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(data)))
	pages := 0
	for b.Loop() {
		doc, err := Load("bench.pdf", data)
		if err != nil {
			b.Fatal(err)
		}
		pages += doc.Pages
	}
	b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
}

// TestPDFWrappedHeading: a title that wraps onto two lines, each line a
// region of its own, is one heading, matched with the outline's entry
// (the sample campaign's module, printed by Chromium).
func TestPDFWrappedHeading(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "campaign", "Módulos", "La Cripta del Rey Ahogado.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Load("cripta.pdf", data)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{{Level: 1, Text: "La Cripta del Rey Ahogado", Page: 1}}
	for _, h := range []struct {
		text string
		page int
	}{{"Trasfondo", 1}, {"La puerta de bronce", 2}, {"El vestíbulo de las campanas", 3}, {"La cámara del rey", 4}} {
		want = append(want, Block{Level: 2, Text: h.text, Page: h.page})
	}
	var got []Block
	for _, b := range doc.Blocks {
		if b.Level > 0 {
			got = append(got, b)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("headings %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("heading %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestPDFOneLinePages: a PDF of one line a page, the lines alike but for
// their numbers (what a running header looks like), is read whole, each
// line on its page; a PDF whose pages draw no text is still a scan.
func TestPDFOneLinePages(t *testing.T) {
	lines := []string{
		"Sesión 1: el grupo llega a Villaseca.",
		"Sesión 2: el grupo baja a la cripta.",
		"Sesión 3: el grupo vence al necrófago.",
		"Sesión 4: el grupo abre la tumba.",
		"Sesión 5: el grupo vuelve al pueblo.",
		"Sesión 6: el grupo cobra la recompensa.",
	}
	alike := []string{
		"Sesión 1: el grupo descansa en Villaseca.",
		"Sesión 2: el grupo descansa en Villaseca.",
		"Sesión 3: el grupo descansa en Villaseca.",
		"Sesión 4: el grupo descansa en Villaseca.",
	}
	for _, tt := range []struct {
		name  string
		pages [][]string
		want  []string
	}{
		{"one line a page", onePerPage(lines), lines},
		{"one line a page, alike but for the number", onePerPage(alike), alike},
		{"the same line on every page", [][]string{{"La cripta."}, {"La cripta."}, {"La cripta."}}, []string{"La cripta.", "La cripta.", "La cripta."}},
		{"one line and a page number", [][]string{{"Sesión 1: la cripta.", "1"}, {"Sesión 2: la cripta.", "2"}, {"Sesión 3: la cripta.", "3"}}, []string{"Sesión 1: la cripta.", "Sesión 2: la cripta.", "Sesión 3: la cripta."}},
	} {
		doc, err := Load("sesiones.pdf", makePDF(tt.pages))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if doc.Pages != len(tt.pages) || len(doc.Blocks) != len(tt.want) {
			t.Errorf("%s: %d pages, blocks %+v; want %d pages, %q", tt.name, doc.Pages, doc.Blocks, len(tt.pages), tt.want)
			continue
		}
		for i, b := range doc.Blocks {
			if b.Text != tt.want[i] || b.Page != i+1 {
				t.Errorf("%s: block %d is %q on page %d, want %q on page %d", tt.name, i, b.Text, b.Page, tt.want[i], i+1)
			}
		}
	}
	// A scan: pages that draw (an image stand-in: a filled rectangle)
	// but have no text operators.
	scan := makePDFContents([]string{"0.5 g 72 72 451 698 re f\n", "0.5 g 72 72 451 698 re f\n"})
	if doc, err := Load("escaneo.pdf", scan); !errors.Is(err, ErrNoText) {
		t.Errorf("a PDF without text: %v (%+v), want %v", err, doc, ErrNoText)
	}
}

func onePerPage(lines []string) [][]string {
	pages := make([][]string, len(lines))
	for i, l := range lines {
		pages[i] = []string{l}
	}
	return pages
}
