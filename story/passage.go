package story

import (
	"strings"

	"github.com/oraculo/oraculo/text"
)

// Task states of a line of the notes.
const (
	notTask  = iota
	taskOpen // "- [ ] …"
	taskDone // "- [x] …"
)

// line is one sentence of a chunk's Markdown, a task or a heading, with
// its white space collapsed and without list, quote or task markers.
type line struct {
	text    string
	heading bool
	task    int
}

// lines splits a chunk's Markdown into sentences, in order: paragraphs
// and list items as [text.Sentences] splits them (a list item or task is
// one unit of its own, split too), headings apart. Code blocks, rules and
// table rows are left out: they hold no sentence of the story.
func lines(md string) []line {
	var out []line
	var para []string
	flush := func() {
		if len(para) > 0 {
			for _, s := range text.Sentences(strings.Join(para, " "), nil) {
				out = append(out, line{text: s})
			}
			para = para[:0]
		}
	}
	var fence text.Fence
	inFence := false
	for raw := range strings.SplitSeq(md, "\n") {
		t := strings.TrimSpace(raw)
		if inFence {
			inFence = !fence.Closes(t)
			continue
		}
		if f, ok := text.OpenFence(t); ok {
			flush()
			fence, inFence = f, true
			continue
		}
		if _, h := text.ATXHeading(t); h != "" || t == "" || strings.HasPrefix(t, "|") || isRule(t) {
			flush()
			if h != "" {
				out = append(out, line{text: text.Collapse(h), heading: true})
			}
			continue
		}
		content, task, item := cutMarkers(t)
		if item {
			flush()
		}
		if task != notTask {
			out = append(out, line{text: text.Collapse(content), task: task})
			continue
		}
		if content != "" {
			para = append(para, content)
		}
	}
	flush()
	return out
}

// cutMarkers removes quote markers, a list marker and a task box from the
// start of a line: what is left, the task's state, and whether it was a
// list item.
func cutMarkers(t string) (content string, task int, item bool) {
	for {
		rest, ok := text.CutQuoteMarker(t)
		if !ok {
			break
		}
		t = strings.TrimSpace(rest)
	}
	rest, ok := text.CutListMarker(t)
	if !ok {
		return t, notTask, false
	}
	t = strings.TrimSpace(rest)
	switch {
	case strings.HasPrefix(t, "[ ] "):
		return strings.TrimSpace(t[4:]), taskOpen, true
	case strings.HasPrefix(t, "[x] "), strings.HasPrefix(t, "[X] "):
		return strings.TrimSpace(t[4:]), taskDone, true
	}
	return t, notTask, true
}

// isRule reports a thematic break: three or more of one of -, * or _.
func isRule(t string) bool {
	t = strings.ReplaceAll(t, " ", "")
	if len(t) < 3 {
		return false
	}
	return strings.Trim(t, string(t[0])) == "" && strings.ContainsRune("-*_", rune(t[0]))
}
