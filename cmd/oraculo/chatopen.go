package main

import (
	"regexp"
	"strings"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/link"
	textpkg "github.com/oraculo/oraculo/text"
)

// The chat's /open N shows source N with the sentences the answer rests
// on marked: for each claim citing it, the sentence of the passage that
// shares the most words with the claim (the rule the server's passage
// pages follow, server/links.go).

// claimsFor returns the answer's sentences that cite evidence id: for each
// citation group naming it, the last sentence of the text before it.
func claimsFor(a *oraculo.Answer, id string) []string {
	var claims []string
	var before strings.Builder
	for _, seg := range a.Segments {
		if len(seg.Citations) == 0 {
			before.WriteString(seg.Text)
			continue
		}
		for _, c := range seg.Citations {
			if c.Valid && c.Evidence != nil && *c.Evidence == id {
				if s := link.LastSentence(before.String()); s != "" {
					claims = append(claims, s)
				}
				break
			}
		}
		before.Reset()
	}
	return claims
}

// citedSpans finds, in a passage, the sentence that shares the most words
// with each claim (the one the claim rests on): byte ranges into passage,
// in order, none for a claim that shares no word. Words of fewer than four
// letters, accents aside, do not count.
func citedSpans(passage string, claims []string) [][2]int {
	type sentence struct {
		start, end int
		words      map[string]bool
	}
	var sents []sentence
	offset := 0
	for _, block := range strings.SplitAfter(passage, "\n\n") {
		for _, s := range textpkg.Sentences(block, nil) {
			// Sentences collapses white space: find the sentence in the
			// passage as written, lines and all.
			fields := strings.Fields(s)
			for i, f := range fields {
				fields[i] = regexp.QuoteMeta(f)
			}
			re, err := regexp.Compile(strings.Join(fields, `\s+`))
			if err != nil {
				continue
			}
			loc := re.FindStringIndex(passage[offset:])
			if loc == nil {
				continue
			}
			sents = append(sents, sentence{offset + loc[0], offset + loc[1], textpkg.Keywords(s)})
			offset += loc[1]
		}
	}
	marked := map[int]bool{}
	for _, claim := range claims {
		want := textpkg.Keywords(claim)
		best, top := -1, 0
		for i, s := range sents {
			n := 0
			for w := range s.words {
				if want[w] {
					n++
				}
			}
			if n > top {
				best, top = i, n
			}
		}
		if best >= 0 {
			marked[best] = true
		}
	}
	var spans [][2]int
	for i, s := range sents {
		if marked[i] {
			spans = append(spans, [2]int{s.start, s.end})
		}
	}
	return spans
}

// highlight puts termrender's marks around spans of text.
func highlight(text string, spans [][2]int) string {
	var b strings.Builder
	last := 0
	for _, s := range spans {
		b.WriteString(text[last:s[0]])
		b.WriteString(termrender.MarkStart + text[s[0]:s[1]] + termrender.MarkEnd)
		last = s[1]
	}
	b.WriteString(text[last:])
	return b.String()
}
