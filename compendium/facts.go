package compendium

import (
	"encoding/binary"
	"errors"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Facts is what Build reads from one note's text, whatever the other notes
// say: its wikilinks, its headings, its capitalised word sequences and the
// words it writes in lowercase. A caller that keeps the facts of each note
// (MarshalBinary, and MarshalLower for the lowercase words, which are most
// of the bytes and are read only for the names that need them) need not
// read an unchanged note again: a Corpus of facts builds the same
// compendium as the notes' texts.
type Facts struct {
	// Links are the wikilinks outside code, embeds and empty targets
	// left out, in order.
	Links []Wikilink
	// Headings are the "##" and "###" headings, in order.
	Headings []HeadingFact
	// Names are the distinct capitalised sequences (see lineSequences),
	// with how often each was seen, sorted.
	Names []NameFact
	// Lower counts, by normalised form, the words written starting with
	// a lowercase letter, those that can never be a name left out.
	Lower map[string]int
}

// HeadingFact is one heading of a note.
type HeadingFact struct {
	Level int
	Text  string
}

// NameFact is one capitalised sequence: its words as written, joined by
// single spaces, whether it starts a sentence, whether it was in a date.
type NameFact struct {
	Surface     string
	Start, Date bool
	Count       int
}

// Extract reads the facts of a note's body (Markdown, front matter
// removed).
func Extract(body string) *Facts {
	f := &Facts{Lower: map[string]int{}}
	code := stripCode(body)
	names := map[NameFact]int{}
	for _, line := range strings.Split(code, "\n") {
		scanWikilinks(line, func(l Wikilink, _, _ int) {
			if !l.Embed && l.Target != "" {
				f.Links = append(f.Links, l)
			}
		})
		for _, s := range lineSequences(lineWords(cleanLine(line))) {
			names[NameFact{Surface: surface(s.words), Start: s.start, Date: s.dateCtx}]++
		}
	}
	for _, h := range headings(code) {
		if h.level == 2 || h.level == 3 {
			f.Headings = append(f.Headings, HeadingFact{Level: h.level, Text: h.text})
		}
	}
	for k, n := range names {
		k.Count = n
		f.Names = append(f.Names, k)
	}
	sort.Slice(f.Names, func(i, j int) bool {
		a, b := f.Names[i], f.Names[j]
		if a.Surface != b.Surface {
			return a.Surface < b.Surface
		}
		if a.Start != b.Start {
			return !a.Start
		}
		return !a.Date && b.Date
	})
	raw := map[string]int{}
	for _, w := range strings.FieldsFunc(code, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsLower(r) {
			raw[w]++
		}
	}
	for w, n := range raw {
		// Only a word that may be a heuristic name is ever looked up.
		if k := Normalize(w); mayBeName(k) {
			f.Lower[k] += n
		}
	}
	return f
}

// mayBeName reports whether a normalised word may be a heuristic name
// alone: goodCandidate for one word, without a space.
func mayBeName(k string) bool {
	if strings.Contains(k, " ") || utf8.RuneCountInString(k) < 3 {
		return false
	}
	return !isStop(k) && !particles[k] && !isNumber(k) && !sessionWords[k] && !calendarWords[k] && !honorifics[k]
}

// sequences returns the facts' name sequences as the heuristics read them.
func (f *Facts) sequences(norm func(string) string) []countedSeq {
	out := make([]countedSeq, len(f.Names))
	for i, n := range f.Names {
		parts := strings.Split(n.Surface, " ")
		ws := make([]word, len(parts))
		for j, p := range parts {
			ws[j] = word{text: p, norm: norm(p), particle: particles[p]}
		}
		out[i] = countedSeq{sequence{words: ws, start: n.Start, dateCtx: n.Date}, n.Count}
	}
	return out
}

// countedSeq is a sequence seen n times in a note.
type countedSeq struct {
	seq sequence
	n   int
}

// factsVersion is the first byte of MarshalBinary's encoding.
const factsVersion = 1

// MarshalBinary encodes the facts compactly but for the lowercase words
// (see MarshalLower).
func (f *Facts) MarshalBinary() ([]byte, error) {
	b := []byte{factsVersion}
	b = binary.AppendUvarint(b, uint64(len(f.Links)))
	for _, l := range f.Links {
		b = appendStr(b, l.Target)
		b = appendStr(b, l.Heading)
		b = appendStr(b, l.Block)
		b = appendStr(b, l.Display)
	}
	b = binary.AppendUvarint(b, uint64(len(f.Headings)))
	for _, h := range f.Headings {
		b = binary.AppendUvarint(b, uint64(h.Level))
		b = appendStr(b, h.Text)
	}
	b = binary.AppendUvarint(b, uint64(len(f.Names)))
	for _, n := range f.Names {
		b = appendStr(b, n.Surface)
		flags := uint64(n.Count) << 2
		if n.Start {
			flags |= 1
		}
		if n.Date {
			flags |= 2
		}
		b = binary.AppendUvarint(b, flags)
	}
	return b, nil
}

// MarshalLower encodes the facts' lowercase words, for AddLower.
func (f *Facts) MarshalLower() []byte {
	var b []byte
	for _, k := range sortedKeys(f.Lower) {
		b = appendStr(b, k)
		b = binary.AppendUvarint(b, uint64(f.Lower[k]))
	}
	return b
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errFacts = errors.New("compendium: malformed note facts")

// UnmarshalBinary decodes what MarshalBinary encoded (Lower stays nil).
func (f *Facts) UnmarshalBinary(data []byte) error {
	d := decoder{b: data}
	if len(data) == 0 || data[0] != factsVersion {
		return errFacts
	}
	d.b = d.b[1:]
	*f = Facts{}
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		f.Links = append(f.Links, Wikilink{Target: d.str(), Heading: d.str(), Block: d.str(), Display: d.str()})
	}
	n = d.count()
	for i := 0; i < n && d.err == nil; i++ {
		lv := int(d.uint())
		f.Headings = append(f.Headings, HeadingFact{Level: lv, Text: d.str()})
	}
	n = d.count()
	if n > 0 {
		f.Names = make([]NameFact, 0, n)
	}
	for i := 0; i < n && d.err == nil; i++ {
		s := d.str()
		flags := d.uint()
		f.Names = append(f.Names, NameFact{Surface: s, Start: flags&1 != 0, Date: flags&2 != 0, Count: int(flags >> 2)})
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errFacts
	}
	return d.err
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errFacts
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length that the remaining bytes can hold.
func (d *decoder) count() int {
	v := d.uint()
	if v > uint64(len(d.b)) {
		d.err = errFacts
		return 0
	}
	return int(v)
}

func (d *decoder) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// Corpus gathers the notes a compendium is built from, one at a time, so
// that a caller need not hold every note's text: each note's facts are
// kept, its lowercase words only as a sum over the notes.
type Corpus struct {
	cfg   *settings
	notes []NoteInput
	facts []*Facts
	lower map[string]int
	// norms caches Normalize for the words of names.
	norms map[string]string
	// need holds the words of names: the only lowercase words that are
	// ever looked up (nil until AddLower).
	need map[string]*int
}

// NewCorpus starts an empty corpus for cfg. The error reports an invalid
// configuration.
func NewCorpus(cfg Config) (*Corpus, error) {
	c, err := newSettings(cfg)
	if err != nil {
		return nil, err
	}
	return &Corpus{cfg: c, lower: map[string]int{}, norms: map[string]string{}}, nil
}

// Add adds a note with its facts (nil: read from in.Text). The note's
// text is not kept; its facts' lowercase words, if any, are added to the
// corpus's counts. Every Add comes before any AddLower.
func (c *Corpus) Add(in NoteInput, f *Facts) {
	if f == nil {
		f = Extract(in.Text)
	}
	in.Text = ""
	if skippedPath(in.Path, c.cfg) {
		return
	}
	for k, n := range f.Lower {
		c.lower[k] += n
	}
	f = &Facts{Links: f.Links, Headings: f.Headings, Names: f.Names}
	c.notes = append(c.notes, in)
	c.facts = append(c.facts, f)
}

// AddLower adds the lowercase words of a note added without them
// (MarshalLower's encoding). Only the words that occur in the corpus's
// names are counted: no other is ever looked up.
func (c *Corpus) AddLower(data []byte) error {
	if c.need == nil {
		c.need = map[string]*int{}
		for _, f := range c.facts {
			for _, n := range f.Names {
				for _, w := range strings.Split(n.Surface, " ") {
					if k := c.norm(w); c.need[k] == nil {
						c.need[k] = new(int)
					}
				}
			}
		}
	}
	for len(data) > 0 {
		l, n := binary.Uvarint(data)
		if n <= 0 || l > uint64(len(data)-n) {
			return errFacts
		}
		word := data[n : n+int(l)]
		data = data[n+int(l):]
		v, n := binary.Uvarint(data)
		if n <= 0 {
			return errFacts
		}
		data = data[n:]
		if p := c.need[string(word)]; p != nil {
			*p += int(v)
		}
	}
	return nil
}

// norm is Normalize, cached.
func (c *Corpus) norm(w string) string {
	k, ok := c.norms[w]
	if !ok {
		k = Normalize(w)
		c.norms[w] = k
	}
	return k
}

// lowerCounts returns the lowercase words counted.
func (c *Corpus) lowerCounts() map[string]int {
	for k, p := range c.need {
		if *p > 0 {
			c.lower[k] += *p
		}
	}
	c.need = nil
	return c.lower
}

// Build extracts the compendium from the corpus, the user's file (may be
// nil) and extra entities, as BuildWith does from the notes' texts.
func (c *Corpus) Build(file *File, extra ...[]Entity) ([]Entity, error) {
	return build(c, file, extra)
}
