package link

import (
	"regexp"
	"strings"

	textpkg "github.com/oraculo/oraculo/text"
)

// The sentence a citation rests on: for a claim (the sentence before a
// citation, [LastSentence]), the sentence of the cited passage that
// shares the most words with it. The passage pages (/c/{id}), the JSON
// API's ?claim= and the terminal's /open mark the same sentence because
// they all ask this file.

// Sentence is one sentence of a passage.
type Sentence struct {
	// Text is the sentence as [textpkg.Sentences] gives it (white space
	// collapsed).
	Text string
	// Para counts the passage's paragraphs (blocks between blank lines
	// that hold a sentence) from 0.
	Para int
	// Start and End are the sentence's bytes in the passage as written,
	// lines and all; both -1 when it could not be found there.
	Start, End int

	words map[string]bool
}

// Sentences cuts passage into its sentences, paragraph by paragraph.
func Sentences(passage string) []Sentence {
	var sents []Sentence
	para, offset := 0, 0
	for _, block := range strings.SplitAfter(passage, "\n\n") {
		found := false
		for _, s := range textpkg.Sentences(block, nil) {
			found = true
			sent := Sentence{Text: s, Para: para, Start: -1, End: -1, words: textpkg.Keywords(s)}
			if loc := locate(passage[offset:], s); loc != nil {
				sent.Start, sent.End = offset+loc[0], offset+loc[1]
				offset += loc[1]
			}
			sents = append(sents, sent)
		}
		if found {
			para++
		}
	}
	return sents
}

// locate finds sentence s (white space collapsed) in text as written.
func locate(text, s string) []int {
	fields := strings.Fields(s)
	for i, f := range fields {
		fields[i] = regexp.QuoteMeta(f)
	}
	re, err := regexp.Compile(strings.Join(fields, `\s+`))
	if err != nil {
		return nil
	}
	return re.FindStringIndex(text)
}

// Cited returns which of sents the claims rest on: for each claim, the
// first sentence sharing the most words with it, and none for a claim
// that shares no word (or is empty). Words of fewer than four letters,
// accents aside, do not count ([textpkg.Keywords]).
func Cited(sents []Sentence, claims []string) map[int]bool {
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
	return marked
}
