package chunk

import (
	"fmt"
	"strings"
	"testing"
)

// campaign generates a multi-session Markdown document of about size bytes:
// sessions with inner headings, paragraphs, lists and a code fence now and
// then, and one long session with no inner heading every so often.
func campaign(size int) string {
	var b strings.Builder
	b.WriteString("# Crónica de la Costa de la Espada\n\nCampaña de prueba generada.\n\n")
	para := "Los personajes cruzan el bosque de Neverwinter y encuentran a Sildar herido junto al camino. " +
		"Katerina examina las huellas mientras Ulfgar vigila la retaguardia y Tobías prepara un conjuro.\n"
	for n := 1; b.Len() < size; n++ {
		fmt.Fprintf(&b, "## Sesión %d — Capítulo %d\n\n", n, n)
		if n%7 == 0 {
			for i := 0; i < 30; i++ {
				b.WriteString(para)
			}
			b.WriteString("\n")
			continue
		}
		for _, h := range []string{"Resumen", "Combate", "Botín"} {
			fmt.Fprintf(&b, "### %s\n\n", h)
			for i := 0; i < 3; i++ {
				b.WriteString(para)
				b.WriteString("\n")
			}
			b.WriteString("- En la sesión anterior: nada.\n- Pendiente: hablar con Harbin.\n\n")
		}
		if n%5 == 0 {
			b.WriteString("```\n## Sesión 999 no cuenta\n```\n\n")
		}
	}
	return b.String()
}

func BenchmarkSplit(b *testing.B) {
	doc := Document{Path: "Campaña/Crónica.md", Text: campaign(1 << 20)}
	opts := Options{MaxWords: DefaultMaxWords, OverlapWords: DefaultOverlapWords}
	b.SetBytes(int64(len(doc.Text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Split(doc, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCampaignGenerator(t *testing.T) {
	doc := Document{Path: "Campaña/Crónica.md", Text: campaign(64 << 10)}
	opts := Options{MaxWords: 300, OverlapWords: 30}
	chunks, err := Split(doc, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, doc, opts, chunks)
}
