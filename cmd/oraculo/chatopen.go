package main

import (
	"strings"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
	"github.com/oraculo/oraculo/link"
)

// The chat's /open N shows source N with the sentences the answer rests
// on marked: for each claim citing it, the sentence of the passage that
// shares the most words with the claim (link.Cited, the rule the
// server's passage pages follow).

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

// citedSpans finds, in a passage, the sentence each claim rests on
// ([link.Cited]): byte ranges into passage, in order, none for a claim
// that shares no word.
func citedSpans(passage string, claims []string) [][2]int {
	sents := link.Sentences(passage)
	marked := link.Cited(sents, claims)
	var spans [][2]int
	for i, s := range sents {
		if marked[i] && s.Start >= 0 {
			spans = append(spans, [2]int{s.Start, s.End})
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
