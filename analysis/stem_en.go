package analysis

import "github.com/kljensen/snowball/english"

// stemEnglish applies the Snowball English (Porter2) stemmer of
// github.com/kljensen/snowball to a lowercase, folded word. Stop words are
// removed before stemming, so the stemmer is asked to stem every word it
// sees. Porter2 only rewrites ASCII suffixes; other scripts pass through.
func stemEnglish(word string) string {
	return english.Stem(word, true)
}
