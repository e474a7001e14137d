package chunk

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo/text"
)

// ErrBadOptions is returned (wrapped) by [Split] when MaxWords < 1,
// OverlapWords < 0 or OverlapWords >= MaxWords.
var ErrBadOptions = errors.New("chunk: bad options")

// block is a run of lines that is either one session or text outside any
// session.
type block struct {
	// first and last are the block's line range [first, last).
	first, last int
	session     bool
	number      int
	// heading is the session heading text; empty for a non-session block
	// and for a session that is a whole file named like one.
	heading string
	// merged counts the lines of bare headings (a document title, say)
	// joined to the front of the block: part of its text, not of its
	// heading path.
	merged int
}

// section is a heading line and its content up to the next heading, or the
// untitled lead-in of a block.
type section struct {
	// start and end are the section's byte range: from the start of its
	// first line to the end of its last one.
	start, end int
	// heading is the section's own heading, "" for the lead-in.
	heading string
	// path is the stack of Markdown headings inside the block that enclose
	// the section, its own heading last.
	path []string
	// w0 and w1 are the section's word range.
	w0, w1 int
}

// splitter holds one document being cut.
type splitter struct {
	doc   Document
	opts  Options
	lines []lineInfo
	words words
	title string
	stem  string
	// hasSessions is set when some block of the document is a session.
	hasSessions bool
	chunks      []Chunk
}

// Split cuts a document into chunks. Session headers (see [DetectSession])
// cut the text into blocks: the text before the first session, one block per
// session, and any text that a heading of the session's level or above
// closes. A file named like a session (see [SessionFromPath]) with no
// session header is that session as a whole. A block of at most MaxWords
// words is one chunk; a larger one is cut at its Markdown headings into
// sections, grouped greedily up to MaxWords without cutting any; only a
// single section over MaxWords is cut into windows of MaxWords words that
// overlap by OverlapWords. Whitespace-only text yields no chunk.
func Split(doc Document, opts Options) ([]Chunk, error) {
	if opts.MaxWords < 1 || opts.OverlapWords < 0 || opts.OverlapWords >= opts.MaxWords {
		return nil, fmt.Errorf("%w: MaxWords %d, OverlapWords %d (want MaxWords >= 1 and 0 <= OverlapWords < MaxWords)",
			ErrBadOptions, opts.MaxWords, opts.OverlapWords)
	}
	s := &splitter{doc: doc, opts: opts, lines: scanLines(doc.Text), words: scanWords(doc.Text)}
	if len(s.words.starts) == 0 {
		return nil, nil
	}
	s.title = docTitle(doc, s.lines)
	s.stem = fileStem(doc.Path)
	blocks := s.blocks()
	for _, b := range blocks {
		if b.session {
			s.hasSessions = true
		}
	}
	for _, b := range blocks {
		s.splitBlock(b)
	}
	uniqueLabels(s.chunks)
	return s.chunks, nil
}

// blocks cuts the document's lines into session and non-session blocks.
func (s *splitter) blocks() []block {
	var out []block
	cur := block{}
	level := 0
	headers := false
	closeAt := func(i int) {
		if i > cur.first {
			cur.last = i
			out = append(out, cur)
		}
	}
	for i, l := range s.lines {
		switch {
		case l.sess:
			headers = true
			closeAt(i)
			cur = block{first: i, session: true, number: l.session.number, heading: l.session.heading}
			level = l.session.level
		case cur.session && level > 0 && l.level > 0 && l.level <= level:
			closeAt(i)
			cur = block{first: i}
			level = 0
		}
	}
	closeAt(len(s.lines))
	if !headers {
		if n, ok := SessionFromPath(s.doc.Path); ok {
			return []block{{first: 0, last: len(s.lines), session: true, number: n}}
		}
	}
	return s.mergeBareHeadings(out)
}

// mergeBareHeadings joins a non-session block that holds nothing but
// headings (a document title above the first session, say) to the block
// after it: alone it would be a chunk with no content.
func (s *splitter) mergeBareHeadings(blocks []block) []block {
	out := blocks[:0]
	pending := -1
	for _, b := range blocks {
		if pending >= 0 {
			b.merged = b.first - pending
			b.first = pending
			pending = -1
		}
		if !b.session && s.onlyHeadings(b) {
			pending = b.first
			continue
		}
		out = append(out, b)
	}
	if pending >= 0 {
		// Nothing follows: keep the headings as their own block.
		if len(out) > 0 {
			out[len(out)-1].last = len(s.lines)
		} else {
			out = append(out, block{first: pending, last: len(s.lines)})
		}
	}
	return out
}

func (s *splitter) onlyHeadings(b block) bool {
	for _, l := range s.lines[b.first:b.last] {
		if !l.blank && !l.isHeading() {
			return false
		}
	}
	return true
}

// sections cuts a block at its Markdown headings. The session header that
// opens a block belongs to the block's lead-in.
func (s *splitter) sections(b block) []section {
	type open struct {
		level int
		text  string
	}
	var (
		out   []section
		stack []open
		cur   = section{start: s.lines[b.first].start}
	)
	closeAt := func(i int) {
		cur.end = s.lines[i-1].end
		cur.w0, cur.w1 = s.words.before(cur.start), s.words.before(cur.end)
		out = append(out, cur)
	}
	for i := b.first; i < b.last; i++ {
		l := s.lines[i]
		head := b.first + b.merged
		if l.level == 0 || l.code || i < head || (i == head && l.sess) {
			continue
		}
		if i > b.first {
			closeAt(i)
		}
		for len(stack) > 0 && stack[len(stack)-1].level >= l.level {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, open{l.level, l.heading})
		path := make([]string, len(stack))
		for k, o := range stack {
			path[k] = o.text
		}
		cur = section{start: l.start, heading: l.heading, path: path}
	}
	closeAt(b.last)
	return out
}

// splitBlock appends the chunks of one block.
func (s *splitter) splitBlock(b block) {
	secs := s.sections(b)
	w0, w1 := secs[0].w0, secs[len(secs)-1].w1
	if w1 == w0 {
		return
	}
	if w1-w0 <= s.opts.MaxWords {
		s.emitGroup(b, secs, true)
		return
	}
	limit := s.opts.MaxWords
	i := 0
	for i < len(secs) {
		if secs[i].w1-secs[i].w0 > limit {
			s.emitWindows(b, secs[i])
			i++
			continue
		}
		j := i + 1
		for j < len(secs) && secs[j].w1-secs[i].w0 <= limit {
			j++
		}
		s.emitGroup(b, secs[i:j], false)
		i = j
	}
}

// emitGroup appends one chunk made of whole consecutive sections; whole is
// set when they are the whole block.
func (s *splitter) emitGroup(b block, secs []section, whole bool) {
	first, last := secs[0], secs[len(secs)-1]
	if first.w0 == last.w1 {
		return
	}
	start := max(first.start, s.lineStartOf(s.words.starts[first.w0]))
	s.emit(b, secs, whole, first.w0, last.w1, start, "")
}

// emitWindows appends the overlapping windows of one section larger than
// MaxWords.
func (s *splitter) emitWindows(b block, sec section) {
	limit, step := s.opts.MaxWords, s.opts.MaxWords-s.opts.OverlapWords
	total := sec.w1 - sec.w0
	n := 1 + (total-limit+step-1)/step
	for k := 0; k < n; k++ {
		ws := sec.w0 + k*step
		we := min(ws+limit, sec.w1)
		start := s.words.starts[ws]
		if k == 0 {
			start = max(sec.start, s.lineStartOf(start))
		}
		s.emit(b, []section{sec}, false, ws, we, start, " ("+strconv.Itoa(k+1)+"/"+strconv.Itoa(n)+")")
	}
}

// emit appends a chunk over words [ws, we) starting at byte start.
func (s *splitter) emit(b block, secs []section, whole bool, ws, we, start int, window string) {
	end := s.words.ends[we-1]
	c := Chunk{
		Ordinal:   len(s.chunks),
		Session:   b.number,
		InSession: b.session,
		Headings:  s.headings(b, secs),
		Label:     s.label(b, secs[0], whole) + window,
		WordStart: ws,
		WordEnd:   we,
		ByteStart: start,
		ByteEnd:   end,
		Text:      s.doc.Text[start:end],
	}
	c.Children = s.children(start, end)
	s.chunks = append(s.chunks, c)
}

// headings builds a chunk's heading path: the title, the session heading,
// then the common prefix of its sections' paths, with no entry repeating the
// one before it (so a level-one heading equal to the title is not repeated).
func (s *splitter) headings(b block, secs []section) []string {
	common := secs[0].path
	for _, sec := range secs[1:] {
		n := 0
		for n < len(common) && n < len(sec.path) && common[n] == sec.path[n] {
			n++
		}
		common = common[:n]
	}
	out := make([]string, 0, 2+len(common))
	add := func(h string) {
		if h != "" && (len(out) == 0 || out[len(out)-1] != h) {
			out = append(out, h)
		}
	}
	add(s.title)
	if b.session {
		add(b.heading)
	}
	for _, h := range common {
		add(h)
	}
	return out
}

// label names a chunk as a player would cite it: the session, or the file's
// folder and stem, narrowed by the heading of the chunk's first section when
// the chunk is not all that this name covers.
func (s *splitter) label(b block, first section, whole bool) string {
	base := s.baseLabel(b)
	narrow := !whole || (!b.session && s.hasSessions)
	if h := first.heading; narrow && h != "" && h != s.title && h != s.stem {
		// A label is read and cited: its heading as a reader sees it
		// ("[[Tensión eficaz|tensión]]" is "tensión").
		return base + " › " + text.Render(h)
	}
	return base
}

func (s *splitter) baseLabel(b block) string {
	en := strings.HasPrefix(strings.ToLower(s.opts.Lang), "en")
	if b.session {
		if en {
			return "Session " + strconv.Itoa(b.number)
		}
		return "Sesión " + strconv.Itoa(b.number)
	}
	name := s.stem
	if name == "" {
		name = s.title
	}
	if name == "" {
		if en {
			return "(untitled)"
		}
		return "(sin título)"
	}
	if dir := parentFolder(s.doc.Path); dir != "" {
		return dir + ": " + name
	}
	return name
}

// uniqueLabels makes labels unique in document order: the first keeps its
// label, a repeated one gets " (2)", " (3)", ...
func uniqueLabels(chunks []Chunk) {
	seen := make(map[string]bool, len(chunks))
	next := make(map[string]int)
	for i := range chunks {
		l := chunks[i].Label
		if !seen[l] {
			seen[l] = true
			continue
		}
		k := max(next[l], 2)
		for seen[l+" ("+strconv.Itoa(k)+")"] {
			k++
		}
		next[l] = k + 1
		chunks[i].Label = l + " (" + strconv.Itoa(k) + ")"
		seen[chunks[i].Label] = true
	}
}

// lineStartOf returns the start of the line that holds byte offset b.
func (s *splitter) lineStartOf(b int) int {
	return strings.LastIndexByte(s.doc.Text[:b], '\n') + 1
}

// children cuts the byte range [start, end) into paragraphs at blank lines
// outside code fences; a paragraph that is only a heading line joins the
// paragraph after it.
func (s *splitter) children(start, end int) []Child {
	var (
		out                []Child
		pStart, pEnd       = -1, -1
		pLines             int
		pHeading           bool
		pendStart, pendEnd = -1, -1
		text               = s.doc.Text
		add                func(a, b int)
		flush              func()
	)
	add = func(a, b int) {
		t := strings.TrimRightFunc(text[a:b], unicode.IsSpace)
		if isBlank(t) {
			return
		}
		out = append(out, Child{Ordinal: len(out), ByteStart: a, ByteEnd: a + len(t), Text: t})
	}
	flush = func() {
		if pStart < 0 {
			return
		}
		a, b := pStart, pEnd
		pStart = -1
		if pLines == 1 && pHeading {
			if pendStart < 0 {
				pendStart = a
			}
			pendEnd = b
			return
		}
		if pendStart >= 0 {
			a, pendStart = pendStart, -1
		}
		add(a, b)
	}
	for i := lineAt(s.lines, start); i < len(s.lines) && s.lines[i].start < end; i++ {
		l := s.lines[i]
		if l.blank && !l.code {
			flush()
			continue
		}
		a, b := max(l.start, start), min(l.end, end)
		if pStart < 0 {
			pStart, pLines, pHeading = a, 0, l.isHeading() && !l.code
		}
		pEnd = b
		pLines++
	}
	flush()
	if pendStart >= 0 {
		add(pendStart, pendEnd)
	}
	return out
}
