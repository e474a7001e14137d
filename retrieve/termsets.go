package retrieve

import (
	"slices"
	"strings"
	"sync"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/store"
)

// termSets remembers the analysed terms of texts the coverage share has
// read: a passage's and a heading path's. Each set is a pure function of
// its analyser and its text, so a set remembered is the set analysing
// again would give, whoever asks (a player only asks for texts the search
// gave them). The same chunks come back across questions (a campaign's
// central notes), and analysing 80 passages and heading paths was a tenth
// of a keyword search's CPU at 100k chunks.
//
// The sets are kept in two generations: when the newer is full it becomes
// the older, and a set found in the older moves to the newer, so that the
// sets in use stay whatever the order the texts come in.
type termSets struct {
	mu         sync.Mutex
	sets, prev map[termSetKey][]string
}

// termSetKey names a set: its analyser, whether it is a heading path, and
// the text (for a heading path, the note's path then its headings).
type termSetKey struct {
	an      *analysis.Analyzer
	heading bool
	text    string
}

// maxTermSets bounds the sets of a generation: at most twice as many are
// kept, at most ~45 MB (a set and its text ~700 bytes).
const maxTermSets = 1 << 15

// coverageTerms is the process's remembered sets.
var coverageTerms termSets

// passage returns the sorted terms an gives text.
func (c *termSets) passage(an *analysis.Analyzer, text string) []string {
	return c.get(termSetKey{an: an, text: text}, func() []string { return an.Terms(text) })
}

// heading returns the sorted heading terms a chunk of the note at path
// under headings is indexed with, as an analyses them
// ([store.HeadingTerms]).
func (c *termSets) heading(an *analysis.Analyzer, path string, headings []string) []string {
	key := termSetKey{an: an, heading: true, text: path + "\x00" + strings.Join(headings, "\x00")}
	return c.get(key, func() []string { return strings.Fields(store.HeadingTerms(an.Terms, path, headings)) })
}

// get returns the set under key, made from terms when it is not kept.
func (c *termSets) get(key termSetKey, terms func() []string) []string {
	c.mu.Lock()
	set, ok := c.sets[key]
	if !ok {
		if set, ok = c.prev[key]; ok {
			c.keep(key, set)
		}
	}
	c.mu.Unlock()
	if ok {
		return set
	}
	set = slices.Compact(slices.Sorted(slices.Values(terms())))
	// The key's text may be a slice of a whole chunk's: keep only its own
	// bytes.
	key.text = strings.Clone(key.text)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keep(key, set)
	return set
}

// keep adds a set to the newer generation, starting a new one when it is
// full. The caller holds c.mu.
func (c *termSets) keep(key termSetKey, set []string) {
	if c.sets == nil || len(c.sets) >= maxTermSets {
		c.prev, c.sets = c.sets, make(map[termSetKey][]string)
	}
	c.sets[key] = set
}

// holds reports whether the sorted set holds term.
func holds(set []string, term string) bool {
	_, ok := slices.BinarySearch(set, term)
	return ok
}
