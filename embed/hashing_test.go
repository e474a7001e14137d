package embed

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/analysis"
)

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

func nan() float64 { return math.NaN() }

func TestHashingBasics(t *testing.T) {
	for _, dims := range []int{8, 64, 384, 1000} {
		h := NewHashing(dims)
		if h.ID() != fmt.Sprintf("hashing/v1.1-%d", dims) || h.Dims() != dims {
			t.Errorf("ID = %q, Dims = %d", h.ID(), h.Dims())
		}
		in := []string{"El archiduque desapareció en la sesión 12.", "¿Quién robó el sello gris?"}
		a, err := h.Embed(t.Context(), Passage, in)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := NewHashing(dims).Embed(t.Context(), Query, in)
		if !equalVecs(a, b) {
			t.Errorf("dims %d: not deterministic (or depends on Kind)", dims)
		}
		for i, v := range a {
			if len(v) != dims {
				t.Errorf("dims %d: vector %d has %d dimensions", dims, i, len(v))
			}
			var sum float64
			for _, x := range v {
				sum += float64(x) * float64(x)
			}
			if math.Abs(sum-1) > 1e-5 {
				t.Errorf("dims %d: vector %d has norm² %v, want 1", dims, i, sum)
			}
		}
	}
	if NewHashing(0).Dims() != DefaultHashingDims || NewHashing(-3).ID() != "hashing/v1.1-384" {
		t.Error("dims <= 0 should give the default")
	}
}

func TestHashingSimilarity(t *testing.T) {
	h := NewHashing(384)
	vecs, err := h.Embed(t.Context(), Passage, []string{
		"El dragón rojo atacó la ciudad de Velmora al amanecer.",
		"Al amanecer, un dragón rojo atacó Velmora.",
		"Receta de tortilla de patatas con cebolla.",
		"Los dragones atacaron la ciudad.", // shares word pieces only
	})
	if err != nil {
		t.Fatal(err)
	}
	same, other, pieces := cosine(vecs[0], vecs[1]), cosine(vecs[0], vecs[2]), cosine(vecs[0], vecs[3])
	if same <= other || pieces <= other {
		t.Errorf("cos(paraphrase) = %.3f, cos(word pieces) = %.3f, cos(unrelated) = %.3f: shared words should score higher", same, pieces, other)
	}
	if same < 0.5 || other > 0.3 {
		t.Errorf("cos(paraphrase) = %.3f, cos(unrelated) = %.3f: too little contrast", same, other)
	}
}

func TestHashingFolding(t *testing.T) {
	h := NewHashing(128)
	for _, pair := range [][2]string{
		{"canción", "cancion"},
		{"Canción", "CANCION"},
		{"canci\u006f\u0301n", "canción"}, // decomposed (NFD) input
		{"sesión 12: ¡el archiduque!", "sesion 12 el archiduque"},
		{"año", "ano"},
	} {
		v, err := h.Embed(t.Context(), Query, pair[:])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v[0], v[1]) {
			t.Errorf("%q and %q have different vectors", pair[0], pair[1])
		}
	}
}

func TestHashingEmpty(t *testing.T) {
	h := NewHashing(32)
	for _, s := range []string{"", "   \n\t", "¡¿...?!", "— · —"} {
		_, err := h.Embed(t.Context(), Passage, []string{"hola", s})
		if !errors.Is(err, ErrEmptyText) || !strings.Contains(err.Error(), "text 1") {
			t.Errorf("Embed(%q) err = %v, want ErrEmptyText for text 1", s, err)
		}
	}
	if v, err := h.Embed(t.Context(), Passage, nil); err != nil || len(v) != 0 {
		t.Errorf("Embed(nil) = %v, %v", v, err)
	}
}

// TestHashingFrozen pins the v1 algorithm: if it fails, the vectors of
// "hashing/v1.1-*" changed, and stored vectors would silently mix with new
// ones. Change the version in the ID instead.
func TestHashingFrozen(t *testing.T) {
	v, err := NewHashing(64).Embed(t.Context(), Passage, []string{"Harbin guarda el sello gris"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fingerprint(v[0]), hashingV1Fingerprint; got != want {
		t.Errorf("fingerprint =\n%s\nwant\n%s", got, want)
	}
}

const hashingV1Fingerprint = "0 0 0 -0.2 +0.2 0 0 +0.2 0 0 0 -0.3 -0.2 0 0 0 0 0 -0.2 +0.2 0 0 +0.2 +0.2 -0.2 0 0 -0.3 0 0 -0.3 0 0 -0.2 0 0 +0.2 0 +0.2 -0.2 -0.3 0 +0.3 +0.2 0 0 0 0 +0.2 -0.2 0 0 0 0 0 +0.2 0 0 0 0 0 0 +0.3 0"

// fingerprint writes each component as its value rounded to one decimal
// place ("+0.3", "-0.1", "0"): features weigh 1 or 0.5, so components are
// exact multiples of one scale and the rounding is the same on every
// platform, while any change of features, weights or hashing shows.
func fingerprint(v []float32) string {
	parts := make([]string, len(v))
	for i, x := range v {
		if x == 0 {
			parts[i] = "0"
		} else {
			parts[i] = fmt.Sprintf("%+.1f", x)
		}
	}
	return strings.Join(parts, " ")
}

// TestHashingTerms checks the analysed variant (v2): stop words do not
// count, inflections meet through the stemmer, the ID names the analyzer,
// and term frequency is damped.
func TestHashingTerms(t *testing.T) {
	an, err := analysis.New("es")
	if err != nil {
		t.Fatal(err)
	}
	h := NewHashingTerms(1024, an.Version(), an.Terms)
	if want := "hashing/v2.1-" + an.Version() + "-1024"; h.ID() != want || h.Dims() != 1024 {
		t.Errorf("ID = %q, Dims = %d; want %q, 1024", h.ID(), h.Dims(), want)
	}
	v, err := h.Embed(t.Context(), Passage, []string{
		"El archiduque desapareció en la sesión doce.",
		"archiduque desapareció sesión doce",             // only stop words removed
		"Los archiduques desaparecieron en las sesiones", // inflections
		"Y de la que en el por un para con no una",       // only stop words
		"Receta de tortilla de patatas con cebolla.",
	})
	if err != nil {
		t.Fatal(err)
	}
	if c := cosine(v[0], v[1]); c < 0.999 {
		t.Errorf("cos(text, text without stop words) = %.3f, want 1: stop words must not count", c)
	}
	infl, other := cosine(v[0], v[2]), cosine(v[0], v[4])
	if infl < 0.6 || other > 0.2 {
		t.Errorf("cos(inflections) = %.3f, cos(unrelated) = %.3f: want ≥ 0.6 and ≤ 0.2", infl, other)
	}
	if len(v[3]) != 1024 {
		t.Errorf("a text of only stop words should still get a vector, got %d dims", len(v[3]))
	}
	// v1 on the same pair: its stop words make unrelated texts look alike.
	v1, _ := NewHashing(1024).Embed(t.Context(), Passage, []string{
		"El archiduque desapareció en la sesión doce.", "Receta de tortilla de patatas con cebolla."})
	if c1 := cosine(v1[0], v1[1]); c1 <= other {
		t.Errorf("cos(unrelated) v1 = %.3f, v2 = %.3f: v2 should separate them better", c1, other)
	}
	// Repetition is damped: ten times a word is not ten times its weight.
	rep, _ := h.Embed(t.Context(), Passage, []string{
		"dragón dragón dragón dragón dragón dragón dragón dragón dragón dragón ciudad", "dragón ciudad"})
	if c := cosine(rep[0], rep[1]); c < 0.8 {
		t.Errorf("cos(repeated word, once) = %.3f, want ≥ 0.8 (1+ln tf)", c)
	}
	if _, err := h.Embed(t.Context(), Passage, []string{"¡¿...?!"}); !errors.Is(err, ErrEmptyText) {
		t.Errorf("punctuation only: err = %v, want ErrEmptyText", err)
	}
}

// The words the hashing embedder hashes are folded as text.Fold folds
// them, the engine's one folding: "º" and "ß" spelled out, a final sigma
// made σ (v1 kept them, and met neither "no" nor "strasse").
func TestHashWordsFoldAsText(t *testing.T) {
	got := strings.Join(hashWords("Nº 3: la Straße de ÁNGEL, οξυς; đang"), " ")
	if want := "no 3 la strasse de angel οξυσ dang"; got != want {
		t.Fatalf("hashWords = %q, want %q", got, want)
	}
}
