package compendium

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

var matchEntities = []Entity{
	0:  {Name: "Nix", Aliases: []string{"la Urraca"}},
	1:  {Name: "Ana"},
	2:  {Name: "Ciénaga de Murgo", Aliases: []string{"Murgo"}},
	3:  {Name: "Torre de Sal de Ezkarra", Aliases: []string{"Torre de Sal"}},
	4:  {Name: "Ezkarra"},
	5:  {Name: "Valcárcel"},
	6:  {Name: "Emeric Valcárcel", Aliases: []string{"Lord Emeric"}},
	7:  {Name: "Vesper Quillon", Aliases: []string{"el Farolero"}},
	8:  {Name: "Ciriela Vos", Aliases: []string{"la Dama Velada"}},
	9:  {Name: "Kael-Dur"},
	10: {Name: "Peñaurora"},
	11: {Name: "La Boca de Ozrún", Aliases: []string{"las siete voces"}},
	12: {Name: "Tresdedos"},
	13: {Name: "Ysolde Marrain", Aliases: []string{"Ysolde"}},
	14: {Name: "Caldemora", Aliases: []string{"la ciudad"}},
	15: {Name: "Ciudad Alta"},
	16: {Name: "Muelles", Aliases: []string{"la Torre"}},
}

// TestMatcherFind: the matcher's cases are in testdata/find
// (TestMatcherScenarios); here, those a text file would not keep as they
// are written (an accent as a combining mark).
func TestMatcherFind(t *testing.T) {
	m := NewMatcher(matchEntities)
	for _, c := range []struct {
		name, text string
		want       []string // "entity:surface", "~" prefix for fuzzy
	}{
		{"decomposed accents", "Cie\u0301naga de Murgo", []string{"2:Cie\u0301naga de Murgo"}},
	} {
		got := m.Find(c.text)
		var gs []string
		for _, x := range got {
			if x.Surface != c.text[x.Start:x.End] {
				t.Errorf("%s: surface %q != text[%d:%d] %q", c.name, x.Surface, x.Start, x.End, c.text[x.Start:x.End])
			}
			f := ""
			if x.Fuzzy {
				f = "~"
			}
			gs = append(gs, fmt.Sprintf("%d:%s%s", x.Entity, f, x.Surface))
		}
		if strings.Join(gs, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: Find(%q)\n got %q\nwant %q", c.name, c.text, gs, c.want)
		}
	}
}

func TestMatcherOffsetsMultibyte(t *testing.T) {
	m := NewMatcher(matchEntities)
	text := "¡Ñandú! «Ciénaga de Murgo» — 🐉 Peñaurora… Valcársel"
	got := m.Find(text)
	want := []struct {
		entity  int
		surface string
		fuzzy   bool
	}{{2, "Ciénaga de Murgo", false}, {10, "Peñaurora", false}, {5, "Valcársel", true}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Entity != w.entity || g.Surface != w.surface || g.Fuzzy != w.fuzzy || text[g.Start:g.End] != w.surface {
			t.Errorf("mention %d: got %+v, want %+v", i, g, w)
		}
	}
	if i := strings.Index(text, "Ciénaga"); got[0].Start != i || got[0].End != i+len("Ciénaga de Murgo") {
		t.Errorf("offsets %d-%d, want %d-%d", got[0].Start, got[0].End, i, i+len("Ciénaga de Murgo"))
	}
}

func TestMatcherEdgeCases(t *testing.T) {
	if got := NewMatcher(nil).Find("Nix"); got != nil {
		t.Errorf("no entities: %v", got)
	}
	m := NewMatcher([]Entity{{Name: ""}, {Name: "¿?"}, {Name: "Nix"}, {Name: "Nix", Aliases: []string{"Nix"}}})
	if got := m.Find("Nix"); len(got) != 1 || got[0].Entity != 2 {
		t.Errorf("duplicates: %+v", got)
	}
	if got := m.Find(""); got != nil {
		t.Errorf("empty text: %v", got)
	}
	// An alias that is another entity's name goes to that entity.
	m = NewMatcher([]Entity{{Name: "Harbin", Aliases: []string{"Ezkarra"}}, {Name: "Ezkarra"}})
	if got := m.Find("Ezkarra"); len(got) != 1 || got[0].Entity != 1 {
		t.Errorf("name over alias: %+v", got)
	}
}

func TestOSA(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"valcarcel", "valcarcel", 1, 0},
		{"valcarsel", "valcarcel", 1, 1},
		{"valcracel", "valcarcel", 1, 1},
		{"valcarce", "valcarcel", 1, 1},
		{"valcarceles", "valcarcel", 2, 2},
		{"valcarceles", "valcarcel", 1, 2},
		{"balcarcel", "valcarcel", 2, 3},
		{"μορβαεν", "μορβαιν", 1, 1},
	} {
		if got := osa(c.a, c.b, c.limit); got != c.want {
			t.Errorf("osa(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}

// bruteBestAt is how Find chose the best match at a token before the
// trie: every pattern of the token's anchor, and of each anchor within
// reach, in rank order. The trie must choose the same.
func bruteBestAt(m *Matcher) func(f *finder, i int) {
	byAnchor := map[int32][]int32{}
	for pi := range m.patterns {
		p := &m.patterns[pi]
		byAnchor[p.toks[p.anchor]] = append(byAnchor[p.toks[p.anchor]], int32(pi))
	}
	for _, list := range byAnchor {
		slices.SortFunc(list, func(a, b int32) int { return int(m.rank[a] - m.rank[b]) })
	}
	return func(f *finder, i int) { bruteBest(f, i, byAnchor) }
}

func bruteBest(f *finder, i int, byAnchor map[int32][]int32) {
	m := f.m
	f.best, f.bestWeight, f.bestEdits = -1, 0, 0
	if id := f.toks[i].id; id >= 0 {
		for _, pi := range byAnchor[id] {
			f.try(pi, i, 0)
		}
	}
	if len(f.norm(i)) >= 64 {
		return
	}
	for _, c := range m.anchors.near(f.norm(i), f.toks[i].id, nil) {
		for _, pi := range byAnchor[c.id] {
			if p := &m.patterns[pi]; p.fuzzyTok[p.anchor] {
				f.try(pi, i, c.edits)
			}
		}
	}
}

// TestMatcherSameAsBrute compares Find with a search that tries every
// pattern of an anchor, on random compendiums whose names share words
// (as an index note's "Sesión 1" … "Sesión 500" do) and texts that mention
// them with typos, accents, articles and contractions.
func TestMatcherSameAsBrute(t *testing.T) {
	defaultTrieMin := trieMin
	defer func() { trieMin = defaultTrieMin }()
	mentions, fuzzy, fuzzyMulti := 0, 0, 0
	syll := []string{"ka", "ter", "in", "mor", "val", "dor", "es", "ran", "thu", "li", "ñu", "gar", "sol", "mí", "rak", "zo"}
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		word := func() string {
			var b strings.Builder
			for range 1 + r.IntN(6) {
				b.WriteString(syll[r.IntN(len(syll))])
			}
			if r.IntN(40) == 0 {
				b.WriteString(strings.Repeat("x", 60)) // a token of 64+ bytes
			}
			if r.IntN(3) > 0 {
				return strings.ToUpper(b.String()[:1]) + b.String()[1:]
			}
			return b.String()
		}
		shared := []string{"Casa", "Sesión", "la", "el", "Valcárcel", "de"}
		name := func() string {
			var ws []string
			for range 1 + r.IntN(4) {
				if r.IntN(2) == 0 {
					ws = append(ws, shared[r.IntN(len(shared))])
				} else {
					ws = append(ws, word())
				}
			}
			return strings.Join(ws, " ")
		}
		var ents []Entity
		var names []string
		for range 5 + r.IntN(60) {
			e := Entity{Name: name()}
			names = append(names, e.Name)
			for range r.IntN(3) {
				e.Aliases = append(e.Aliases, name())
				names = append(names, e.Aliases[len(e.Aliases)-1])
			}
			ents = append(ents, e)
		}
		typo := func(s string) string {
			rs := []rune(s)
			if len(rs) < 3 {
				return s
			}
			k := 1 + r.IntN(len(rs)-1)
			switch r.IntN(4) {
			case 0:
				rs[k] = rune(syll[r.IntN(len(syll))][0])
			case 1:
				rs = append(rs[:k], rs[k+1:]...)
			case 2:
				rs = slices.Insert(rs, k, 'e')
			default:
				if k+1 < len(rs) {
					rs[k], rs[k+1] = rs[k+1], rs[k]
				}
			}
			return string(rs)
		}
		var b strings.Builder
		for range 200 {
			switch r.IntN(6) {
			case 0, 1:
				n := names[r.IntN(len(names))]
				for r.IntN(3) == 0 {
					n = typo(n)
				}
				if r.IntN(4) == 0 {
					n = []string{"del ", "al ", "la ", "[["}[r.IntN(4)] + n
				}
				b.WriteString(n)
			case 2:
				b.WriteString(word())
			default:
				b.WriteString(shared[r.IntN(len(shared))])
			}
			b.WriteString([]string{" ", " ", ", ", ". ", "]] "}[r.IntN(5)])
		}
		text := b.String()
		// Every anchor's patterns in the trie, and only the large groups'.
		trieMin = 0
		m := NewMatcher(ents)
		trieMin = defaultTrieMin
		got, want := m.Find(text), m.find(text, bruteBestAt(m))
		if got2 := NewMatcher(ents).Find(text); !slices.Equal(got2, want) {
			t.Fatalf("seed %d: Find with the trie for large groups only differs from trying every pattern\nentities %q\ntext %q\n got %v\nwant %v", seed, ents, text, got2, want)
		}
		mentions += len(want)
		for _, x := range want {
			if x.Fuzzy {
				fuzzy++
				if len(strings.Fields(x.Surface)) > 1 {
					fuzzyMulti++
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: Find differs from trying every pattern\nentities %q\ntext %q\n got %v\nwant %v", seed, ents, text, got, want)
		}
	}
	// Enough of each kind that a difference would show.
	if mentions < 10000 || fuzzy < 500 || fuzzyMulti < 100 {
		t.Fatalf("%d mentions, %d fuzzy, %d fuzzy of several words: too few to compare", mentions, fuzzy, fuzzyMulti)
	}
	t.Logf("%d mentions, %d fuzzy, %d fuzzy of several words", mentions, fuzzy, fuzzyMulti)
}

// TestFuzzyIndexLookupSameAsScan compares the tokens near a word found by
// its deletion hashes with those a pass over its bucket finds, order
// included, on many names that share their first letters and lengths.
func TestFuzzyIndexLookupSameAsScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	letters := "aeiourstlnmkv"
	word := func(n int) string {
		b := []byte{"KV"[r.IntN(2)]}
		for range n - 1 {
			b = append(b, letters[r.IntN(len(letters))])
		}
		return string(b)
	}
	var ents []Entity
	var words []string
	for i := range 3000 {
		w := word(5 + r.IntN(9))
		words = append(words, w)
		ents = append(ents, Entity{Name: fmt.Sprintf("Casa %s", w)}) // a word after the anchor
		if i%2 == 0 {
			ents = append(ents, Entity{Name: w}) // an anchor
		}
	}
	m := NewMatcher(ents)
	defer func(n int64) { lazyDeletions = n }(lazyDeletions)
	lazyDeletions = 0 // near looks the deletions up at once
	compared, found := 0, 0
	for _, x := range []*fuzzyIndex{&m.anchors, &m.rest} {
		if d := x.deletions(); d == nil || len(d.dels) == 0 {
			t.Fatal("no short token indexed: the test compares nothing")
		}
		for i := range 20000 {
			w := words[r.IntN(len(words))]
			rs := []byte(w)
			switch k := 1 + r.IntN(len(rs)-1); i % 4 {
			case 0:
				rs[k] = letters[r.IntN(len(letters))]
			case 1:
				rs = append(rs[:k:k], rs[k+1:]...)
			case 2:
				rs = slices.Insert(rs, k, letters[r.IntN(len(letters))])
			}
			tok := Normalize(string(rs))
			id, ok := m.vocab[tok]
			if !ok {
				id = -1
			}
			got := x.near(tok, id, nil)
			n, mask := len(tok), letterMask(tok)
			want := x.scan(x.short[tok[0]], tok, n, mask, id, nil)
			if n >= 12 {
				want = x.scan(x.long[tok[0]], tok, n, mask, id, want)
			}
			want = x.scan(x.odd[tok[0]], tok, n, mask, id, want)
			if !slices.Equal(got, want) {
				t.Fatalf("near(%q) = %v, a pass over the bucket finds %v", tok, got, want)
			}
			compared++
			found += len(want)
		}
	}
	if found < compared/4 {
		t.Fatalf("%d tokens near %d words: too few to compare", found, compared)
	}
}

// TestFindSameWithAndWithoutDeletions: a matcher finds the same mentions,
// fuzzy ones included, while it compares tokens with their buckets and
// once it has hashed their deletions.
func TestFindSameWithAndWithoutDeletions(t *testing.T) {
	ents := []Entity{{Name: "Valcárcel"}, {Name: "Casa Valdemoro"}, {Name: "Torre de Ezkarra"}, {Name: "Archiduque Feredal"}, {Name: "Kaelthas"}}
	text := "Valcarsel llegó a la Casa Valdemoros con el Archiduque Ferdal; Kaeltas y la Torre de Ezkara esperaban."
	defer func(n int64) { lazyDeletions = n }(lazyDeletions)
	lazyDeletions = 1 << 40
	lazy := NewMatcher(ents)
	before := lazy.Find(text)
	if lazy.anchors.built.Load() != nil {
		t.Fatal("the deletions were hashed for one sentence")
	}
	lazyDeletions = 0
	after := lazy.Find(text)
	if lazy.anchors.built.Load() == nil {
		t.Fatal("the deletions were not hashed")
	}
	fuzzy := 0
	for _, m := range before {
		if m.Fuzzy {
			fuzzy++
		}
	}
	if fuzzy < 3 || !slices.Equal(before, after) {
		t.Errorf("without the deletions %+v (%d fuzzy), with them %+v", before, fuzzy, after)
	}
}
