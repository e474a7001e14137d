package load

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The layout of a PDF's text: from glyphs placed on pages to headings and
// paragraphs in reading order. Pure functions, no PDF parsing.
//
// Glyphs that follow one another on a baseline make spans; a page's spans
// are cut into regions by the white space between them (an XY cut:
// columns at a vertical gutter first, else bands at the widest horizontal
// gap, recursively), so a two-column page reads column by column; a
// region's spans make lines, and lines make blocks. The lines that repeat
// at the top or bottom of most pages (running headers, footers, page
// numbers) are dropped before the cut.

// glyph is one character a page draws: its origin (x, y in points, y
// growing upward), its advance width when the font says it (else 0), its
// size and text.
type glyph struct {
	x, y, w, size float64
	s             string
}

// outlineEntry is one bookmark: its title and depth, from 1.
type outlineEntry struct {
	title string
	depth int
}

// span is glyphs drawn one after the other on one baseline: a word or a
// run of words, the unit of the layout.
type span struct {
	x0, x1, y, size float64
	text            string
}

func (s span) top() float64    { return s.y + 0.8*s.size }
func (s span) bottom() float64 { return s.y - 0.25*s.size }

// line is the text on one baseline of a region.
type line struct {
	x0, x1, y, size float64
	text            string
}

// maxCutSpans bounds the spans of a page the XY cut works on (it is
// quadratic at worst); a page with more is read top to bottom.
const maxCutSpans = 5000

// spansOf groups a page's glyphs, in the order the page draws them, into
// spans. Widths unknown to the font (0) are guessed at half an em, so a
// space is inserted between glyphs only across a clearly wider gap.
func spansOf(gs []glyph) []span {
	var out []span
	var parts []string
	var cur span
	var last glyph
	lastEnd := 0.0
	open := false
	flush := func() {
		if open {
			cur.text = strings.Join(parts, "")
			if strings.TrimSpace(cur.text) != "" {
				out = append(out, cur)
			}
		}
		open, parts = false, parts[:0]
	}
	for _, g := range gs {
		adv, known := g.w, g.w > 0
		if !known {
			adv = 0.5 * g.size
		}
		if open {
			gap := g.x - lastEnd
			if math.Abs(g.y-cur.y) > 0.2*cur.size || gap < -0.7*cur.size || gap > 1.2*cur.size {
				flush()
			} else {
				// A zero-width glyph read as a space (a soft hyphen's) sits
				// where the hyphen drawn for it starts: it is no space.
				if last.s == " " && strings.Contains(lineHyphens, g.s) && len(parts) > 0 && math.Abs(g.x-last.x) < 0.05*g.size {
					parts = parts[:len(parts)-1]
				}
				threshold := 0.2 * cur.size
				if !known {
					threshold = 0.7 * cur.size
				}
				if gap > threshold && last.s != " " && g.s != " " {
					parts = append(parts, " ")
				}
			}
		}
		if !open {
			cur = span{x0: g.x, x1: g.x, y: g.y, size: g.size}
			open = true
		}
		parts = append(parts, g.s)
		cur.x1 = max(cur.x1, g.x+adv)
		cur.size = max(cur.size, g.size)
		last, lastEnd = g, g.x+adv
	}
	flush()
	return out
}

// linesOf groups spans into lines, top to bottom, each left to right.
func linesOf(sp []span) []line {
	ls, _ := linesAndSpans(sp)
	return ls
}

// linesAndSpans groups spans into lines, top to bottom, each left to
// right, and says which line each span went to.
func linesAndSpans(sp []span) ([]line, []int) {
	idx := make([]int, len(sp))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmpFloat(sp[b].y, sp[a].y); c != 0 {
			return c
		}
		return cmpFloat(sp[a].x0, sp[b].x0)
	})
	of := make([]int, len(sp))
	var out []line
	for i := 0; i < len(idx); {
		first := sp[idx[i]]
		j := i + 1
		for j < len(idx) && math.Abs(sp[idx[j]].y-first.y) < 0.35*min(first.size, sp[idx[j]].size) {
			j++
		}
		row := slices.Clone(idx[i:j])
		slices.SortStableFunc(row, func(a, b int) int { return cmpFloat(sp[a].x0, sp[b].x0) })
		s0 := sp[row[0]]
		l := line(s0)
		longest := len(s0.text)
		for _, k := range row {
			of[k] = len(out)
		}
		for _, k := range row[1:] {
			s := sp[k]
			if s.text == s0.text && math.Abs(s.x0-l.x0) < 0.2*s.size {
				continue // drawn twice to look bold
			}
			if s.x0-l.x1 > 0.1*s.size && !strings.HasSuffix(l.text, " ") && !strings.HasPrefix(s.text, " ") {
				l.text += " "
			}
			l.text += s.text
			l.x1 = max(l.x1, s.x1)
			if len(s.text) > longest {
				longest, l.size = len(s.text), s.size
			}
		}
		l.text = strings.TrimSpace(l.text)
		out = append(out, l)
		i = j
	}
	return out, of
}

// xyCut orders a region's spans for reading: it splits the region at a
// vertical gutter into columns (left first) or, failing that, at its
// widest horizontal gap into bands (top first), until neither is left;
// each piece left is appended to out.
func xyCut(sp []span, body, bandGap float64, depth int, out *[][]span) {
	if len(sp) < 2 || depth > 64 {
		*out = append(*out, sp)
		return
	}
	if l, r, ok := cutColumns(sp, body); ok {
		xyCut(l, body, bandGap, depth+1, out)
		xyCut(r, body, bandGap, depth+1, out)
		return
	}
	if a, b, ok := cutBand(sp, bandGap); ok {
		xyCut(a, body, bandGap, depth+1, out)
		xyCut(b, body, bandGap, depth+1, out)
		return
	}
	*out = append(*out, sp)
}

// cutColumns splits spans at the widest vertical gutter that runs through
// the whole region, when both sides look like columns of text: a fair
// share of the width, and more than one line each (a table row's cells
// are not columns).
func cutColumns(sp []span, body float64) (left, right []span, ok bool) {
	s := slices.Clone(sp)
	slices.SortStableFunc(s, func(a, b span) int { return cmpFloat(a.x0, b.x0) })
	x0, x1 := s[0].x0, s[0].x1
	for _, v := range s {
		x1 = max(x1, v.x1)
	}
	width := x1 - x0
	reach, best, bestGap := s[0].x1, -1, 0.0
	for i := 1; i < len(s); i++ {
		gap := s[i].x0 - reach
		if gap >= 1.5*body && gap > bestGap && reach-x0 >= 0.2*width && x1-s[i].x0 >= 0.2*width &&
			baselines(s[:i]) >= 2 && baselines(s[i:]) >= 2 {
			best, bestGap = i, gap
		}
		reach = max(reach, s[i].x1)
	}
	if best < 0 {
		return nil, nil, false
	}
	return s[:best], s[best:], true
}

// baselines counts the distinct baselines among spans.
func baselines(sp []span) int {
	ys := make([]float64, len(sp))
	for i, s := range sp {
		ys[i] = s.y
	}
	slices.Sort(ys)
	n := 1
	for i := 1; i < len(ys); i++ {
		if ys[i]-ys[i-1] > 2 {
			n++
		}
	}
	return n
}

// cutBand splits spans at the widest horizontal gap across the region,
// when it is wider than the gap between two lines of a paragraph.
func cutBand(sp []span, minGap float64) (above, below []span, ok bool) {
	s := slices.Clone(sp)
	slices.SortStableFunc(s, func(a, b span) int { return cmpFloat(b.top(), a.top()) })
	floor, best, bestGap := s[0].bottom(), -1, minGap
	for i := 1; i < len(s); i++ {
		if gap := floor - s[i].top(); gap > bestGap {
			best, bestGap = i, gap
		}
		floor = min(floor, s[i].bottom())
	}
	if best < 0 {
		return nil, nil, false
	}
	return s[:best], s[best:], true
}

// Running lines: page numbers by their shape, headers and footers by
// their repeating (digits aside) on most pages.
var pageNumberRe = []*regexp.Regexp{
	regexp.MustCompile(`^\d{1,5}$`),
	regexp.MustCompile(`^[-–—]\s*\d{1,5}\s*[-–—]$`),
	regexp.MustCompile(`(?i)^(?:p[áa]gina|p[áa]g\.?|page|p\.)\s*\d{1,5}(?:\s*(?:/|de|of)\s*\d{1,5})?$`),
	regexp.MustCompile(`(?i)^\d{1,5}\s*(?:/|de|of)\s*\d{1,5}$`),
}

// isPageNumber reports whether a line is only a page number ("3",
// "- 3 -", "Página 3", "3 / 12"...).
func isPageNumber(s string) bool {
	s = strings.TrimSpace(s)
	for _, re := range pageNumberRe {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// runningKey is a line as it repeats from page to page: numbers (a page
// number, a date) masked, case and spacing ignored.
func runningKey(s string) string {
	s = digitsRe.ReplaceAllString(strings.ToLower(s), "#")
	return strings.Join(strings.Fields(s), " ")
}

var digitsRe = regexp.MustCompile(`\d+`)

// edgeLines is how many lines at the top and at the bottom of a page may
// be running headers or footers.
const edgeLines = 2

// runningLines finds, for each page's lines (top to bottom), those that
// are running headers, footers or page numbers: a line among the first or
// last edgeLines of a page that is a page number, or that repeats in the
// same place on at least half the pages (and two of them). Repeating
// lines frame a page's body: when dropping them would leave more than half
// the pages that have text with none (a deck of one line a page, "Sesión
// 1: …", "Sesión 2: …"), they are the body, and only page numbers go; a
// document of nothing but page numbers keeps them.
func runningLines(pages [][]line) []map[int]bool {
	out := repeatedLines(pages)
	withText, emptied := 0, 0
	for p, ls := range pages {
		text, kept := false, false
		for i, l := range ls {
			if !isPageNumber(l.text) {
				text = true
				kept = kept || !out[p][i]
			}
		}
		if text {
			withText++
			if !kept {
				emptied++
			}
		}
	}
	if 2*emptied > withText {
		for p, ls := range pages {
			for i, l := range ls {
				if out[p][i] && !isPageNumber(l.text) {
					delete(out[p], i)
				}
			}
		}
	}
	if withText == 0 {
		// Nothing but page numbers: they are the text.
		for p := range out {
			clear(out[p])
		}
	}
	return out
}

// repeatedLines marks the lines at the top or bottom of their page that
// are page numbers or repeat there on at least half the pages.
func repeatedLines(pages [][]line) []map[int]bool {
	top, bottom := map[string]int{}, map[string]int{}
	for _, ls := range pages {
		seenTop, seenBottom := map[string]bool{}, map[string]bool{}
		for i, l := range ls {
			k := runningKey(l.text)
			if i < edgeLines && !seenTop[k] {
				top[k]++
				seenTop[k] = true
			}
			if i >= len(ls)-edgeLines && !seenBottom[k] {
				bottom[k]++
				seenBottom[k] = true
			}
		}
	}
	need := max(2, (len(pages)+1)/2)
	out := make([]map[int]bool, len(pages))
	for p, ls := range pages {
		out[p] = map[int]bool{}
		for i, l := range ls {
			atTop, atBottom := i < edgeLines, i >= len(ls)-edgeLines
			if !atTop && !atBottom {
				continue
			}
			k := runningKey(l.text)
			if isPageNumber(l.text) || atTop && top[k] >= need || atBottom && bottom[k] >= need {
				out[p][i] = true
			}
		}
	}
	return out
}

// pageSpans is one page's spans and the lines they make.
type pageSpans struct {
	spans []span
	lines []line
	of    []int // of[i] is the line spans[i] is on
}

// assignLines makes a page's lines and records each span's line.
func assignLines(sp []span) pageSpans {
	ls, of := linesAndSpans(sp)
	return pageSpans{spans: sp, lines: ls, of: of}
}

// placedLine is a line of the document in reading order: its page (from
// 1) and the region it came from.
type placedLine struct {
	line
	page, region int
}

// layoutPDF turns each page's glyphs into the document's blocks, in
// reading order, headings from the outline when it names them, else
// from the font size.
func layoutPDF(pages [][]glyph, outline []outlineEntry) []Block {
	ps := make([]pageSpans, len(pages))
	lines := make([][]line, len(pages))
	for i, g := range pages {
		ps[i] = assignLines(spansOf(g))
		lines[i] = ps[i].lines
	}
	body, pitch := bodyMetrics(lines)
	drop := runningLines(lines)
	bandGap := (pitch - 1.05*body) + 0.25*body

	var placed []placedLine
	region := 0
	for p, page := range ps {
		var kept []span
		for i, s := range page.spans {
			if !drop[p][page.of[i]] {
				kept = append(kept, s)
			}
		}
		var regions [][]span
		if len(kept) > maxCutSpans {
			regions = [][]span{kept}
		} else {
			xyCut(kept, body, bandGap, 0, &regions)
		}
		for _, r := range regions {
			region++
			for _, l := range linesOf(r) {
				placed = append(placed, placedLine{line: l, page: p + 1, region: region})
			}
		}
	}
	blocks := buildBlocks(placed, headingSizes(lines, body), body, pitch)
	blocks = applyOutline(blocks, outline)
	out := make([]Block, 0, len(blocks))
	for _, b := range blocks {
		out = append(out, Block{Level: b.level, Text: joinLines(b.lines), Page: b.page})
	}
	return out
}

// bodyMetrics finds the body text's size (the size most characters are
// set in) and its line pitch (the commonest distance between baselines
// of consecutive body lines).
func bodyMetrics(pages [][]line) (size, pitch float64) {
	chars := map[float64]int{}
	for _, ls := range pages {
		for _, l := range ls {
			chars[roundHalf(l.size)] += utf8.RuneCountInString(l.text)
		}
	}
	size = 10
	best := 0
	for s, n := range chars {
		if n > best || n == best && s < size {
			size, best = s, n
		}
	}
	pitches := map[float64]int{}
	for _, ls := range pages {
		for i := 1; i < len(ls); i++ {
			a, b := ls[i-1], ls[i]
			d := a.y - b.y
			if math.Abs(roundHalf(a.size)-size) < 0.1 && math.Abs(roundHalf(b.size)-size) < 0.1 && d > 0.9*size && d < 2.5*size {
				pitches[roundHalf(d)]++
			}
		}
	}
	pitch, best = 1.2*size, 0
	for d, n := range pitches {
		if n > best || n == best && d < pitch {
			pitch, best = d, n
		}
	}
	return size, pitch
}

// headingSizes ranks the sizes clearly larger than the body's: the
// largest is level 1, the next 2, and so on to 6.
func headingSizes(pages [][]line, body float64) map[float64]int {
	var sizes []float64
	for _, ls := range pages {
		for _, l := range ls {
			s := roundHalf(l.size)
			if s >= 1.15*body && s >= body+1 && !slices.Contains(sizes, s) {
				sizes = append(sizes, s)
			}
		}
	}
	slices.SortFunc(sizes, func(a, b float64) int { return cmpFloat(b, a) })
	levels := map[float64]int{}
	for i, s := range sizes {
		levels[s] = min(i+1, 6)
	}
	return levels
}

// pblock is a block being built, its lines kept apart until the end.
type pblock struct {
	level, page, region int
	size, lastX0, lastY float64
	lines               []string
	outlined            bool
}

// maxHeadingRunes: a line larger than the body's but longer than this is
// a paragraph in large print, not a heading.
const maxHeadingRunes = 200

// buildBlocks joins lines into blocks: the lines of a paragraph (same
// region, same size, the usual pitch, no indented start) into one, and a
// paragraph broken by a column or a page end, when its text goes on in
// lower case, with its rest.
func buildBlocks(ls []placedLine, levels map[float64]int, body, pitch float64) []pblock {
	var out []pblock
	for _, l := range ls {
		lvl := levels[roundHalf(l.size)]
		if lvl > 0 && utf8.RuneCountInString(l.text) > maxHeadingRunes {
			lvl = 0
		}
		if n := len(out); n > 0 {
			cur := &out[n-1]
			sameSize := math.Abs(cur.size-l.size) < 0.6
			var joins bool
			if cur.region == l.region {
				near := cur.lastY-l.y < 1.4*pitch*l.size/body
				indented := lvl == 0 && l.x0 > cur.lastX0+0.8*l.size
				joins = lvl == cur.level && sameSize && near && !indented
			} else {
				last := cur.lines[len(cur.lines)-1]
				joins = lvl == 0 && cur.level == 0 && sameSize && !endsSentence(last) && startsLower(l.text)
				// A heading that wraps can be cut into regions of its own,
				// one a line: its lines go on at the next line's distance.
				nearHeading := l.page == cur.page && cur.lastY-l.y > 0 && cur.lastY-l.y < 1.6*l.size
				joins = joins || lvl > 0 && lvl == cur.level && sameSize && nearHeading
			}
			if joins {
				cur.lines = append(cur.lines, l.text)
				cur.lastX0, cur.lastY, cur.region = l.x0, l.y, l.region
				continue
			}
		}
		out = append(out, pblock{level: lvl, page: l.page, region: l.region, size: l.size, lastX0: l.x0, lastY: l.y, lines: []string{l.text}})
	}
	return out
}

// applyOutline makes headings of the blocks the outline names, in order,
// each at its entry's depth; a block whose first line is the title is
// split there. When the outline names some, the headings found by size
// alone go below its deepest level.
func applyOutline(blocks []pblock, outline []outlineEntry) []pblock {
	if len(outline) == 0 {
		return blocks
	}
	var out []pblock
	next, matched, deepest := 0, 0, 0
	for _, e := range outline {
		deepest = max(deepest, e.depth)
	}
	for _, b := range blocks {
		whole, first := headingKey(joinLines(b.lines)), headingKey(b.lines[0])
		for k := next; k < len(outline) && k < next+8; k++ {
			t := headingKey(outline[k].title)
			if t == "" || (t != whole && t != first) {
				continue
			}
			if t != whole {
				head := b
				head.lines = b.lines[:1]
				head.level, head.outlined = outline[k].depth, true
				out = append(out, head)
				b.lines = b.lines[1:]
			} else {
				b.level, b.outlined = outline[k].depth, true
			}
			next = k + 1
			matched++
			break
		}
		out = append(out, b)
	}
	if matched == 0 {
		return blocks
	}
	for i := range out {
		if out[i].level > 0 && !out[i].outlined {
			out[i].level = min(6, deepest+1)
		}
	}
	return out
}

// headingKey is a title as compared with the text: case, white space
// and control characters ignored (outlines made from wrapped headings
// often lose the space at the wrap).
func headingKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.IsSpace(r) || r == '\u00ad' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// hyphens that may end a line in the middle of a word.
const lineHyphens = "-\u2010\u00ad"

// joinLines joins a block's lines into one text. A word broken at a line
// end by a hyphen is joined whole ("aventu-" "reros": "aventureros"),
// unless the line after starts in upper case, where the hyphen is the
// word's own ("Sancho-" "Panza": "Sancho-Panza"). Soft hyphens go.
func joinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if i == 0 {
			b.WriteString(l)
			continue
		}
		prev := b.String()
		trimmed := strings.TrimRight(prev, lineHyphens)
		next, _ := utf8.DecodeRuneInString(l)
		before, _ := utf8.DecodeLastRuneInString(trimmed)
		switch {
		case trimmed == prev || !unicode.IsLetter(before):
			b.WriteString(" ")
			b.WriteString(l)
		case unicode.IsLower(next):
			b.Reset()
			b.WriteString(trimmed)
			b.WriteString(l)
		default:
			b.Reset()
			b.WriteString(trimmed)
			if strings.ContainsAny(prev[len(trimmed):], "-\u2010") {
				b.WriteString("-")
			}
			b.WriteString(l)
		}
	}
	return strings.ReplaceAll(b.String(), "\u00ad", "")
}

// endsSentence reports whether a line ends a sentence (or a list item's
// text, or a title).
func endsSentence(s string) bool {
	s = strings.TrimSpace(s)
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?:;»\"”)…", r)
}

// startsLower reports whether a line begins with a lower-case letter.
func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(s))
	return unicode.IsLower(r)
}

func roundHalf(f float64) float64 { return math.Round(f*2) / 2 }

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
