package analysis

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// vocabPair is one line of a kljensen/snowball vocabulary test: a word and
// the stem the reference Snowball implementation gives it.
type vocabPair struct{ in, out string }

var vocabLine = regexp.MustCompile(`^\s*\{"([^"]*)", "([^"]*)"\},\s*$`)

// loadVocab reads <snowball module>/<dir>/vocab_test.go, or skips the test
// when the module is not available (no module cache, no go command...).
func loadVocab(t testing.TB, dir string) []vocabPair {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/kljensen/snowball").Output()
	root := strings.TrimSpace(string(out))
	if err != nil || root == "" {
		t.Skipf("kljensen/snowball module not found (go list: %v); skipping vocabulary test", err)
	}
	f, err := os.Open(filepath.Join(root, dir, "vocab_test.go"))
	if err != nil {
		t.Skipf("vocabulary not found: %v", err)
	}
	defer f.Close()
	var pairs []vocabPair
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := vocabLine.FindStringSubmatch(sc.Text()); m != nil {
			pairs = append(pairs, vocabPair{m[1], m[2]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(pairs) < 1000 {
		t.Skipf("vocabulary %s has only %d entries; format changed?", dir, len(pairs))
	}
	return pairs
}

// spanishTerm is the term the "es" analyzer gives a single word, stop list
// aside.
func spanishTerm(st *spanishStemmer, w string) string {
	return st.stem(fold(strings.ToLower(w), true))
}

// vocabAgreement returns the share of pairs for which term(in) equals the
// folded reference stem, and the disagreements.
func vocabAgreement(pairs []vocabPair, term func(string) string, keepEnye bool) (float64, []vocabPair) {
	var bad []vocabPair
	for _, p := range pairs {
		if got := term(p.in); got != fold(p.out, keepEnye) {
			bad = append(bad, vocabPair{p.in, got})
		}
	}
	return 1 - float64(len(bad))/float64(len(pairs)), bad
}

// TestSpanishSnowballReference checks the stemmer itself: built with
// Snowball's own (accented) suffix lists and fed unfolded words, it must
// reproduce the reference stems. Any disagreement in TestSpanishVocabulary
// is then due to folding, not to the implementation.
func TestSpanishSnowballReference(t *testing.T) {
	pairs := loadVocab(t, "spanish_vocab")
	st := newSpanishStemmer(nil, false)
	rate, bad := vocabAgreement(pairs, func(w string) string {
		return fold(st.stem(strings.ToLower(w)), true)
	}, true)
	t.Logf("unfolded Snowball Spanish vs reference: %.4f (%d/%d words differ)", rate, len(bad), len(pairs))
	for i, b := range bad {
		if i == 20 {
			break
		}
		t.Errorf("%q → %q", b.in, b.out)
	}
}

// spanishVocabThreshold is the measured agreement of the "es" analyzer
// with fold(Snowball) on the reference vocabulary (0.9628 when written),
// minus a small margin. The remaining 3.7% are words whose suffix Snowball
// recognises only by its accent (see esFoldedOut); no folded stemmer can
// get those right both ways.
const spanishVocabThreshold = 0.96

// TestSpanishVocabulary compares, for every word of the Snowball Spanish
// vocabulary, the "es" analyzer's term (stop list aside) with
// fold(snowball(word)).
func TestSpanishVocabulary(t *testing.T) {
	pairs := loadVocab(t, "spanish_vocab")
	rate, bad := vocabAgreement(pairs, func(w string) string { return spanishTerm(esDefault, w) }, true)
	t.Logf("es analyzer vs fold(Snowball Spanish): %.4f (%d/%d words differ)", rate, len(bad), len(pairs))
	want := map[string]string{}
	for _, p := range pairs {
		want[p.in] = p.out
	}
	for i := 0; i < len(bad); i += len(bad)/15 + 1 {
		t.Logf("  %-16s → %-12s Snowball: %s", bad[i].in, bad[i].out, want[bad[i].in])
	}
	if rate < spanishVocabThreshold {
		t.Errorf("agreement %.4f < %.2f", rate, spanishVocabThreshold)
	}
}

// TestEnglishVocabulary does the same for the "en" analyzer and the
// Snowball English (Porter2) vocabulary.
func TestEnglishVocabulary(t *testing.T) {
	pairs := loadVocab(t, "english_vocab")
	rate, bad := vocabAgreement(pairs, func(w string) string {
		return stemEnglish(fold(strings.ToLower(w), false))
	}, false)
	t.Logf("en analyzer vs Porter2: %.4f (%d/%d words differ)", rate, len(bad), len(pairs))
	for i, b := range bad {
		if i == 10 {
			break
		}
		t.Logf("  %q → %q", b.in, b.out)
	}
	if rate < 0.999 {
		t.Errorf("agreement %.4f < 0.999", rate)
	}
}
