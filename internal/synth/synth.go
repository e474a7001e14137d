// Package synth writes deterministic synthetic campaign notes for
// benchmarks and crash tests: Spanish-looking session logs with invented
// names, several sessions per file, each session about one chunk long.
package synth

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

var (
	words = strings.Fields(`la compañía cruzó el puente bajo la lluvia mientras el viento arrastraba hojas
		secas hacia el río donde los guardias esperaban con antorchas y el capitán gritaba órdenes que nadie
		entendía porque la tormenta había crecido durante la noche y los caballos estaban cansados tras el largo
		viaje desde las montañas del norte donde el templo antiguo guardaba secretos olvidados por los
		sacerdotes de la orden que juró proteger la reliquia hasta el fin de los días aunque nadie recordaba ya
		quién la había escondido ni por qué motivo la ciudad entera parecía temer su regreso cuando cayó la noche
		encendimos una hoguera y hablamos del mapa del archiduque que prometía oro y gloria a quien encontrase
		la entrada de la cripta custodiada por espectros y trampas de acero oxidado`)
	syllables = []string{"nor", "kiel", "gal", "er", "na", "cry", "o", "vain", "ba", "ika", "zan", "thor", "mel", "ith", "dra", "vos", "ul", "rek", "sa", "mir"}
	// vocabulary: the common words first, then pseudo-words; drawn with a
	// Zipf law so that, as in real text, a few words are everywhere and
	// most are rare.
	// Stop words take the head, as in real Spanish; the story words are
	// spread from rank 100 on, so that a word like "archiduque" is in a few
	// percent of the paragraphs, not in all of them.
	vocabulary = func() []string {
		v := strings.Fields(`de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros`)
		base := 0
		for i := 0; len(v) < vocabularySize; i++ {
			if len(v) >= 100 && len(v)%20 == 0 && base < len(words) {
				v = append(v, words[base])
				base++
				continue
			}
			v = append(v, pseudoWord(i))
		}
		return v
	}()
)

const vocabularySize = 30000

// pseudoWord is the i-th made-up lowercase word.
func pseudoWord(i int) string {
	var b strings.Builder
	for n := i + 1; n > 0; n /= len(syllables) {
		b.WriteString(syllables[n%len(syllables)])
	}
	b.WriteString("as")
	return b.String()
}

// Name returns the i-th invented proper name, deterministic.
func Name(i int) string {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	n := 2 + r.IntN(2)
	var b strings.Builder
	for range n {
		b.WriteString(syllables[r.IntN(len(syllables))])
	}
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:] + fmt.Sprint(i)
}

// Session returns the text of session n, about wordsPerSession words with
// two inner sections and a few invented names.
func Session(n, wordsPerSession int) string {
	r := rand.New(rand.NewPCG(uint64(n), 11))
	zipf := rand.NewZipf(r, 1.07, 2, uint64(len(vocabulary)-1))
	var b strings.Builder
	fmt.Fprintf(&b, "## Sesión %d — %s\n\n", n, Name(n))
	for sec := range 2 {
		fmt.Fprintf(&b, "### Parte %d\n\n", sec+1)
		for p := range 3 {
			for w := range wordsPerSession / 6 {
				if w > 0 {
					b.WriteByte(' ')
				}
				if r.IntN(25) == 0 {
					b.WriteString(Name(r.IntN(5000)))
				} else {
					b.WriteString(vocabulary[zipf.Uint64()])
				}
			}
			if p == 1 {
				fmt.Fprintf(&b, " como ya vimos en la sesión %d.", 1+r.IntN(n))
			}
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// Write creates files under dir holding sessions in all, perFile sessions
// to a file, and returns the bytes written.
func Write(dir string, sessions, perFile, wordsPerSession int) (int64, error) {
	var total int64
	for start := 1; start <= sessions; start += perFile {
		var b strings.Builder
		fmt.Fprintf(&b, "# Diario %d\n\n", start)
		for n := start; n < start+perFile && n <= sessions; n++ {
			b.WriteString(Session(n, wordsPerSession))
		}
		path := filepath.Join(dir, "Sesiones", fmt.Sprintf("Diario %05d.md", start))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return total, err
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			return total, err
		}
		total += int64(b.Len())
	}
	return total, nil
}

// WriteLinkIndex creates under dir an index note, "Índice.md", of links
// distinct wikilinks, as Obsidian users keep one of all their notes: plain
// ones ("[[Link 7]]"), ones with an alias followed by a mention of the
// previous link ("[[Link 8|el enlace 8]], que nombra a Link 7") and names
// of two capitalised words that share the first ("[[Casa Galnorna]]"),
// in turns; and beside it a short note that mentions a few. It returns the
// bytes written.
func WriteLinkIndex(dir string, links int) (int64, error) {
	var b strings.Builder
	b.WriteString("# Índice de todas las notas\n\n")
	for i := range links {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "- [[Link %d]]\n", i)
		case 1:
			fmt.Fprintf(&b, "- [[Link %d|el enlace %d]], que nombra a Link %d\n", i, i, i-1)
		default:
			w := pseudoWord(i)
			fmt.Fprintf(&b, "- [[Casa %s]]\n", strings.ToUpper(w[:1])+w[1:])
		}
	}
	other := "# Notas sueltas\n\nLink 3 y el enlace 4 llegaron a la Casa " +
		strings.ToUpper(pseudoWord(2)[:1]) + pseudoWord(2)[1:] + " al anochecer.\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "Índice.md"), []byte(b.String()), 0o644); err != nil {
		return 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "Notas sueltas.md"), []byte(other), 0o644); err != nil {
		return 0, err
	}
	return int64(b.Len() + len(other)), nil
}

// Questions are the four questions every BM25 benchmark of the synthetic
// notes has asked since the first: an entity, a name, a phrase and a
// sentence of the sessions.
var Questions = []string{
	"¿qué pasó con el mapa del archiduque?",
	"¿quién es " + Name(42) + "?",
	"la cripta custodiada por espectros",
	"¿dónde encendimos la hoguera después de cruzar el puente?",
}

// TailQuestions are 200 questions for the latency percentiles on the
// synthetic notes: [Questions], a third "¿quién es X?", a third made of
// one common word of the notes (the ones whose every match a plain BM25
// scores) and the rest spans of the sessions themselves. keep, when not
// nil, drops those a search would have nothing to look for in (no term
// the analyser keeps).
func TailQuestions(keep func(question string) bool) []string {
	common := strings.Fields(`sesión parte vimos compañía puente lluvia viento río guardias capitán
		noche templo antiguo montañas ciudad mapa oro hoguera cripta trampas`)
	qs := append([]string(nil), Questions...)
	for i := 0; len(qs) < 200; i++ {
		q := "¿quién es " + Name(i*37%5000) + "?"
		switch i % 3 {
		case 1:
			q = "¿qué pasó con " + common[i/3%len(common)] + "?"
		case 2:
			words := strings.Fields(Session(1+i*7%1000, 120))
			at := 10 + i%(len(words)-20)
			q = strings.Join(words[at:at+3+i%6], " ")
		}
		if keep == nil || keep(q) {
			qs = append(qs, q)
		}
	}
	return qs
}
