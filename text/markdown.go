package text

import "strings"

// Unindent drops up to three leading spaces: the indentation Markdown
// allows before a block marker. A line indented further is code or a list
// continuation and keeps its indentation, so it matches no marker.
func Unindent(line string) string {
	for i := 0; i < 3 && strings.HasPrefix(line, " "); i++ {
		line = line[1:]
	}
	return line
}

// ATXHeading returns the level (1 to 6) and the text of an ATX heading line
// ("## Sesión 3"), or level 0 when the line is not one. The line may be
// indented by up to three spaces; the #'s must be followed by a space, a
// tab or the end of the line. The text is trimmed and loses its closing
// sequence of #'s, which must follow a space ("## C#" is "C#", "## a ##"
// is "a"); it may be empty ("##").
func ATXHeading(line string) (level int, heading string) {
	s := Unindent(line)
	j := 0
	for j < len(s) && s[j] == '#' {
		j++
	}
	if j < 1 || j > 6 || (j < len(s) && s[j] != ' ' && s[j] != '\t') {
		return 0, ""
	}
	t := strings.TrimSpace(s[j:])
	k := len(t)
	for k > 0 && t[k-1] == '#' {
		k--
	}
	if k == 0 {
		return j, ""
	}
	if t[k-1] == ' ' || t[k-1] == '\t' {
		t = strings.TrimSpace(t[:k])
	}
	return j, t
}

// Fence is the opening of a fenced code block: a run of three or more
// backticks or tildes.
type Fence struct {
	char  byte
	count int
}

// OpenFence reports whether line opens a fenced code block ("```", "~~~go",
// at most three spaces of indentation). A backtick fence's info string may
// not hold a backtick ("```a`" is inline code, not a fence).
func OpenFence(line string) (Fence, bool) {
	s := Unindent(line)
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return Fence{}, false
	}
	c := s[0]
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 3 {
		return Fence{}, false
	}
	if c == '`' && strings.IndexByte(s[n:], '`') >= 0 {
		return Fence{}, false
	}
	return Fence{char: c, count: n}, true
}

// Closes reports whether line closes the block f opened: a run of the same
// character at least as long, and nothing after it but spaces.
func (f Fence) Closes(line string) bool {
	if f.count == 0 {
		return false
	}
	s := Unindent(line)
	n := 0
	for n < len(s) && s[n] == f.char {
		n++
	}
	return n >= f.count && strings.TrimSpace(s[n:]) == ""
}

// CutQuoteMarker reports whether t starts with a blockquote marker ">" and
// returns what follows it, untrimmed.
func CutQuoteMarker(t string) (rest string, ok bool) {
	return strings.CutPrefix(t, ">")
}

// CutListMarker reports whether t starts with a list item's marker and
// returns what follows the marker and the one space or tab after it,
// untrimmed. A marker is "-", "*", "+" or "•", or a number of at most three
// digits followed by "." or ")"; a longer number is not one, so that a year
// opening a sentence ("1984. Llegaron...") is text. Something must follow
// the space.
func CutListMarker(t string) (rest string, ok bool) {
	n := 0
	switch {
	case strings.HasPrefix(t, "•"):
		n = len("•")
	case len(t) > 0 && strings.IndexByte("-*+", t[0]) >= 0:
		n = 1
	default:
		for n < len(t) && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		if n == 0 || n > 3 || n >= len(t) || (t[n] != '.' && t[n] != ')') {
			return t, false
		}
		n++
	}
	if len(t) <= n+1 || (t[n] != ' ' && t[n] != '\t') {
		return t, false
	}
	return t[n+1:], true
}

// CutTaskBox reports whether t starts with a task box ("[ ] ", "[x] ",
// "[X] ") and returns what follows it.
func CutTaskBox(t string) (rest string, ok bool) {
	for _, box := range [...]string{"[ ] ", "[x] ", "[X] "} {
		if rest, ok := strings.CutPrefix(t, box); ok {
			return rest, true
		}
	}
	return t, false
}

// editOutsideFences returns md with each line outside fenced code blocks
// as write writes it, and the lines of fenced blocks, their fences
// included, as they are: the walk every rewriting of a note's text shares.
func editOutsideFences(md string, write func(b *strings.Builder, line string)) string {
	var b strings.Builder
	b.Grow(len(md))
	var fence Fence
	inFence, first := false, true
	for line := range strings.SplitSeq(md, "\n") {
		if !first {
			b.WriteByte('\n')
		}
		first = false
		if inFence {
			inFence = !fence.Closes(line)
			b.WriteString(line)
			continue
		}
		if f, ok := OpenFence(line); ok {
			fence, inFence = f, true
			b.WriteString(line)
			continue
		}
		write(&b, line)
	}
	return b.String()
}

// CutLineMarkers removes from the start of a trimmed line its blockquote
// markers, a list marker and a task box, and returns the rest trimmed;
// item reports a list marker.
func CutLineMarkers(t string) (content string, item bool) {
	for {
		rest, ok := CutQuoteMarker(t)
		if !ok {
			break
		}
		t = strings.TrimSpace(rest)
	}
	if rest, ok := CutListMarker(t); ok {
		t, item = strings.TrimSpace(rest), true
		if rest, ok := CutTaskBox(t); ok {
			t = strings.TrimSpace(rest)
		}
	}
	return t, item
}
