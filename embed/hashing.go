package embed

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo/internal/httpx"
	"github.com/oraculo/oraculo/text"
	"github.com/oraculo/oraculo/vector"
)

// DefaultHashingDims is the number of dimensions NewHashing uses when
// asked for none.
const DefaultHashingDims = 384

// DefaultHashingTermsDims is the size the engine gives the analysed
// variant (v2) by default: on the sample campaign, 1024 buckets beat 384
// (fewer collisions) and 2048 (sparser vectors, weaker fusion) — see
// BENCHMARKS.md.
const DefaultHashingTermsDims = 1024

// Feature weights of Hashing: whole words count more than the character
// trigrams that make them up.
const (
	hashWordWeight    = 1.0
	hashTrigramWeight = 0.5
	// v2: trigrams of analysed terms.
	hashTermTrigramWeight = 0.3
)

// Hashing is a deterministic, model-free embedder: feature hashing of the
// words and character trigrams of the text (lowercased, accents folded)
// into Dims signed buckets, scaled to unit length. Texts that share words
// or word pieces get similar vectors; synonyms and paraphrases do not. It
// is NOT semantic: it exists so that tests, benchmarks and the evaluation
// harness can exercise the dense path without a model, and as an honest
// fallback. Kind is ignored.
//
// The algorithm is frozen under its ID "hashing/v1.1-<dims>": any change
// to tokenisation, folding, features, weights or hashing must change the
// version (v1.1 folds words with [text.Fold], which spells out "º", "ß",
// "đ"... where v1 kept them).
type Hashing struct {
	dims  int
	name  string
	terms func(string) []string
}

// NewHashingTerms returns the analysed variant, "hashing/v2.1-<name>-<dims>"
// (v2.1: the plain words it falls back to are folded as v1.1's are):
// its features are the terms terms returns (the notes' analyzer: stop words
// dropped, words stemmed), each weighted 1+ln(tf), plus their character
// trigrams at a lower weight, so that inflections and near spellings still
// meet. Still not semantic, but a much better model-free fallback than v1,
// whose features are dominated by articles and prepositions. name
// identifies terms (the analyzer's version) and is part of the ID.
func NewHashingTerms(dims int, name string, terms func(string) []string) *Hashing {
	h := NewHashing(dims)
	h.name, h.terms = name, terms
	return h
}

// NewHashing returns a Hashing embedder of dims dimensions
// (DefaultHashingDims when dims <= 0).
func NewHashing(dims int) *Hashing {
	if dims <= 0 {
		dims = DefaultHashingDims
	}
	return &Hashing{dims: dims}
}

// ID returns "hashing/v1.1-<dims>", or "hashing/v2.1-<name>-<dims>" for
// the analysed variant.
func (h *Hashing) ID() string {
	if h.terms != nil {
		return fmt.Sprintf("hashing/v2.1-%s-%d", h.name, h.dims)
	}
	return fmt.Sprintf("hashing/v1.1-%d", h.dims)
}

// Dims returns the number of dimensions of its vectors.
func (h *Hashing) Dims() int { return h.dims }

// Embed returns one unit vector per text. A text without words (empty,
// blank, only punctuation) is an error wrapping ErrEmptyText.
func (h *Hashing) Embed(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := h.vector(t)
		if err != nil {
			return nil, fmt.Errorf("hashing: text %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// vector embeds one text.
func (h *Hashing) vector(text string) ([]float32, error) {
	var words []string
	if h.terms != nil {
		words = h.terms(text)
		if len(words) == 0 {
			// Only stop words: fall back to the plain words so that a
			// passage like "Y luego, nada" still gets a vector.
			words = hashWords(text)
		}
	} else {
		words = hashWords(text)
	}
	if len(words) == 0 {
		return nil, ErrEmptyText
	}
	acc := make([]float64, h.dims)
	add := func(kind byte, feature string, w float64) {
		x := mix64(fnv1a(kind, feature))
		i := int(x % uint64(h.dims))
		if x>>63 == 1 {
			w = -w
		}
		acc[i] += w
	}
	if h.terms != nil {
		tf := map[string]int{}
		for _, w := range words {
			tf[w]++
		}
		for w, n := range tf {
			wt := 1 + math.Log(float64(n))
			add('w', w, wt*hashWordWeight)
			r := []rune("^" + w + "$")
			for j := 0; j+3 <= len(r); j++ {
				add('t', string(r[j:j+3]), wt*hashTermTrigramWeight)
			}
		}
		return h.finish(acc, text)
	}
	for _, w := range words {
		add('w', w, hashWordWeight)
		r := []rune("^" + w + "$")
		for j := 0; j+3 <= len(r); j++ {
			add('t', string(r[j:j+3]), hashTrigramWeight)
		}
	}
	return h.finish(acc, text)
}

// finish turns the accumulated features into a unit vector.
func (h *Hashing) finish(acc []float64, text string) ([]float32, error) {
	v := make([]float32, h.dims)
	for i, x := range acc {
		v[i] = float32(x)
	}
	if !vector.Normalize(v) {
		// Features cancelled out exactly: astronomically unlikely, but a
		// zero vector is never returned.
		return nil, fmt.Errorf("features of %q cancel out", httpx.Clip(text, 40))
	}
	return v, nil
}

// hashWords returns the words of text: runs of letters and digits,
// folded as [text.Fold] folds them ("Canción" → "cancion", "año" → "ano",
// "nº" → "no").
func hashWords(s string) []string {
	return strings.FieldsFunc(text.Fold(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// fnv1a is 64-bit FNV-1a of a kind byte followed by s.
func fnv1a(kind byte, s string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	h ^= uint64(kind)
	h *= prime
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime
	}
	return h
}

// mix64 is the splitmix64 finaliser: it spreads FNV's bits so that both
// the bucket (low bits) and the sign (top bit) are well mixed.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
