package chunk

import (
	"sort"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo/text"
)

// lineInfo is what the splitter knows about one line of the document.
type lineInfo struct {
	// start and end are the line's byte range, without its newline.
	start, end int
	// blank is true when the line has no word.
	blank bool
	// code is true for a fence delimiter and every line inside a fence.
	code bool
	// level is the ATX heading level (0 if the line is not a heading) and
	// heading its text with Markdown markers stripped.
	level   int
	heading string
	// sess is set when the line is a session header.
	sess    bool
	session sessionHeader
}

// isHeading reports whether the line stands as a heading alone: an ATX
// heading, or a session marker that carries no more than a title.
func (l lineInfo) isHeading() bool { return l.level > 0 || l.sess && !l.session.long }

// scanLines classifies every line of doc. Headings and session headers are
// only looked for outside fenced code blocks.
func scanLines(doc string) []lineInfo {
	lines := make([]lineInfo, 0, strings.Count(doc, "\n")+1)
	var open text.Fence
	inFence := false
	for start := 0; start <= len(doc); {
		end := strings.IndexByte(doc[start:], '\n')
		if end < 0 {
			end = len(doc)
		} else {
			end += start
		}
		s := doc[start:end]
		l := lineInfo{start: start, end: end, blank: isBlank(s)}
		switch {
		case inFence:
			l.code = true
			if open.Closes(s) {
				inFence = false
			}
		case !l.blank:
			if f, ok := text.OpenFence(s); ok {
				open, inFence, l.code = f, true, true
				break
			}
			if level, h := text.ATXHeading(s); level > 0 {
				l.level, l.heading = level, stripMarkers(h)
			}
			if first := text.Unindent(s); first != "" && strings.IndexByte("#*_sS", first[0]) >= 0 {
				l.session, l.sess = detectSession(s)
			}
		}
		lines = append(lines, l)
		start = end + 1
	}
	return lines
}

// isBlank reports whether s has no word, with spaces as strings.Fields sees
// them.
func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// words holds the byte offsets of every word of a text, as strings.Fields
// splits it.
type words struct {
	starts, ends []int
}

func scanWords(text string) words {
	n := len(text)/6 + 1
	w := words{starts: make([]int, 0, n), ends: make([]int, 0, n)}
	in := false
	for i, r := range text {
		if r < 0x80 {
			if asciiSpace[r] {
				if in {
					w.ends = append(w.ends, i)
					in = false
				}
				continue
			}
		} else if unicode.IsSpace(r) {
			if in {
				w.ends = append(w.ends, i)
				in = false
			}
			continue
		}
		if !in {
			w.starts = append(w.starts, i)
			in = true
		}
	}
	if in {
		w.ends = append(w.ends, len(text))
	}
	return w
}

var asciiSpace = [128]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// before returns how many words start before byte offset b.
func (w words) before(b int) int { return sort.SearchInts(w.starts, b) }

// lineAt returns the index of the line that holds byte offset b.
func lineAt(lines []lineInfo, b int) int {
	i := sort.Search(len(lines), func(i int) bool { return lines[i].start > b })
	if i > 0 {
		i--
	}
	return i
}
