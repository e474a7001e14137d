// Package analysis turns text into index terms for Oráculo's full-text
// search.
//
// The same Analyzer is applied to the text that is indexed and to the
// question that is searched, and the resulting terms are written
// space-separated into SQLite FTS5, so every term is a non-empty string of
// Unicode letters, digits and combining marks with no spaces. Its ASCII
// characters are only a-z and 0-9, so FTS5's "ascii" tokenizer (which keeps
// every non-ASCII character inside a token) reads the terms back exactly;
// "unicode61" would not, as it folds diacritics (ñ → n) by default and
// splits at letters newer than Unicode 6.1.
//
// An Analyzer is a fixed chain of small pieces in the manner of bleve: a
// Tokenizer splits the text and each TokenFilter transforms the token stream:
//
//	unicode tokenizer → lowercase → accent folding → length limit → stop words → stemmer
//
// Accent folding runs before the stop list and the stemmer (not after them,
// as in a classic Snowball pipeline) because notes and questions are often
// typed without accents: when both the stop list and the stemmer see only the
// folded form, "cancelación" and "cancelacion", "qué" and "que" are
// indistinguishable by construction instead of by luck. The Spanish stemmer in
// this package is the Snowball Spanish algorithm rewritten for folded input
// (see stem_es.go).
package analysis
