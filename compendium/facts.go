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

// sequence returns the stat's name sequence as the heuristics read it.
func (s *NameStat) sequence(norm func(string) string) sequence {
	parts := strings.Split(s.Surface, " ")
	ws := make([]word, len(parts))
	for j, p := range parts {
		ws[j] = word{text: p, norm: norm(p), particle: particles[p]}
	}
	return sequence{words: ws, start: s.Start, dateCtx: s.Date}
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

// NameStat is what a set of notes says of one capitalised sequence (a
// NameFact without its count): how often it is written, in how many notes,
// and the sum of those notes' ids, which is the note's id when there is
// one. Stats add and subtract: a corpus's is the sum of its notes' (see
// Facts.NameStats), so a caller may keep the sum and, when a note changes,
// take its old stats away and add its new ones.
type NameStat struct {
	Surface         string
	Start, Date     bool
	Mentions, Notes int
	IDSum           uint64
}

// NameStats returns the facts' names as the stats of one note whose id is
// id (any number that no other note of the corpus has).
func (f *Facts) NameStats(id uint64) []NameStat {
	out := make([]NameStat, len(f.Names))
	for i, n := range f.Names {
		out[i] = NameStat{Surface: n.Surface, Start: n.Start, Date: n.Date, Mentions: n.Count, Notes: 1, IDSum: id}
	}
	return out
}

// nameKey is a NameStat's identity.
type nameKey struct {
	surface     string
	start, date bool
}

// Corpus gathers the notes a compendium is built from, one at a time, so
// that a caller need not hold every note's text: each note's links and
// headings are kept, its capitalised names and lowercase words only as
// sums over the notes. A caller that keeps those sums itself feeds them
// with AddNote, AddNames and LowerFrom instead of Add.
type Corpus struct {
	cfg   *settings
	notes []NoteInput
	facts []*Facts // links and headings
	names map[nameKey]*NameStat
	lower map[string]int
	// lowerOf, when set, gives the lowercase counts of the words asked.
	lowerOf func(words []string) (map[string]int, error)
	// norms caches Normalize for the words of names.
	norms map[string]string
}

// NewCorpus starts an empty corpus for cfg. The error reports an invalid
// configuration.
func NewCorpus(cfg Config) (*Corpus, error) {
	c, err := newSettings(cfg)
	if err != nil {
		return nil, err
	}
	return &Corpus{cfg: c, names: map[nameKey]*NameStat{}, lower: map[string]int{}, norms: map[string]string{}}, nil
}

// Add adds a note with its facts (nil: read from in.Text). The note's
// text is not kept; its names and lowercase words are added to the
// corpus's sums, the note's id being its rank in the corpus.
func (c *Corpus) Add(in NoteInput, f *Facts) {
	if f == nil {
		f = Extract(in.Text)
	}
	if skippedPath(in.Path, c.cfg) {
		return
	}
	c.AddNote(in, f)
	c.AddNames(f.NameStats(uint64(len(c.notes))))
	for k, n := range f.Lower {
		c.lower[k] += n
	}
}

// AddNote adds a note with its links and headings, not its names nor its
// lowercase words (see AddNames, LowerFrom); f may be nil when the note
// has neither links nor headings that the build reads (ReadsHeadings). A
// note under a SkipFolders folder is left out.
func (c *Corpus) AddNote(in NoteInput, f *Facts) {
	in.Text = ""
	if skippedPath(in.Path, c.cfg) {
		return
	}
	var kept Facts
	if f != nil {
		kept = Facts{Links: f.Links, Headings: f.Headings}
	}
	c.notes = append(c.notes, in)
	c.facts = append(c.facts, &kept)
}

// ReadsHeadings reports whether the build reads the headings of the note:
// those of a collection note or of a note in an entity folder or with a
// kind tag. Every other note's headings may be left out of AddNote.
func (c *Corpus) ReadsHeadings(in NoteInput) bool {
	v := &vault{cfg: c.cfg}
	n := v.noteInfo(in, nil)
	return n.collection != "" || n.kind != ""
}

// AddNames adds the stats of names to the corpus's (a negative count
// takes a note's away). A name whose notes reach zero is dropped.
func (c *Corpus) AddNames(stats []NameStat) {
	for _, s := range stats {
		k := nameKey{s.Surface, s.Start, s.Date}
		t := c.names[k]
		if t == nil {
			t = &NameStat{Surface: s.Surface, Start: s.Start, Date: s.Date}
			c.names[k] = t
		}
		t.Mentions += s.Mentions
		t.Notes += s.Notes
		t.IDSum += s.IDSum
		if t.Notes <= 0 {
			delete(c.names, k)
		}
	}
}

// AddLower adds the lowercase words of a note added without them
// (MarshalLower's encoding).
func (c *Corpus) AddLower(data []byte) error {
	return eachLower(data, func(w []byte, n int) { c.lower[string(w)] += n })
}

// UnmarshalLower decodes what MarshalLower encoded.
func UnmarshalLower(data []byte) (map[string]int, error) {
	m := map[string]int{}
	err := eachLower(data, func(w []byte, n int) { m[string(w)] += n })
	return m, err
}

// eachLower calls fn with each word and count of MarshalLower's encoding.
func eachLower(data []byte, fn func(word []byte, n int)) error {
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
		fn(word, int(v))
	}
	return nil
}

// LowerFrom sets where the build reads the lowercase counts of the words
// it needs (a few of the names' words), added to those added here: for a
// caller that keeps the corpus's lowercase counts itself.
func (c *Corpus) LowerFrom(fn func(words []string) (map[string]int, error)) {
	c.lowerOf = fn
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

// lowerCounts returns the lowercase counts of words.
func (c *Corpus) lowerCounts(words []string) (map[string]int, error) {
	out := make(map[string]int, len(words))
	for _, w := range words {
		if n := c.lower[w]; n != 0 {
			out[w] = n
		}
	}
	if c.lowerOf == nil || len(words) == 0 {
		return out, nil
	}
	more, err := c.lowerOf(words)
	for w, n := range more {
		out[w] += n
	}
	return out, err
}

// Build extracts the compendium from the corpus, the user's file (may be
// nil) and extra entities, as BuildWith does from the notes' texts.
func (c *Corpus) Build(file *File, extra ...[]Entity) ([]Entity, error) {
	return build(c, file, extra)
}
