package compendium

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// candidate is a heuristic name and its evidence.
type candidate struct {
	key      string
	mentions int
	dates    int            // mentions in a date context
	surfaces map[string]int // spellings
	// The notes it is seen in, as far as the sums of its spellings tell:
	// the most notes of one spelling, and the notes of the spellings seen
	// in one note only.
	maxNotes int
	singles  map[uint64]bool
}

// notesAtLeast reports whether the name is seen in m notes or more. It is
// exact for m <= 2 (the default, and what enrich uses); for a larger m, the
// notes of two spellings each seen in several notes are not told apart and
// the count is a lower bound.
func (c *candidate) notesAtLeast(m int) bool {
	return c.maxNotes >= m || len(c.singles) >= m
}

// addHeuristics finds capitalised names in the corpus's sums (see
// BuildWith) and adds those that pass the thresholds as aliases or new
// entities.
func (b *builder) addHeuristics(corp *Corpus) error {
	keep, err := b.passing(corp, countCandidates(corp, b.knownKeys()))
	if err != nil {
		return err
	}
	passing := map[string]bool{}
	for _, c := range keep {
		passing[c.key] = true
	}
	// Longer names first, so that a head word ("Orden") finds the name it
	// begins ("Orden del Alba Quebrada") among the new entities too.
	sort.SliceStable(keep, func(i, j int) bool {
		return len(strings.Fields(keep[i].key)) > len(strings.Fields(keep[j].key))
	})
	r := newResolver(b)
	for _, c := range keep {
		k := stripHonorifics(c.key)
		if r.exact[c.key] != nil || r.exact[k] != nil || k != c.key && passing[k] {
			continue // a known name, or "Maese Corvo" when "Corvo" is a name too
		}
		if e := r.unique(r.stripped[k]); e != nil {
			r.alias(e, bestSurface(c.surfaces, true)) // "Emeric" for "Lord Emeric"
			continue
		}
		if r.stripped[k] != nil {
			continue // ambiguous: leave it to the names it may be
		}
		if e := r.unique(r.person[k]); e != nil && len(r.owners[k]) == 1 {
			r.alias(e, bestSurface(c.surfaces, true)) // "Leoric" for "Leoric Valcárcel"
			continue
		}
		if e := r.unique(r.prefix[k]); e != nil {
			r.alias(e, bestSurface(c.surfaces, true)) // "Orden" for "Orden del Alba Quebrada"
			continue
		}
		b.addLevel(lvHeuristic, []claim{{name: bestSurface(c.surfaces, false), kind: KindOther}})
		if e := b.byName[c.key]; e != nil {
			r.index(e)
		}
	}
	return nil
}

// countCandidates counts the heuristic names of the corpus's sequences:
// known are the names and aliases of the entities so far.
func countCandidates(corp *Corpus, known map[string]bool) map[string]*candidate {
	type occ struct {
		seq  sequence
		stat *NameStat
	}
	occs := make([]occ, 0, len(corp.names))
	for _, st := range corp.names {
		occs = append(occs, occ{st.sequence(corp.norm), st})
	}
	// Pass 1: the names seen not at a sentence start.
	mid := map[string]bool{}
	for _, o := range occs {
		if ws := countable(o.seq, nil, known); ws != nil {
			mid[key(ws)] = true
		}
	}
	// Pass 2: count.
	cands := map[string]*candidate{}
	for _, o := range occs {
		ws := countable(o.seq, mid, known)
		if ws == nil {
			continue
		}
		k := key(ws)
		c := cands[k]
		if c == nil {
			c = &candidate{key: k, surfaces: map[string]int{}}
			cands[k] = c
		}
		n := o.stat.Mentions
		c.mentions += n
		c.maxNotes = max(c.maxNotes, o.stat.Notes)
		if o.stat.Notes == 1 {
			if c.singles == nil {
				c.singles = map[uint64]bool{}
			}
			c.singles[o.stat.IDSum] = true
		}
		c.surfaces[surface(ws)] += n
		if o.seq.dateCtx {
			c.dates += n
		}
	}
	return cands
}

// passing returns the candidates that pass the thresholds, sorted by key.
func (b *builder) passing(corp *Corpus, cands map[string]*candidate) ([]*candidate, error) {
	var keep []*candidate
	var single []string
	for _, c := range cands {
		if c.mentions >= b.cfg.minMentions && c.notesAtLeast(b.cfg.minNotes) && c.dates*3 < c.mentions && goodCandidate(c.key) && !b.ban[c.key] {
			keep = append(keep, c)
			if !strings.Contains(c.key, " ") {
				single = append(single, c.key)
			}
		}
	}
	sort.Strings(single)
	lower, err := corp.lowerCounts(single)
	if err != nil {
		return nil, err
	}
	// A single word written in lowercase at least as often as capitalised
	// is a common noun ("Iglesia" and "iglesia", "Voz").
	keep = slices.DeleteFunc(keep, func(c *candidate) bool {
		return !strings.Contains(c.key, " ") && lower[c.key] >= c.mentions
	})
	sort.Slice(keep, func(i, j int) bool { return keep[i].key < keep[j].key })
	return keep, nil
}

// resolver indexes the live entities for the heuristic names.
type resolver struct {
	b *builder
	// exact: names and aliases, also without a leading article.
	// stripped: the same without leading honorifics ("emeric" for "lord emeric").
	// prefix: leading words of names ("orden" for "orden del alba quebrada").
	// owners: every word of names; person: first and last words of PC and NPC names.
	exact, stripped, prefix, owners, person map[string]map[*ent]bool
}

func newResolver(b *builder) *resolver {
	r := &resolver{b: b, exact: map[string]map[*ent]bool{}, stripped: map[string]map[*ent]bool{},
		prefix: map[string]map[*ent]bool{}, owners: map[string]map[*ent]bool{}, person: map[string]map[*ent]bool{}}
	for _, e := range b.ents {
		if !e.dead {
			r.index(e)
		}
	}
	return r
}

func addTo(m map[string]map[*ent]bool, k string, e *ent) {
	if m[k] == nil {
		m[k] = map[*ent]bool{}
	}
	m[k][e] = true
}

// unique returns the only entity of the set, or nil.
func (r *resolver) unique(set map[*ent]bool) *ent {
	if len(set) != 1 {
		return nil
	}
	for e := range set {
		return e
	}
	return nil
}

func (r *resolver) indexKey(k string, e *ent) {
	a := stripArticle(k)
	addTo(r.exact, k, e)
	addTo(r.exact, a, e)
	if h := stripHonorifics(a); h != a {
		addTo(r.stripped, h, e)
	}
}

func (r *resolver) index(e *ent) {
	r.indexKey(e.key, e)
	for k := range e.aliases {
		r.indexKey(k, e)
	}
	f := strings.Fields(stripHonorifics(stripArticle(e.key)))
	for i, w := range f {
		if !particles[w] && !isStop(w) {
			addTo(r.owners, w, e)
		}
		if i > 0 && !particles[f[i-1]] {
			addTo(r.prefix, strings.Join(f[:i], " "), e)
		}
	}
	if (e.kind == KindPC || e.kind == KindNPC) && len(f) > 1 {
		for _, w := range []string{f[0], f[len(f)-1]} {
			if !particles[w] && !isStop(w) && !honorifics[w] {
				addTo(r.person, w, e)
			}
		}
	}
}

func (r *resolver) alias(e *ent, name string) {
	r.b.addAlias(e, name, lvHeuristic)
	r.indexKey(Normalize(name), e)
}

// countable returns the words of a sequence that make a countable mention,
// or nil. At a sentence start the whole sequence counts only if mid (the
// names seen elsewhere not at a sentence start; nil in pass 1) has it;
// otherwise its first word is dropped. "Ciudad Alta de Caldemora", where
// "Caldemora" is a known entity, counts as "Ciudad Alta".
func countable(s sequence, mid map[string]bool, known map[string]bool) []word {
	ws := s.words
	if s.start && (mid == nil || !mid[key(ws)]) {
		ws = ws[1:]
		for len(ws) > 0 && (particles[ws[0].norm] || isStop(ws[0].norm)) {
			ws = ws[1:]
		}
	}
	if len(ws) == 0 {
		return nil
	}
	if !known[key(ws)] {
		for i := 1; i < len(ws)-1; i++ {
			if ws[i].particle && !ws[i-1].particle {
				j := i
				for j < len(ws) && ws[j].particle {
					j++
				}
				if j < len(ws) && known[key(ws[j:])] {
					return ws[:i]
				}
			}
		}
	}
	return ws
}

// goodCandidate rejects names that are never entities (see BuildWith).
func goodCandidate(k string) bool {
	if junkName(k) {
		return false
	}
	f := strings.Fields(k)
	if len(f) == 1 && (utf8.RuneCountInString(f[0]) < 3 || sessionWords[f[0]] || isStop(f[0])) {
		return false
	}
	return true
}

// bestSurface returns the most frequent spelling (ties: the first in byte
// order), without leading honorifics if strip is set.
func bestSurface(surfaces map[string]int, strip bool) string {
	best, n := "", -1
	for _, s := range sortedKeys(surfaces) {
		if surfaces[s] > n {
			best, n = s, surfaces[s]
		}
	}
	if strip {
		f := strings.Fields(best)
		for len(f) > 1 && honorifics[Normalize(f[0])] {
			f = f[1:]
		}
		best = strings.Join(f, " ")
	}
	return best
}

// stripHonorifics drops the leading honorifics of a normalised name
// ("maese odalric pardal" → "odalric pardal"); a name that is only
// honorifics is returned as is.
func stripHonorifics(k string) string {
	f := strings.Fields(k)
	i := 0
	for i < len(f)-1 && honorifics[f[i]] {
		i++
	}
	return strings.Join(f[i:], " ")
}

// stripArticle drops a leading article from a normalised name.
func stripArticle(k string) string {
	if f := strings.Fields(k); len(f) > 1 && articles[f[0]] {
		return strings.Join(f[1:], " ")
	}
	return k
}

// knownKeys are the normalised names and aliases of the live entities, with
// and without a leading article and leading honorifics.
func (b *builder) knownKeys() map[string]bool {
	known := map[string]bool{}
	add := func(k string) {
		known[k] = true
		known[stripArticle(k)] = true
		known[stripHonorifics(stripArticle(k))] = true
	}
	for _, e := range b.ents {
		if e.dead {
			continue
		}
		add(e.key)
		for k := range e.aliases {
			add(k)
		}
	}
	return known
}
