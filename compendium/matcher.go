package compendium

import (
	"cmp"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/text"
)

// Mention is one occurrence of an entity in a text.
type Mention struct {
	Entity     int    // index into the entities given to NewMatcher
	Start, End int    // byte offsets in the text
	Surface    string // text[Start:End]
	Fuzzy      bool   // found with spelling tolerance
}

// Matcher finds mentions of entities in text. It is safe for concurrent
// use.
//
// Each entity is looked for by its name, its aliases and, derived from
// them: a multi-word alias or name without its leading article when the
// next word is capitalised ("la Dama Velada" → "Dama Velada"), and an "el
// X" alias after the contractions "del"/"al" ("del Farolero" is a mention
// of "el Farolero", covering "Farolero"). Single-word remainders are not
// derived: "la Torre" does not make every "torre" a mention.
//
// Matching is by whole tokens (Normalize's tokens: "Nix" is not in "Nixon"
// nor "Kael" a mention of "Kael-Dur"), case- and accent-insensitive.
// Longest match first: matches with more words win, a leading article not
// counting ("Torre de Sal de Ezkarra" over "Ezkarra"; "Ciudad Alta" over
// the alias "la ciudad" in "la Ciudad Alta"), then exact over fuzzy, then
// name over alias over derived, then fewer edits, then the earlier match
// (or the lower entity index). Mentions never overlap. The same text for two entities goes
// to the one whose name it is, else to the lower index.
//
// Spelling tolerance (Mention.Fuzzy): a name or alias of 8 to 13 letters
// (spaces excluded) may be matched with 1 edit, one of 14 or more with 2
// (optimal string alignment distance: insertion, deletion, substitution,
// transposition of neighbours), under these rules: edits only in words of
// 5 letters or more (at most 1 per word, 2 in words of 14+) that are
// capitalised in the name, never in a word's first letter, and the same
// number of words. So "Valcarsel" finds "Valcárcel" (9 letters, 1 edit),
// "Nix" or "Anika" never match fuzzily, and lowercase aliases ("las siete
// voces") only match exactly.
//
// Find's cost is linear in the text's tokens, however many entities share
// a word: each pattern is keyed by its first word that is not an article
// (its anchor), and the patterns of one anchor form a trie of their words
// after it, so each token costs one map lookup for its anchor and one per
// following word that continues some pattern, never a pass over every
// pattern of the anchor ("Sesión 1" … "Sesión 5000" cost a token each).
// Where a word may take edits, the trie is followed also along the words
// within reach of the text's word, found as the anchors are (below).
//
// For spelling tolerance, a Bloom filter holds the hashes of the anchors
// that may take one edit and of their one-letter deletions (never the
// first letter): a token within one edit of an anchor shares such a hash,
// so most tokens are ruled out with len(token) hash probes; the others are
// compared with the anchors of the same first letter and a length within
// reach, first by their sets of letters (a bitmask each), then by edit
// distance. Anchors of 14+ letters (2 edits) are compared with tokens of
// 12+ letters only. The words after the anchors that may take edits have
// an index of their own, built the same way.
type Matcher struct {
	vocab    map[string]int32 // normalised token → id
	words    []string         // id → normalised token
	wlen     []int            // id → letters
	patterns []pattern
	// byAnchor lists the patterns of each anchor token in rank order:
	// heaviest first, then by priority, then by index. Find tries the
	// candidates in this order.
	byAnchor map[int32][]int32
	rank     []int32 // pattern → its place in its anchor's list
	// The trie of the patterns' words after their anchors, for the anchors
	// of more than trieMin patterns: roots maps an anchor token to its
	// node; a node's children are edges keyed by (node, token); ends lists
	// the patterns whose words end at a node.
	roots map[int32]int32
	edges map[trieEdge]int32
	ends  [][]int32
	kids  []int32 // node → children
	// anchors indexes the anchor tokens that may take edits, rest the
	// other words of the patterns that may.
	anchors, rest fuzzyIndex
}

// trieEdge is the key of a child in the trie: its parent and its token.
type trieEdge struct{ node, tok int32 }

// fuzzyIndex finds the indexed tokens within edit reach of a token. They
// are sorted by length and by first byte (a match has the same first
// letter): ASCII ones that take 1 edit (short), those that take 2 (long),
// the others (odd); and a Bloom filter of the deletion variants of the
// first kind.
//
// A token is compared with the short ones that share one of its deletion
// hashes only (dels, sorted, after the Bloom filter): however many of them
// there are, a token costs its length in probes and a comparison with each
// true neighbour, never a pass over the bucket.
//
// The deletion hashes are made only once the index has been asked about
// lazyDeletions tokens: a search's question of a few words is compared
// with the short ones of its bucket (the same tokens, in the same order),
// and the first search after a process starts does not pay for hashing
// and sorting every deletion (a third of building the matcher).
type fuzzyIndex struct {
	short, long, odd [256][]fuzzyEntry
	shortAll         []fuzzyEntry // the short ones, the buckets of short in a row
	any              bool         // some token is indexed
	// asked counts the tokens compared by a pass over their bucket;
	// built, once made, is the index of deletion hashes.
	asked atomic.Int64
	once  sync.Once
	built atomic.Pointer[deletions]
}

// deletions are the deletion hashes of the short tokens: a Bloom filter
// of them, and each with its token, sorted.
type deletions struct {
	bloom []uint64
	dels  []delHash
}

// lazyDeletions is how many tokens a fuzzy index compares by a pass over
// their bucket before it hashes its tokens' deletions: about what the
// hashing costs, for 5,000 names.
var lazyDeletions int64 = 4096

// delHash is one deletion hash (see forDeletions) of shortAll[i].
type delHash struct {
	h uint64
	i int32
}

// bloomBits is the size of a Bloom filter (128 KB; two bits per hash).
const bloomBits = 1 << 20

// fuzzyEntry is one token of the fuzzy index.
type fuzzyEntry struct {
	id      int32
	word    string
	letters int    // runes
	maxEd   int    // edits it may take
	mask    uint32 // letterMask
}

// pattern is one token sequence to find.
type pattern struct {
	toks        []int32
	anchor      int // index of the first token that is not an article
	entity      int32
	prio        uint8 // 0 name, 1 alias, 2 derived
	contraction bool  // derived from "el X": only after "del" or "al"
	budget      uint8 // total edits allowed
	weight      int   // tokens, not counting a leading article
	fuzzyTok    []bool
}

// NewMatcher prepares a Matcher for the entities. An entity whose name is
// empty (after Normalize) is never found.
func NewMatcher(entities []Entity) *Matcher {
	m := &Matcher{vocab: map[string]int32{}}
	type keyID struct {
		toks        string
		contraction bool
	}
	seen := map[keyID]int{} // → index in m.patterns
	add := func(words []word, entity int, prio uint8, contraction bool) {
		if len(words) == 0 {
			return
		}
		p := newPattern(m, words, entity, prio, contraction)
		norms := make([]string, len(words))
		for i, w := range words {
			norms[i] = w.norm
		}
		id := keyID{strings.Join(norms, " "), contraction}
		if j, ok := seen[id]; ok {
			if prio < m.patterns[j].prio {
				m.patterns[j] = p // a name beats another entity's alias
			}
			return
		}
		seen[id] = len(m.patterns)
		m.patterns = append(m.patterns, p)
	}
	for i, e := range entities {
		if Normalize(e.Name) == "" {
			continue
		}
		add(nameWords(e.Name), i, 0, false)
		for _, a := range e.Aliases {
			add(nameWords(a), i, 1, false)
		}
	}
	for i, e := range entities {
		if Normalize(e.Name) == "" {
			continue
		}
		for _, s := range append([]string{e.Name}, e.Aliases...) {
			ws := nameWords(s)
			if len(ws) >= 3 && articles[ws[0].norm] && ws[1].cap {
				add(ws[1:], i, 2, false) // "la Dama Velada" → "Dama Velada"
			}
			if len(ws) >= 2 && ws[0].norm == "el" {
				add(ws[1:], i, 2, true) // "del Farolero" → "el Farolero"
			}
		}
	}
	m.buildTrie()
	m.buildFuzzyIndexes()
	return m
}

// buildTrie ranks the patterns of each anchor and puts their words after
// the anchor in the trie.
func (m *Matcher) buildTrie() {
	m.byAnchor = map[int32][]int32{}
	for i := range m.patterns {
		p := &m.patterns[i]
		m.byAnchor[p.toks[p.anchor]] = append(m.byAnchor[p.toks[p.anchor]], int32(i))
	}
	m.rank = make([]int32, len(m.patterns))
	for _, list := range m.byAnchor {
		sort.SliceStable(list, func(a, b int) bool {
			pa, pb := &m.patterns[list[a]], &m.patterns[list[b]]
			if pa.weight != pb.weight {
				return pa.weight > pb.weight
			}
			return pa.prio < pb.prio
		})
		for r, pi := range list {
			m.rank[pi] = int32(r)
		}
	}
	m.roots = map[int32]int32{}
	m.edges = map[trieEdge]int32{}
	node := func() int32 {
		m.ends = append(m.ends, nil)
		m.kids = append(m.kids, 0)
		return int32(len(m.ends) - 1)
	}
	for i := range m.patterns {
		p := &m.patterns[i]
		if !m.inTrie(p) {
			continue
		}
		n, ok := m.roots[p.toks[p.anchor]]
		if !ok {
			n = node()
			m.roots[p.toks[p.anchor]] = n
		}
		for _, t := range p.toks[p.anchor+1:] {
			c, ok := m.edges[trieEdge{n, t}]
			if !ok {
				c = node()
				m.edges[trieEdge{n, t}] = c
				m.kids[n]++
			}
			n = c
		}
		m.ends[n] = append(m.ends[n], int32(i))
	}
}

// trieMin is how many patterns an anchor must have for them to go in the
// trie; fewer are each tried, which costs less than following the trie.
var trieMin = 16

// inTrie reports whether p's anchor has its patterns in the trie.
func (m *Matcher) inTrie(p *pattern) bool { return len(m.byAnchor[p.toks[p.anchor]]) > trieMin }

// newPattern compiles the words of a name.
func newPattern(m *Matcher, words []word, entity int, prio uint8, contraction bool) pattern {
	p := pattern{entity: int32(entity), prio: prio, contraction: contraction}
	letters := 0
	for _, w := range words {
		p.toks = append(p.toks, m.intern(w.norm))
		letters += utf8.RuneCountInString(w.norm)
	}
	switch {
	case letters >= 14:
		p.budget = 2
	case letters >= 8:
		p.budget = 1
	}
	p.fuzzyTok = make([]bool, len(words))
	for i, w := range words {
		p.fuzzyTok[i] = p.budget > 0 && w.cap && utf8.RuneCountInString(w.norm) >= 5
	}
	p.weight = len(words)
	for p.anchor < len(words)-1 && articles[words[p.anchor].norm] {
		p.anchor++
	}
	if articles[words[0].norm] {
		p.weight--
	}
	return p
}

// nameWords splits a name into words the way Find tokenises text, keeping
// whether each word is capitalised.
func nameWords(s string) []word {
	var ws []word
	for start, end := range text.Words(s) {
		t := s[start:end]
		r, _ := utf8.DecodeRuneInString(t)
		ws = append(ws, word{text: t, norm: text.Fold(t), cap: unicode.IsUpper(r) || unicode.IsTitle(r)})
	}
	return ws
}

func (m *Matcher) intern(w string) int32 {
	if id, ok := m.vocab[w]; ok {
		return id
	}
	id := int32(len(m.words))
	m.vocab[w] = id
	m.words = append(m.words, w)
	m.wlen = append(m.wlen, utf8.RuneCountInString(w))
	return id
}

// tokCap is the most edits a word of n letters may take.
func tokCap(n int) int {
	switch {
	case n >= 14:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}

// buildFuzzyIndexes indexes every token that some pattern may match with
// edits: the anchors in m.anchors, the other words in m.rest.
func (m *Matcher) buildFuzzyIndexes() {
	anchors, rest := map[int32]int{}, map[int32]int{}
	for _, p := range m.patterns {
		for j, t := range p.toks {
			if !p.fuzzyTok[j] {
				continue
			}
			d := min(tokCap(m.wlen[t]), int(p.budget))
			switch {
			case j != p.anchor:
				if m.inTrie(&p) {
					rest[t] = max(rest[t], d)
				}
			case len(m.words[t]) < 60: // Find never compares anchors of 64+ bytes
				anchors[t] = max(anchors[t], d)
			}
		}
	}
	m.anchors.build(m, anchors)
	m.rest.build(m, rest)
}

// build indexes the tokens of maxEd, each taking up to its edits.
func (x *fuzzyIndex) build(m *Matcher, maxEd map[int32]int) {
	ids := sortedIDs(maxEd)
	x.shortAll = make([]fuzzyEntry, 0, len(ids))
	for _, id := range ids {
		w := m.words[id]
		e := fuzzyEntry{id: id, word: w, letters: m.wlen[id], maxEd: maxEd[id], mask: letterMask(w)}
		switch {
		case e.maxEd <= 0:
			continue
		case e.maxEd > 1:
			x.long[w[0]] = append(x.long[w[0]], e)
		case !isASCIIString(w) || len(w) >= 64:
			x.odd[w[0]] = append(x.odd[w[0]], e)
		default:
			x.shortAll = append(x.shortAll, e)
		}
		x.any = true
	}
	// The short ones by first byte, then length (then id, as they came):
	// each bucket is a run of them.
	slices.SortStableFunc(x.shortAll, func(a, b fuzzyEntry) int {
		return cmp.Or(cmp.Compare(a.word[0], b.word[0]), cmp.Compare(a.letters, b.letters))
	})
	for i := 0; i < len(x.shortAll); {
		j := i + 1
		for j < len(x.shortAll) && x.shortAll[j].word[0] == x.shortAll[i].word[0] {
			j++
		}
		x.short[x.shortAll[i].word[0]] = x.shortAll[i:j:j]
		i = j
	}
	byLen := func(a, b fuzzyEntry) int { return cmp.Compare(a.letters, b.letters) }
	for i := range x.long {
		slices.SortStableFunc(x.long[i], byLen)
		slices.SortStableFunc(x.odd[i], byLen)
	}
}

// deletions returns the index of deletion hashes of the short tokens,
// or nil while they are better compared by a pass over their bucket
// (see lazyDeletions); a call counts one token asked about.
func (x *fuzzyIndex) deletions() *deletions {
	if d := x.built.Load(); d != nil {
		return d
	}
	if x.asked.Add(1) <= lazyDeletions {
		return nil
	}
	x.once.Do(func() { x.built.Store(hashDeletions(x.shortAll)) })
	return x.built.Load()
}

// hashDeletions hashes the deletions of the short tokens.
func hashDeletions(short []fuzzyEntry) *deletions {
	// Sized up front (a word of n bytes has n): grown by appending,
	// copying them was a fifth of a first search's time (issue 31, part 3).
	n := 0
	for _, e := range short {
		n += len(e.word)
	}
	d := &deletions{bloom: make([]uint64, bloomBits/64), dels: make([]delHash, 0, n)}
	for i, e := range short {
		forDeletions(e.word, func(h uint64) {
			b1, b2 := bloomSlots(h)
			d.bloom[b1/64] |= 1 << (b1 % 64)
			d.bloom[b2/64] |= 1 << (b2 % 64)
			d.dels = append(d.dels, delHash{h, int32(i)})
		})
	}
	slices.SortFunc(d.dels, func(a, b delHash) int { return cmp.Compare(a.h, b.h) })
	return d
}

// hashBase is the base of the polynomial hashes of forDeletions.
const hashBase = 1_000_003

var hashPow = func() (p [65]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * hashBase
	}
	return p
}()

// forDeletions calls f with the hash of the ASCII word w (of fewer than
// 64 bytes) and of each word made by deleting one of its letters but the
// first. Two words within one edit that never touches the first letter
// (substitution, insertion, deletion or transposition of neighbours) share
// one of these hashes.
func forDeletions(w string, f func(uint64)) {
	n := len(w)
	var pre, suf [65]uint64
	for k := 0; k < n; k++ {
		pre[k+1] = pre[k]*hashBase + uint64(w[k])
	}
	for k := n - 1; k >= 0; k-- {
		suf[k] = uint64(w[k])*hashPow[n-1-k] + suf[k+1]
	}
	f(pre[n])
	for i := 1; i < n; i++ {
		f(pre[i]*hashPow[n-1-i] + suf[i+1])
	}
}

// bloomSlots returns the two bits of the Bloom filter for a hash.
func bloomSlots(h uint64) (uint64, uint64) {
	h ^= h >> 31
	h *= 0x9e3779b97f4a7c15
	h ^= h >> 29
	return h % bloomBits, (h >> 32) % bloomBits
}

// tok is one token of a text being searched.
type tok struct {
	start, end int32 // in the text
	ns, ne     int32 // normalised form in the scratch buffer
	id         int32 // vocab id, -1 if not in any name
}

// Find returns the mentions of the entities in text, in order; they never
// overlap. See Matcher for the rules.
func (m *Matcher) Find(in string) []Mention {
	return m.find(in, (*finder).bestAt)
}

// find is Find with the search for the best match at a token given.
func (m *Matcher) find(in string, bestAt func(f *finder, i int)) []Mention {
	if len(m.patterns) == 0 {
		return nil
	}
	buf := make([]byte, 0, len(in)+8)
	toks := make([]tok, 0, len(in)/6+1)
	for start, end := range text.Words(in) {
		ns := len(buf)
		buf = text.AppendFold(buf, in[start:end])
		id, ok := m.vocab[string(buf[ns:])]
		if !ok {
			id = -1
		}
		toks = append(toks, tok{int32(start), int32(end), int32(ns), int32(len(buf)), id})
	}
	f := finder{m: m, toks: toks, norms: string(buf)}

	// The best match anchored at each token...
	var cands []found
	for i := range toks {
		bestAt(&f, i)
		if f.best >= 0 {
			cands = append(cands, found{start: i - m.patterns[f.best].anchor, pattern: f.best, edits: f.bestEdits})
		}
	}
	if len(cands) == 0 {
		return nil
	}
	// ...then, within each run of overlapping candidates, the best ones
	// first, skipping those that overlap a better one. Most matches touch
	// no other.
	var out []Mention
	take := func(c found) {
		p := &m.patterns[c.pattern]
		s, e := int(toks[c.start].start), int(toks[c.start+len(p.toks)-1].end)
		out = append(out, Mention{Entity: int(p.entity), Start: s, End: e, Surface: in[s:e], Fuzzy: c.edits > 0})
	}
	end := func(c found) int { return c.start + len(m.patterns[c.pattern].toks) }
	for lo := 0; lo < len(cands); {
		hi, reach := lo+1, end(cands[lo])
		for hi < len(cands) && cands[hi].start < reach {
			reach = max(reach, end(cands[hi]))
			hi++
		}
		if hi == lo+1 {
			take(cands[lo])
			lo = hi
			continue
		}
		run := append([]found(nil), cands[lo:hi]...)
		sort.SliceStable(run, func(a, b int) bool { return m.better(run[a], run[b]) })
		var chosen []found
		for _, c := range run {
			ok := true
			for _, x := range chosen {
				if c.start < end(x) && x.start < end(c) {
					ok = false
					break
				}
			}
			if ok {
				chosen = append(chosen, c)
			}
		}
		sort.Slice(chosen, func(a, b int) bool { return chosen[a].start < chosen[b].start })
		for _, c := range chosen {
			take(c)
		}
		lo = hi
	}
	return out
}

// bestAt finds the best match anchored at token i: it tries the patterns
// the trie says may match there, first those anchored on the token itself,
// then those anchored on a token within edit reach, each group in rank
// order.
func (f *finder) bestAt(i int) {
	m := f.m
	f.best, f.bestWeight, f.bestEdits = -1, 0, 0
	if id := f.toks[i].id; id >= 0 {
		for _, pi := range f.anchoredAt(id, i, 0) {
			f.try(pi, i, 0)
		}
	}
	if !m.anchors.any {
		return
	}
	w := f.norm(i)
	if len(w) >= 64 {
		return // never an anchor with edits
	}
	f.near = m.anchors.near(w, f.toks[i].id, f.near[:0])
	for _, c := range f.near {
		for _, pi := range f.anchoredAt(c.id, i, c.edits) {
			if p := &m.patterns[pi]; p.fuzzyTok[p.anchor] {
				f.try(pi, i, c.edits)
			}
		}
	}
}

// anchoredAt returns, in rank order, the patterns anchored on token id
// that may match with their anchor at token i (which took edits): all of
// them, or those the trie finds.
func (f *finder) anchoredAt(id int32, i, edits int) []int32 {
	if root, ok := f.m.roots[id]; ok {
		return f.candidates(root, i, edits)
	}
	return f.m.byAnchor[id]
}

// maxEdits is the most edits any pattern allows.
const maxEdits = 2

// candidates returns, in rank order, the patterns in the trie under node
// root whose words after the anchor (at token i) may match the text: each
// is the text's token or, for a word that may take edits, within reach of
// it, edits in all (the anchor's included) at most maxEdits. Every pattern
// that matches is among them; try decides.
func (f *finder) candidates(root int32, i, edits int) []int32 {
	m := f.m
	f.cands = f.cands[:0]
	f.stack = append(f.stack[:0], trieStep{root, int32(i), int32(edits)})
	for len(f.stack) > 0 {
		s := f.stack[len(f.stack)-1]
		f.stack = f.stack[:len(f.stack)-1]
		f.cands = append(f.cands, m.ends[s.node]...)
		k := int(s.pos) + 1
		if m.kids[s.node] == 0 || k >= len(f.toks) {
			continue
		}
		if id := f.toks[k].id; id >= 0 {
			if c, ok := m.edges[trieEdge{s.node, id}]; ok {
				f.stack = append(f.stack, trieStep{c, int32(k), s.edits})
			}
		}
		if s.edits >= maxEdits || !m.rest.any {
			continue
		}
		for _, h := range f.restNear(k) {
			if c, ok := m.edges[trieEdge{s.node, h.id}]; ok && int(s.edits)+h.edits <= maxEdits {
				f.stack = append(f.stack, trieStep{c, int32(k), s.edits + int32(h.edits)})
			}
		}
	}
	if len(f.cands) > 1 {
		slices.SortFunc(f.cands, func(a, b int32) int { return int(m.rank[a] - m.rank[b]) })
	}
	return f.cands
}

// trieStep is a node of the trie reached at a token with some edits.
type trieStep struct{ node, pos, edits int32 }

// restNear returns the words after anchors within edit reach of token k,
// found once per token.
func (f *finder) restNear(k int) []fuzzyHit {
	if f.restHits == nil {
		f.restHits = make([][]fuzzyHit, len(f.toks))
		f.restDone = make([]bool, len(f.toks))
	}
	if !f.restDone[k] {
		f.restDone[k] = true
		f.restHits[k] = f.m.rest.near(f.norm(k), f.toks[k].id, nil)
	}
	return f.restHits[k]
}

// found is the best match anchored at one token.
type found struct {
	start   int // first token
	pattern int32
	edits   int
}

// better orders overlapping matches: more content words (a leading article
// does not count: "Ciudad Alta" beats "la ciudad" in "la Ciudad Alta"),
// then exact over fuzzy, then name over alias over derived, then fewer
// edits, then the earlier one.
func (m *Matcher) better(a, b found) bool {
	pa, pb := &m.patterns[a.pattern], &m.patterns[b.pattern]
	switch {
	case pa.weight != pb.weight:
		return pa.weight > pb.weight
	case (a.edits == 0) != (b.edits == 0):
		return a.edits == 0
	case pa.prio != pb.prio:
		return pa.prio < pb.prio
	case a.edits != b.edits:
		return a.edits < b.edits
	}
	return a.start < b.start
}

// finder is the state of one Find.
type finder struct {
	m          *Matcher
	toks       []tok
	norms      string     // the normalised tokens, concatenated
	near       []fuzzyHit // anchors near a token
	cands      []int32    // patterns that may match at a token
	stack      []trieStep
	restHits   [][]fuzzyHit // token → words after anchors near it
	restDone   []bool
	best       int32 // pattern, -1 if none yet
	bestWeight int
	bestEdits  int
}

func (f *finder) norm(i int) string { return f.norms[f.toks[i].ns:f.toks[i].ne] }

// try matches pattern pi with its anchor at token i, the anchor having
// taken anchorEdits edits, and keeps it if it beats the best so far (as in
// Matcher.better, then the lower entity index).
func (f *finder) try(pi int32, i, anchorEdits int) {
	p := &f.m.patterns[pi]
	start := i - p.anchor
	if p.weight < f.bestWeight || start < 0 || start+len(p.toks) > len(f.toks) || anchorEdits > int(p.budget) {
		return
	}
	if p.contraction {
		if start == 0 {
			return
		}
		if w := f.norm(start - 1); w != "del" && w != "al" {
			return
		}
	}
	edits, ok := f.matchRest(p, start, int(p.budget)-anchorEdits)
	if !ok {
		return
	}
	edits += anchorEdits
	if f.best >= 0 {
		b := &f.m.patterns[f.best]
		switch {
		case p.weight != f.bestWeight:
			if p.weight < f.bestWeight {
				return
			}
		case (edits == 0) != (f.bestEdits == 0):
			if edits > 0 {
				return
			}
		case p.prio != b.prio:
			if p.prio > b.prio {
				return
			}
		case edits != f.bestEdits:
			if edits > f.bestEdits {
				return
			}
		case p.entity >= b.entity:
			return
		}
	}
	f.best, f.bestWeight, f.bestEdits = pi, p.weight, edits
}

// matchRest matches the pattern's tokens other than the anchor against the
// text from token start, with up to budget edits; it returns the edits used.
func (f *finder) matchRest(p *pattern, start, budget int) (int, bool) {
	edits := 0
	for j, want := range p.toks {
		if j == p.anchor || f.toks[start+j].id == want {
			continue
		}
		if !p.fuzzyTok[j] || budget-edits <= 0 {
			return 0, false
		}
		limit := min(budget-edits, tokCap(f.m.wlen[want]))
		d := osa(f.norm(start+j), f.m.words[want], limit)
		if d > limit {
			return 0, false
		}
		edits += d
	}
	return edits, true
}

// near appends to dst the indexed tokens within edit reach of the
// normalised token w (other than w's own id), with their distances.
func (x *fuzzyIndex) near(w string, own int32, dst []fuzzyHit) []fuzzyHit {
	if len(w) < 4 {
		return dst
	}
	n := utf8.RuneCountInString(w)
	mask := letterMask(w)
	if len(x.shortAll) > 0 {
		if d := x.deletions(); d != nil && n == len(w) && len(w) < 64 {
			dst = x.lookup(d, w, n, mask, own, dst)
		} else {
			dst = x.scan(x.short[w[0]], w, n, mask, own, dst)
		}
	}
	if n >= 12 {
		dst = x.scan(x.long[w[0]], w, n, mask, own, dst)
	}
	dst = x.scan(x.odd[w[0]], w, n, mask, own, dst)
	return dst
}

// lookup appends the short entries within one edit of the ASCII token w
// (fewer than 64 bytes, n letters, letterMask mask), in the order scan
// gives: by length, then by id. Those are among the entries that share a
// deletion hash with w (see forDeletions).
func (x *fuzzyIndex) lookup(d *deletions, w string, n int, mask uint32, own int32, dst []fuzzyHit) []fuzzyHit {
	start := len(dst)
	var pre, suf [65]uint64
	for k := 0; k < n; k++ {
		pre[k+1] = pre[k]*hashBase + uint64(w[k])
	}
	for k := n - 1; k >= 0; k-- {
		suf[k] = uint64(w[k])*hashPow[n-1-k] + suf[k+1]
	}
	for k := 0; k < n; k++ {
		h := pre[n] // k == 0: w itself; else w without its k-th letter
		if k > 0 {
			h = pre[k]*hashPow[n-1-k] + suf[k+1]
		}
		b1, b2 := bloomSlots(h)
		if d.bloom[b1/64]&(1<<(b1%64)) == 0 || d.bloom[b2/64]&(1<<(b2%64)) == 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(d.dels, h, func(d delHash, h uint64) int { return cmp.Compare(d.h, h) })
		for ; i < len(d.dels) && d.dels[i].h == h; i++ {
			e := &x.shortAll[d.dels[i].i]
			if e.id == own || e.word[0] != w[0] || e.letters < n-1 || e.letters > n+1 ||
				(mask|e.mask)&(1<<31) == 0 && (bits.OnesCount32(mask&^e.mask) > 1 || bits.OnesCount32(e.mask&^mask) > 1) ||
				slices.ContainsFunc(dst[start:], func(f fuzzyHit) bool { return f.id == e.id }) {
				continue
			}
			if ed := osa(w, e.word, 1); ed <= 1 {
				dst = append(dst, fuzzyHit{e.id, ed, e.letters})
			}
		}
	}
	if len(dst)-start > 1 {
		slices.SortFunc(dst[start:], func(a, b fuzzyHit) int {
			return cmp.Or(cmp.Compare(a.letters, b.letters), cmp.Compare(a.id, b.id))
		})
	}
	return dst
}

// scan appends the entries of list (sorted by length) within edit reach of
// w, which has n letters and the given letterMask.
func (x *fuzzyIndex) scan(list []fuzzyEntry, w string, n int, mask uint32, own int32, dst []fuzzyHit) []fuzzyHit {
	lo := sort.Search(len(list), func(i int) bool { return list[i].letters >= n-2 })
	for _, e := range list[lo:] {
		if e.letters > n+2 {
			break
		}
		d := e.maxEd
		if e.letters < n-d || e.letters > n+d || e.id == own {
			continue
		}
		if (mask|e.mask)&(1<<31) == 0 && (bits.OnesCount32(mask&^e.mask) > d || bits.OnesCount32(e.mask&^mask) > d) {
			continue
		}
		if ed := osa(w, e.word, d); ed <= d {
			dst = append(dst, fuzzyHit{e.id, ed, e.letters})
		}
	}
	return dst
}

// fuzzyHit is an indexed token near a text token.
type fuzzyHit struct {
	id      int32
	edits   int
	letters int
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// osa returns the optimal string alignment distance between a and b (edits:
// insertion, deletion, substitution, transposition of neighbours), or
// limit+1 if it exceeds limit or the first letters differ.
func osa(a, b string, limit int) int {
	if a == b {
		return 0
	}
	if a == "" || b == "" || limit <= 0 {
		return limit + 1
	}
	if isASCIIString(a) && isASCIIString(b) {
		if len(a) < 64 && len(b) < 64 {
			var ra, rb [64]rune
			for i := 0; i < len(a); i++ {
				ra[i] = rune(a[i])
			}
			for i := 0; i < len(b); i++ {
				rb[i] = rune(b[i])
			}
			return osaRunes(ra[:len(a)], rb[:len(b)], limit)
		}
	}
	return osaRunes([]rune(a), []rune(b), limit)
}

func osaRunes(ra, rb []rune, limit int) int {
	if ra[0] != rb[0] {
		return limit + 1
	}
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	var s0, s1, s2 [65]int
	prev2, prev, cur := s0[:], s1[:], s2[:]
	if len(rb) >= 65 {
		prev2, prev, cur = make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	}
	for j := 0; j <= len(rb); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if prev[len(rb)] > limit {
		return limit + 1
	}
	return prev[len(rb)]
}

func sortedIDs(m map[int32]int) []int32 {
	ids := make([]int32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	return ids
}

// letterMask has a bit for each ASCII letter and digit (folded) present in
// w, and bit 31 if w has other characters. Each edit adds at most one bit
// and removes at most one, so two ASCII words within d edits differ by at
// most d bits each way.
func letterMask(w string) uint32 {
	var m uint32
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case 'a' <= c && c <= 'z':
			m |= 1 << (c - 'a')
		case '0' <= c && c <= '9':
			m |= 1 << (26 + (c-'0')%5)
		default:
			m |= 1 << 31
		}
	}
	return m
}
