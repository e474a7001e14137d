package answer

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	txt "github.com/oraculo/oraculo/text"
)

// Defaults from the design (seed 000).
const (
	// DefaultFull is how many full chunks a Context holds.
	DefaultFull = 8
	// DefaultSummaries is how many one-line summaries a Context holds.
	DefaultSummaries = 16
	// DefaultWordBudget caps the words of everything delivered: eight
	// sessions at the chunk cap (1200 words) and sixteen summaries fit.
	DefaultWordBudget = 12000
	// TimelineFull is how many full chunks an extractive timeline reads
	// (see [ExtractOptions.Timeline]): it quotes one sentence of each
	// session, at most TimelineSentences, so it may look at more sessions
	// than a model is shown. The gold notes of the multi-session questions
	// of the English dev vault are 52% among the first 8 full chunks; on
	// the dev sets 16 and 24 raise their cited recall from 0.47 to 0.58
	// and 0.60, and lose one question in all. Every candidate (40, as many
	// as Ask searches for): 24 -> 40, with TimelineSentences 16 -> 40,
	// cites more of five questions' gold notes on the dev sets and less of
	// none (tools/answers.py cited_recall pooled over the four sets with
	// answers .863 -> .872, token_recall .562 -> .571).
	TimelineFull = 5 * DefaultFull
	// SummaryWords is the length a summary taken from a chunk's first
	// sentence is clipped to (an annotation is about 40 words).
	SummaryWords = 40
	// maxAnnotationWords clips an annotation that ran on.
	maxAnnotationWords = 2 * SummaryWords
)

// AssembleOptions configure [Assemble]. Zero values mean the defaults.
type AssembleOptions struct {
	// Full is the number of full chunks (DefaultFull when 0, none when
	// negative).
	Full int
	// Summaries is the number of summaries (DefaultSummaries when 0, none
	// when negative).
	Summaries int
	// WordBudget caps the words of the delivered texts, chunks and summary
	// lines together (DefaultWordBudget when 0, no cap when negative).
	// Labels and the prompt around them are not counted.
	WordBudget int
	// Chronological lists the full chunks chosen in session order (notes
	// outside sessions first, in rank order), for a question about a
	// history over the campaign; they are still chosen by rank.
	Chronological bool
	// More is the number of full chunks chosen after the others, beyond
	// the word budget, from the candidates left out, one per session as
	// usual (their Rank follows the others'): what an extractive timeline
	// reads besides what a model is shown (see [TimelineFull]).
	More int
}

// Assemble chooses the evidence for one answer from candidates in rank
// order.
//
// Full chunks come first, at most opts.Full, one per session: a session is
// a note's session block (File and Session) for a chunk InSession, else the
// note (File). A later chunk of a session already delivered never takes a
// full slot. A chunk that would go over the word budget is skipped whole,
// never cut (chunks are at most 1200 words, so with the defaults this only
// happens with unusual candidates), and the next one is tried; a chunk
// without text never takes a full slot.
//
// Then, in rank order, the candidates left out (later chunks of delivered
// sessions, chunks beyond the full slots or the budget) become one-line
// summaries, at most opts.Summaries: the candidate's annotation, or when it
// has none the first sentence of its text clipped to SummaryWords. The
// summaries stop at the first one that would go over the budget.
//
// A candidate whose ID was already seen is skipped. Labels are made unique
// (as citations compare them, see [Context.Find]) in delivery order: items
// sharing a label get the stem of their file appended, " (" + stem + ")",
// or the file's path when the stems are equal too, and " (2)", " (3)"...
// when even that repeats. Square brackets in labels become parentheses,
// backticks become quotes, a label longer than 200 bytes is clipped, and an
// empty label is replaced by the title, the file stem or "#" + ID, so that
// every label can be cited.
func Assemble(cands []Candidate, opts AssembleOptions) Context {
	nFull := orDefault(opts.Full, DefaultFull)
	nSum := orDefault(opts.Summaries, DefaultSummaries)
	budget := opts.WordBudget
	if budget == 0 {
		budget = DefaultWordBudget
	}
	fits := func(used, w int) bool { return budget < 0 || used+w <= budget }

	var ctx Context
	var order []int // session of each full chunk, -1 outside sessions
	seen := make(map[int64]bool, len(cands))
	taken := make(map[string]bool)
	var left []int
	for i, c := range cands {
		if seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		text := strings.TrimSpace(c.Text)
		key := sessionKey(c)
		if len(ctx.Full) < nFull && text != "" && !taken[key] {
			if w := wordCount(text); fits(ctx.Words, w) {
				ctx.Full = append(ctx.Full, Item{ID: c.ID, Label: label(c), File: c.File, Kind: KindFull, Text: text, Gist: summaryLine(c), Rank: len(ctx.Full)})
				ctx.Words += w
				if c.InSession {
					order = append(order, c.Session)
				} else {
					order = append(order, -1)
				}
				taken[key] = true
				continue
			}
		}
		left = append(left, i)
	}
	if opts.More > 0 {
		rest := left[:0:0]
		more := 0
		for _, i := range left {
			c := cands[i]
			text := strings.TrimSpace(c.Text)
			key := sessionKey(c)
			if more < opts.More && text != "" && !taken[key] {
				ctx.Full = append(ctx.Full, Item{ID: c.ID, Label: label(c), File: c.File, Kind: KindFull, Text: text, Gist: summaryLine(c), Rank: len(ctx.Full)})
				ctx.Words += wordCount(text)
				if c.InSession {
					order = append(order, c.Session)
				} else {
					order = append(order, -1)
				}
				taken[key] = true
				more++
				continue
			}
			rest = append(rest, i)
		}
		left = rest
	}
	for _, i := range left {
		if len(ctx.Summaries) >= nSum {
			break
		}
		c := cands[i]
		s := summaryLine(c)
		if s == "" {
			continue
		}
		w := wordCount(s)
		if !fits(ctx.Words, w) {
			break
		}
		ctx.Summaries = append(ctx.Summaries, Item{ID: c.ID, Label: label(c), File: c.File, Kind: KindSummary, Text: s, Gist: s})
		ctx.Words += w
	}
	if opts.Chronological {
		idx := make([]int, len(ctx.Full))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return order[idx[a]] < order[idx[b]] })
		full := make([]Item, len(idx))
		for i, j := range idx {
			full[i] = ctx.Full[j]
		}
		ctx.Full = full
	}
	uniqueLabels(ctx.Full, ctx.Summaries)
	return ctx
}

func orDefault(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// sessionKey names the session a candidate belongs to, for the rule of one
// full slot per session.
func sessionKey(c Candidate) string {
	switch {
	case c.InSession:
		return "s\x00" + c.File + "\x00" + strconv.Itoa(c.Session)
	case c.File != "":
		return "f\x00" + c.File
	}
	// Without a file there is nothing to group by.
	return "i\x00" + strconv.FormatInt(c.ID, 10)
}

// maxLabelBytes clips labels (a heading can be a whole sentence); a
// citation longer than maxGroupBytes is not read as one.
const maxLabelBytes = 200

// label is the candidate's label made citable: one line, no square
// brackets or backticks, at most maxLabelBytes, never empty.
func label(c Candidate) string {
	for _, l := range []string{c.Label, c.Title, fileStem(c.File)} {
		l = txt.Collapse(quoteSafe.Replace(l))
		if len(l) > maxLabelBytes {
			l = clipBytes(l, maxLabelBytes)
		}
		if citableLabel(l) {
			return l
		}
	}
	return "#" + strconv.FormatInt(c.ID, 10)
}

// clipBytes cuts s to at most n bytes at a word boundary (or a rune
// boundary in a very long word) and marks the cut with "…".
func clipBytes(s string, n int) string {
	n -= len("…")
	cut := strings.LastIndexByte(s[:n+1], ' ')
	if cut <= 0 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// summaryLine is the one-line summary of a candidate: its annotation, or
// the first sentence of its matched passage, or of its text, that is not
// a heading (the first heading when there is none).
func summaryLine(c Candidate) string {
	if a := txt.Collapse(c.Annotation); a != "" {
		return clipWords(a, maxAnnotationWords)
	}
	for _, s := range sentences(c.Passage) {
		if !s.heading && letterWords(s.text) >= 3 {
			return clipWords(s.text, SummaryWords)
		}
	}
	first := ""
	for _, s := range sentences(c.Text) {
		if !s.heading && letterWords(s.text) >= 3 {
			return clipWords(s.text, SummaryWords)
		}
		if first == "" {
			first = s.text
		}
	}
	return clipWords(first, SummaryWords)
}

// uniqueLabels renames items so that no two labels have the same key.
func uniqueLabels(full, sums []Item) {
	items := make([]*Item, 0, len(full)+len(sums))
	for i := range full {
		items = append(items, &full[i])
	}
	for i := range sums {
		items = append(items, &sums[i])
	}
	groups := make(map[string][]*Item)
	var order []string
	for _, it := range items {
		k := labelKey(it.Label)
		if len(groups[k]) == 0 {
			order = append(order, k)
		}
		groups[k] = append(groups[k], it)
	}
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		for _, name := range []func(string) string{fileStem, filePath} {
			if distinctNames(g, name) {
				for _, it := range g {
					it.Label += " (" + name(it.File) + ")"
				}
				break
			}
		}
	}
	used := make(map[string]bool, len(items))
	for _, it := range items {
		base := it.Label
		for n := 2; used[labelKey(it.Label)]; n++ {
			it.Label = base + " (" + strconv.Itoa(n) + ")"
		}
		used[labelKey(it.Label)] = true
	}
}

// distinctNames reports whether name gives each item's file a different,
// non-empty name.
func distinctNames(g []*Item, name func(string) string) bool {
	seen := make(map[string]bool, len(g))
	for _, it := range g {
		n := labelKey(name(it.File))
		if n == "" || seen[n] {
			return false
		}
		seen[n] = true
	}
	return true
}

// fileStem is the file's name without folders and extension.
func fileStem(file string) string {
	p := filePath(file)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return p
}

// filePath is the file's path without its extension, made safe for a
// label.
func filePath(file string) string {
	p := txt.Collapse(quoteSafe.Replace(file))
	if len(p) > maxLabelBytes {
		p = clipBytes(p, maxLabelBytes)
	}
	base := p
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		base = p[i+1:]
	}
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		p = p[:len(p)-len(base)+i]
	}
	return p
}
