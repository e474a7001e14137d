package answer

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	txt "github.com/oraculo/oraculo/text"
)

// Citation is one label cited in an answer.
type Citation struct {
	// Label is the label as the answer wrote it.
	Label string `json:"label"`
	// Evidence is the id of the delivered item the label names, or nil.
	Evidence *int64 `json:"evidence"`
	// Kind is the kind of that item: KindFull or KindSummary.
	Kind string `json:"kind,omitempty"`
	// Delivered reports that the label names an item of the Context.
	Delivered bool `json:"delivered"`
	// Valid reports that the citation stays in the verified text. Today it
	// is the same as Delivered; it is kept apart so that a stricter check
	// can reject a delivered citation without changing the JSON.
	Valid bool `json:"valid"`
}

// Verification is the outcome of [Verify].
type Verification struct {
	// Text is the answer with invalid citations removed (and the spaces
	// around them tidied) and every valid citation rewritten with the exact
	// labels it names: "[" + label + "]", or "[" + label + "; " + label +
	// "]" for a group.
	Text string
	// Citations are all the citations found, in order, valid or not; a
	// group "[a; b]" counts as two.
	Citations []Citation
	// Removed are the invalid citations, in order.
	Removed []Citation
	// Uncited are the sentences of Text that make a claim without citing:
	// headings, fragments of fewer than three words, questions, lines
	// ending in ":" and statements that the notes do not say are not
	// counted.
	Uncited []string
	// Segments are Text cut at its citations: see [Segments].
	Segments []Segment
	// Sentences counts the sentences of Text that claim something (as
	// Uncited counts them) and Supported those with a valid citation; set
	// by [Check].
	Sentences, Supported int
	// claims are the claims of Text, found once for Uncited and the marks.
	claims []claim
}

// Segment is one part of a text: plain text, or one citation group.
type Segment struct {
	// Text is the part as written, brackets included for a citation.
	Text string
	// Citations are the labels of a citation group, in order, each
	// resolved as Verify resolves it; nil for plain text.
	Citations []Citation
	// Supported is false for the text of a sentence that claims without a
	// valid citation (see [Check]); nil otherwise.
	Supported *bool
	// Mark is [MarkUnsupported] for the mark [Check] put after such a
	// sentence; "" for text the answer wrote.
	Mark string
}

// Verify checks the citations of an answer against the evidence it was
// given. A citation is a group in square brackets holding one label, or
// several separated by ";" (or by "," when every part is a label); "[a]
// [b]" is two groups. A label is valid iff it names an item delivered in
// ctx, matched as [Context.Find] does; anything else in brackets that is
// not Markdown syntax is an invalid citation and is removed, whether it is
// a label from an example ("[Sesión 119]"), a number ("[1]") or a word.
// Left alone: links and images ("[x](url)"), task boxes ("[ ]", "[x]"),
// footnotes ("[^1]"), reference definitions ("[x]: https://..."), groups
// without letters or digits ("[…]"), "[sic]", anything inside backticks,
// escaped brackets and brackets that do not close on the same line.
func Verify(text string, ctx Context) Verification {
	idx := newLabelIndex(ctx)
	var v Verification
	var removed []Citation
	text, v.Citations, removed = verifyOnce(text, idx)
	v.Removed = removed
	// Removing a group can close an outer bracket around it ("[a [x] b]");
	// repeat until nothing is removed. Each round removes a "[", so this
	// ends.
	for len(removed) > 0 {
		text, _, removed = verifyOnce(text, idx)
		v.Citations = append(v.Citations, removed...)
		v.Removed = append(v.Removed, removed...)
	}
	v.Text = strings.TrimSpace(text)
	v.claims = claims(v.Text, idx)
	for _, c := range v.claims {
		if !c.supported {
			v.Uncited = append(v.Uncited, c.text)
		}
	}
	v.Segments = segments(v.Text, idx)
	return v
}

// Segments cuts text at its citation groups, found and resolved against
// ctx as [Verify] finds and resolves them: plain text and citations
// alternate, in order, and their Texts joined are text. It is what a
// client needs to show the citations of a verified text without knowing
// the citation rule.
func Segments(text string, ctx Context) []Segment {
	return segments(text, newLabelIndex(ctx))
}

func segments(text string, idx labelIndex) []Segment {
	var out []Segment
	last := 0
	for _, g := range citationGroups(text) {
		if g.start > last {
			out = append(out, Segment{Text: text[last:g.start]})
		}
		seg := Segment{Text: text[g.start:g.end]}
		for _, p := range idx.resolveGroup(g.inner) {
			seg.Citations = append(seg.Citations, p.citation())
		}
		out = append(out, seg)
		last = g.end
	}
	if last < len(text) {
		out = append(out, Segment{Text: text[last:]})
	}
	return out
}

// verifyOnce rewrites the citation groups of text: valid labels in their
// exact form, invalid ones removed.
func verifyOnce(text string, idx labelIndex) (out string, found, removed []Citation) {
	groups := citationGroups(text)
	if len(groups) == 0 {
		return text, nil, nil
	}
	buf := make([]byte, 0, len(text))
	last := 0
	for _, g := range groups {
		var keep []string
		for _, p := range idx.resolveGroup(g.inner) {
			c := p.citation()
			if p.ok {
				if !slices.Contains(keep, p.item.Label) {
					keep = append(keep, p.item.Label)
				}
			} else {
				removed = append(removed, c)
			}
			found = append(found, c)
		}
		buf = append(buf, text[last:g.start]...)
		last = g.end
		if len(keep) > 0 {
			buf = append(buf, '[')
			buf = append(buf, strings.Join(keep, "; ")...)
			buf = append(buf, ']')
			continue
		}
		buf, last = cut(buf, text, last)
	}
	buf = append(buf, text[last:]...)
	return string(buf), found, removed
}

// cut tidies the spaces where a group was removed: buf is the text before
// it and text[after:] the text after it. It returns the new buf and where
// to continue in text.
func cut(buf []byte, text string, after int) ([]byte, int) {
	for len(buf) > 0 && (buf[len(buf)-1] == ' ' || buf[len(buf)-1] == '\t') {
		buf = buf[:len(buf)-1]
	}
	k := after
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	next, _ := utf8.DecodeRuneInString(text[k:])
	prev, _ := utf8.DecodeLastRune(buf)
	space := k > after || (txt.IsWordRune(prev) && txt.IsWordRune(next))
	switch {
	case k >= len(text) || len(buf) == 0:
		space = false
	case next == '\n' || next == '\r' || strings.ContainsRune(".,;:!?)»”…", next):
		space = false
	case prev == '\n' || strings.ContainsRune("(¿¡«“", prev):
		space = false
	}
	if space {
		buf = append(buf, ' ')
	}
	return buf, k
}

// claim is a sentence of a text that claims something: not a heading, a
// fragment of fewer than three words, a question, a line ending in ":"
// nor a statement that the notes do not say.
type claim struct {
	text string
	// supported reports a valid citation in the sentence.
	supported bool
	// start and end are the sentence's bytes in the text, or -1 when it
	// cannot be found there.
	start, end int
}

// claims returns the claims of text, in order.
func claims(text string, idx labelIndex) []claim {
	var out []claim
	at := 0
	for _, s := range sentences(text) {
		if s.heading {
			continue
		}
		start, end := locate(text, s, max(at, s.from))
		if end >= 0 {
			at = end
		}
		cited := false
		rest := s.text
		groups := citationGroups(s.text)
		slices.Reverse(groups) // cut from the end, so that offsets hold
		for _, g := range groups {
			for _, p := range idx.resolveGroup(g.inner) {
				cited = cited || p.ok
			}
			rest = rest[:g.start] + rest[g.end:]
		}
		if letterWords(rest) < 3 {
			continue
		}
		last, _ := utf8.DecodeLastRuneInString(strings.TrimRightFunc(rest, func(r rune) bool {
			return unicode.IsSpace(r) || txt.IsCloser(r)
		}))
		if last == '?' || last == ':' || SaysNotInNotes(rest) {
			continue
		}
		out = append(out, claim{text: s.text, supported: cited, start: start, end: end})
	}
	return out
}

// locate finds sentence s in text, from byte at on and within the lines
// it was read from: the runes of s but white space, in order, list and
// quote markers skipped. It returns -1, -1 when they are not all there.
func locate(text string, s sentence, at int) (start, end int) {
	to := min(s.to, len(text))
	start, i := -1, at
	for _, r := range s.text {
		if unicode.IsSpace(r) {
			continue
		}
		found := false
		for i < to && !found {
			got, size := utf8.DecodeRuneInString(text[i:])
			found = got == r
			if found && start < 0 {
				start = i
			}
			i += size
		}
		if !found {
			return -1, -1
		}
	}
	if start < 0 {
		return -1, -1
	}
	return start, i
}

// Unsupported is the mark that follows a sentence claiming something
// without a valid citation (see [Check]): Spanish when lang is "es",
// English otherwise. It holds no bracket, so that it never reads as a
// citation, and is too short to read as a claim.
func Unsupported(lang string) string {
	if strings.EqualFold(strings.TrimSpace(lang), "es") {
		return "_(sin fuente)_"
	}
	return "_(unsupported)_"
}

// MarkUnsupported is the Mark of a segment that is an [Unsupported] mark.
const MarkUnsupported = "unsupported"

// Check verifies text as [Verify] does and marks every sentence that
// claims something without a valid citation (those in Uncited): the
// sentence becomes a segment of its own, with Supported false, followed
// by a segment holding " " + [Unsupported] in lang, with Mark
// [MarkUnsupported]; the mark is also in Text. Sentences and Supported
// count the claims and those with a valid citation.
//
// Whether a sentence is marked depends only on the sentence, so that
// checking a settled prefix of a streamed answer (see [Settled]) marks
// the start of what checking the whole marks, but for the prefix's last
// sentence, which what follows may yet extend.
func Check(text string, ctx Context, lang string) Verification {
	v := Verify(text, ctx)
	return mark(v, v.claims, lang)
}

// mark puts the marks of the unsupported claims cs into v (see [Check]).
func mark(v Verification, cs []claim, lang string) Verification {
	v.Sentences, v.Supported = len(cs), 0
	var spans [][2]int
	for _, c := range cs {
		if c.supported {
			v.Supported++
		} else if c.start >= 0 {
			spans = append(spans, [2]int{c.start, c.end})
		}
	}
	if len(spans) == 0 {
		return v
	}
	label := " " + Unsupported(lang)
	var b strings.Builder
	segs := make([]Segment, 0, len(v.Segments)+2*len(spans))
	off := 0
	for _, seg := range v.Segments {
		from, to := off, off+len(seg.Text)
		off = to
		if len(seg.Citations) > 0 {
			segs = append(segs, seg)
			b.WriteString(seg.Text)
			continue
		}
		at := from
		for len(spans) > 0 && spans[0][1] <= to {
			sp := spans[0]
			spans = spans[1:]
			if sp[0] < at {
				continue // not within one plain segment: counted, not marked
			}
			if sp[0] > at {
				segs = append(segs, Segment{Text: v.Text[at:sp[0]]})
			}
			no := false
			segs = append(segs, Segment{Text: v.Text[sp[0]:sp[1]], Supported: &no}, Segment{Text: label, Mark: MarkUnsupported})
			b.WriteString(v.Text[at:sp[1]] + label)
			at = sp[1]
		}
		for len(spans) > 0 && spans[0][0] < to {
			spans = spans[1:] // crosses a citation: counted, not marked
		}
		if at < to {
			segs = append(segs, Segment{Text: v.Text[at:to]})
			b.WriteString(v.Text[at:to])
		}
	}
	v.Text, v.Segments, v.claims = b.String(), segs, nil // its offsets were of the text unmarked
	return v
}

// groupKind tells what a bracketed group is.
type groupKind int

const (
	groupCitation groupKind = iota
	groupLink               // [text](url) or ![alt](src)
	groupOther              // Markdown syntax or not a label: left alone
)

// maxGroupBytes bounds what can be a citation: longer bracketed text is
// prose
// (labels made by Assemble are shorter).
const maxGroupBytes = 500

// group is one "[...]" of a text.
type group struct {
	start, end int // text[start] == '[', text[end-1] == ']'
	inner      string
	kind       groupKind
}

// groupAt reads the group that opens at s[i] == '['. ok is false when no
// "]" closes it on the same line before another "[" or maxGroupBytes.
func groupAt(s string, i int) (group, bool) {
	if i >= len(s) || s[i] != '[' {
		return group{}, false
	}
	j := i + 1
	for ; j < len(s) && j-i <= maxGroupBytes; j++ {
		if c := s[j]; c == ']' {
			break
		} else if c == '[' || c == '\n' {
			return group{}, false
		}
	}
	if j >= len(s) || s[j] != ']' {
		return group{}, false
	}
	g := group{start: i, end: j + 1, inner: s[i+1 : j]}
	in := strings.TrimSpace(g.inner)
	switch {
	case g.end < len(s) && s[g.end] == '(':
		g.kind = groupLink
	case in == "" || in == "x" || in == "X" || strings.HasPrefix(in, "^"):
		g.kind = groupOther
	case !strings.ContainsFunc(in, txt.IsWordRune) || strings.EqualFold(in, "sic"):
		g.kind = groupOther
	case isReferenceDefinition(s, i, g.end):
		g.kind = groupOther
	}
	return g, true
}

// isReferenceDefinition reports "[x]: url" at the start of a line.
func isReferenceDefinition(s string, start, end int) bool {
	if start > 0 && s[start-1] != '\n' {
		return false
	}
	rest := s[end:]
	if !strings.HasPrefix(rest, ":") {
		return false
	}
	rest = strings.TrimLeft(rest[1:], " \t")
	for _, p := range []string{"http://", "https://", "<", "/", "#", "www.", "mailto:"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// citationGroups returns the groups of text that are citations, in order,
// skipping code spans and escaped brackets.
func citationGroups(text string) []group {
	var out []group
	for i := 0; i < len(text); {
		switch text[i] {
		case '\\':
			i += 2
		case '`':
			n := 0
			for i+n < len(text) && text[i+n] == '`' {
				n++
			}
			i = skipCode(text, i+n, n)
		case '[':
			g, ok := groupAt(text, i)
			switch {
			case !ok:
				i++
			case g.kind == groupCitation:
				out = append(out, g)
				i = g.end
			case g.kind == groupLink:
				i = skipLinkTarget(text, g.end)
			default:
				i = g.end
			}
		default:
			i++
		}
	}
	return out
}

// skipCode returns the index after the run of exactly n backticks that
// closes a code span opened just before text[i], or i when none does.
func skipCode(text string, i, n int) int {
	if end := txt.CodeSpanEnd(text, i, n); end >= 0 {
		return end
	}
	return i
}

// labelIndex finds delivered items by tolerant label.
type labelIndex struct {
	items []Item
	kinds []string
	keys  []string
	byKey map[string]int
}

func newLabelIndex(c Context) labelIndex {
	x := labelIndex{byKey: make(map[string]int, len(c.Full)+len(c.Memory)+len(c.Summaries))}
	add := func(items []Item, kind string) {
		for _, it := range items {
			k := labelKey(it.Label)
			if k == "" {
				continue
			}
			if _, dup := x.byKey[k]; !dup {
				x.byKey[k] = len(x.items)
			}
			x.items = append(x.items, it)
			x.kinds = append(x.kinds, kind)
			x.keys = append(x.keys, k)
		}
	}
	add(c.Full, KindFull)
	add(c.Memory, KindMemory)
	add(c.Summaries, KindSummary)
	return x
}

// lookup returns the index of the item that label names, or -1.
func (x labelIndex) lookup(label string) int {
	k := labelKey(label)
	if k == "" {
		return -1
	}
	if i, ok := x.byKey[k]; ok {
		return i
	}
	for i, l := range x.keys {
		if strings.HasPrefix(l, k+" >") || strings.HasPrefix(l, k+" (") {
			return i
		}
	}
	return -1
}

// citable reports whether generated text can cite it: its label names it
// and holds nothing that would keep "[" + label + "]" from reading as one
// citation.
func (x labelIndex) citable(it Item) bool {
	if !citableLabel(it.Label) {
		return false
	}
	i := x.lookup(it.Label)
	return i >= 0 && x.items[i].ID == it.ID && x.items[i].Label == it.Label
}

// citableLabel reports whether "[" + label + "]" in running text reads as
// one citation of label.
func citableLabel(label string) bool {
	if labelKey(label) == "" || strings.ContainsAny(label, "`\n") {
		return false
	}
	s := " [" + label + "]"
	g, ok := groupAt(s, 1)
	return ok && g.kind == groupCitation && g.end == len(s)
}

func (x labelIndex) find(label string) (Item, bool) {
	if i := x.lookup(label); i >= 0 {
		return x.items[i], true
	}
	return Item{}, false
}

// part is one label of a citation group.
type part struct {
	written string
	ok      bool
	item    Item
	kind    string
}

// resolveGroup splits a group's text into labels and resolves each. The
// whole text is tried first (a label may hold ";" or ","), then its ";"
// parts, then the "," parts of a ";" part when all of them resolve.
func (x labelIndex) resolveGroup(inner string) []part {
	written := strings.TrimSpace(inner)
	if p, ok := x.part(written); ok {
		return []part{p}
	}
	var out []part
	for piece := range strings.SplitSeq(written, ";") {
		piece = strings.TrimSpace(piece)
		if piece == "" {
			continue
		}
		if p, ok := x.part(piece); ok {
			out = append(out, p)
			continue
		}
		if sub, ok := x.commaParts(piece); ok {
			out = append(out, sub...)
			continue
		}
		out = append(out, part{written: piece})
	}
	if len(out) == 0 {
		out = append(out, part{written: written})
	}
	return out
}

// citation is the part as a Citation.
func (p part) citation() Citation {
	c := Citation{Label: p.written}
	if p.ok {
		id := p.item.ID
		c.Evidence, c.Kind, c.Delivered, c.Valid = &id, p.kind, true, true
	}
	return c
}

func (x labelIndex) commaParts(piece string) ([]part, bool) {
	if !strings.Contains(piece, ",") {
		return nil, false
	}
	var out []part
	for s := range strings.SplitSeq(piece, ",") {
		p, ok := x.part(strings.TrimSpace(s))
		if !ok {
			return nil, false
		}
		out = append(out, p)
	}
	return out, true
}

func (x labelIndex) part(written string) (part, bool) {
	i := x.lookup(written)
	if i < 0 {
		return part{written: written}, false
	}
	return part{written: written, ok: true, item: x.items[i], kind: x.kinds[i]}, true
}

// labelKey is the form in which labels are compared: folded (case and
// accents), "›", "»", "→", "->" and "=>" as ">", one space around ">" and
// after ":", no space before ":", whitespace collapsed, and without
// wrapping quotes, emphasis marks or a trailing period or comma.
func labelKey(s string) string {
	s = strings.TrimSpace(s)
	for range 3 {
		s = strings.Trim(s, " \t\"'«»“”‘’`*_")
		s = strings.TrimRight(s, ".,")
	}
	s = keyReplacer.Replace(txt.Fold(s))
	return strings.ReplaceAll(txt.Collapse(s), " :", ":")
}

var keyReplacer = strings.NewReplacer(
	"->", " > ", "=>", " > ", "›", " > ", "»", " > ", "→", " > ", ">", " > ",
	":", ": ",
)
