package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// goldenDigests maps each language's pipeline revision to the SHA-256 of
// the terms it gives for goldenText (joined by spaces). It enforces the
// Version contract: a change to this package that alters the output of
// Terms fails TestGolden until the language's revision constant in
// analyzer.go is bumped and its new digest is added here.
var goldenDigests = map[string]map[int]string{
	"es": {1: "a108fbedfb1157c36b83247719653a77910677afc0c07899423f7c2e5f98b477"},
	"en": {1: "cd9aa3592f7491b61de28e2dc172374fbbcda2e08e1c301315e27cdd07351905"},
}

// goldenText exercises every stage: Markdown, punctuation, numbers, NFD,
// invalid UTF-8, stop words, accents, ñ, other scripts and both languages'
// suffixes.
var goldenText = spanishSample + `
Cancelar, cancelarse, cancelación, cancelaciones; murió, murio, morir.
Cómo, como, qué, que. Año, años, pingüino. Sesio` + "\u0301" + `n an` + "\u0303" + `o. pue` + "\xff" + `nte.
Garçon, Ærø, İstanbul, ΟΔΟΣ, Москва, 東京, ＡＢＣ１２３, 1º, 2ª, l'amour, O’Brien.
The quick brown foxes jumped over the lazy dogs; they'll say it isn't generously done.
` + strings.Repeat("x", 64) + " " + strings.Repeat("y", 65)

func TestGolden(t *testing.T) {
	revisions := map[string]int{"es": esRevision, "en": enRevision}
	for lang, rev := range revisions {
		a := mustNew(t, lang)
		sum := sha256.Sum256([]byte(strings.Join(a.Terms(goldenText), " ")))
		got := hex.EncodeToString(sum[:])
		want, ok := goldenDigests[lang][rev]
		if !ok || got != want {
			t.Errorf("%s: the output of Terms changed (digest %s, revision %d expects %q).\n"+
				"If intended, bump %sRevision in analyzer.go (so Version changes and indexes are rebuilt)\n"+
				"and add %d: %q to goldenDigests[%q].", lang, got, rev, want, lang, rev+1, got, lang)
		}
	}
}
