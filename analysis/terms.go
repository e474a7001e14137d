package analysis

import (
	"github.com/oraculo/oraculo/text"
)

// termChain is the filters of a language's analyser fused into one pass
// over the words of a text (see [Analyzer.AppendTerms]): lowercase and
// fold, drop words too long and stop words, stem.
type termChain struct {
	keepEnye bool
	max      int
	stop     map[string]struct{}
	// spanish stems with the Spanish stemmer, else with English Porter2.
	spanish bool
}

// stem is the chain's stemmer, for the stem filter.
func (c *termChain) stem(word string) string {
	if c.spanish {
		return stemSpanish(word)
	}
	return stemEnglish(word)
}

// appendStem appends the stem of word to dst, as stem gives it.
func (c *termChain) appendStem(dst, word []byte) []byte {
	if c.spanish {
		return esDefault.appendStem(dst, word)
	}
	return append(dst, stemEnglish(string(word))...)
}

// AppendTerms appends the terms of text, those [Analyzer.Terms] gives,
// each after a space but the first, to dst and returns the extended
// buffer: strings.Join(a.Terms(text), " "), with no token stream and no
// string per term (an ingest analyses every paragraph of every note).
func (a *Analyzer) AppendTerms(dst []byte, s string) []byte {
	c := a.chain
	var buf [2 * MaxTermBytes]byte
	first := true
	for start, end := range text.Words(s) {
		w := appendFold(buf[:0], s[start:end], c.keepEnye)
		if len(w) == 0 || len(w) > c.max {
			continue
		}
		if _, stop := c.stop[string(w)]; stop {
			continue
		}
		mark := len(dst)
		if !first {
			dst = append(dst, ' ')
		}
		n := len(dst)
		if dst = c.appendStem(dst, w); len(dst) == n {
			dst = dst[:mark] // an empty stem is no term
			continue
		}
		first = false
	}
	return dst
}

// appendFold appends s lowercased and folded, as the lowercase and fold
// filters leave it, to dst.
func appendFold(dst []byte, s string, keepEnye bool) []byte {
	if keepEnye {
		return text.AppendFoldKeepEnye(dst, s)
	}
	return text.AppendFold(dst, s)
}
