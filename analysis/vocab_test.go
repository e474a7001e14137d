package analysis

import (
	"bufio"
	"fmt"
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
		// The Spanish file has a few entries for the empty word; skip them.
		if m := vocabLine.FindStringSubmatch(sc.Text()); m != nil && m[1] != "" {
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

// withoutStopWords returns a copy of a without its stop-word filter, so
// that every vocabulary word yields a term.
func withoutStopWords(a *Analyzer) *Analyzer {
	b := *a
	b.filters = nil
	for _, f := range a.filters {
		if _, ok := f.(stopFilter); !ok {
			b.filters = append(b.filters, f)
		}
	}
	return &b
}

// singleTerm returns a's only term for w, or a marker if there is not
// exactly one.
func singleTerm(a *Analyzer, w string) string {
	terms := a.Terms(w)
	if len(terms) != 1 {
		return fmt.Sprintf("<%d terms: %q>", len(terms), terms)
	}
	return terms[0]
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
	es := withoutStopWords(mustNew(t, "es"))
	rate, bad := vocabAgreement(pairs, func(w string) string { return singleTerm(es, w) }, true)
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
	en := withoutStopWords(mustNew(t, "en"))
	rate, bad := vocabAgreement(pairs, func(w string) string { return singleTerm(en, w) }, false)
	t.Logf("en analyzer vs Porter2: %.4f (%d/%d words differ)", rate, len(bad), len(pairs))
	for i, b := range bad {
		if i == 10 {
			break
		}
		t.Logf("  %q → %q", b.in, b.out)
	}
	// The only differences are tokens with apostrophes ("'s" → "s").
	if rate < 0.999 {
		t.Errorf("agreement %.4f < 0.999", rate)
	}
}
