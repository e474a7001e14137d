package analysis

import (
	"strings"
	"testing"
)

// spanishSample is a note in the style Oráculo indexes: Markdown with
// headings, emphasis, wiki links, numbers, accents and invented names.
const spanishSample = `## Sesión 12 — El puente de Galerna

**Resumen:** el grupo llegó a [[Galerna]] al anochecer. Norkiel, que todavía
cojeaba por la herida de la sesión anterior, insistió en cruzar el puente antes
de que cerraran las puertas. [[Harbin Wester|El viejo]] se negó: dijo que el
archiduque había prohibido el paso después de las campanas y que la guardia
tenía órdenes de detener a cualquiera que lo intentara.

- Gastamos 50 monedas de plata en provisiones y 3 caballos.
- La cancelación del torneo se anunció en la plaza; nadie sabe por qué.
- ¿Qué pasó con el archiduque? Según los rumores, murió en 2015 y desde
  entonces gobierna su sobrina, que nunca aparece en público.

> «No confiéis en los barqueros», advirtió la posadera mientras nos servía
> el guiso. «Cobran la ida y se olvidan de la vuelta.»

### Notas para la próxima sesión

Preparar el encuentro con los contrabandistas del muelle norte; revisar las
reglas de persecución y la tabla de clima (capítulo 7, página 112). Preguntar
a Iria si su personaje recuerda la canción que cantaban en el monasterio.
`

func spanishText(size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(spanishSample)
		b.WriteByte('\n')
	}
	return b.String()
}

func BenchmarkTermsSpanish(b *testing.B) {
	es := mustNew(b, "es")
	text := spanishText(10 << 10)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		es.Terms(text)
	}
}

func BenchmarkTermsEnglish(b *testing.B) {
	en := mustNew(b, "en")
	text := strings.Repeat("## Session 12 — The bridge\n**Norkiel** crossed the bridge at dusk; the archduke's guards were watching. ", 100)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		en.Terms(text)
	}
}
