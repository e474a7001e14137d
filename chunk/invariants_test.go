package chunk

import (
	"strings"
	"testing"
)

// checkInvariants verifies what every Split result must hold, whatever the
// input: exact slices, word ranges as strings.Fields counts them, every word
// covered, the cap, document order and children inside their parent.
func checkInvariants(t *testing.T, doc Document, opts Options, chunks []Chunk) {
	t.Helper()
	total := len(strings.Fields(doc.Text))
	covered := make([]bool, total)
	labels := map[string]bool{}
	prevStart, prevWord := -1, -1
	for i, c := range chunks {
		if c.Ordinal != i {
			t.Fatalf("chunk %d: ordinal %d", i, c.Ordinal)
		}
		if c.ByteStart < 0 || c.ByteEnd > len(doc.Text) || c.ByteStart >= c.ByteEnd {
			t.Fatalf("chunk %d: bad byte range [%d,%d) of %d", i, c.ByteStart, c.ByteEnd, len(doc.Text))
		}
		if c.Text != doc.Text[c.ByteStart:c.ByteEnd] {
			t.Fatalf("chunk %d: Text is not doc.Text[%d:%d]", i, c.ByteStart, c.ByteEnd)
		}
		n := len(strings.Fields(c.Text))
		if n != c.Words() || n == 0 {
			t.Fatalf("chunk %d: %d words in text, range [%d,%d)", i, n, c.WordStart, c.WordEnd)
		}
		if before := len(strings.Fields(doc.Text[:c.ByteStart])); before != c.WordStart {
			t.Fatalf("chunk %d: WordStart %d, but %d words precede it", i, c.WordStart, before)
		}
		if c.Words() > opts.MaxWords {
			t.Fatalf("chunk %d: %d words over cap %d", i, c.Words(), opts.MaxWords)
		}
		if c.ByteStart < prevStart || c.WordStart < prevWord {
			t.Fatalf("chunk %d: out of document order", i)
		}
		prevStart, prevWord = c.ByteStart, c.WordStart
		for w := c.WordStart; w < c.WordEnd; w++ {
			covered[w] = true
		}
		if labels[c.Label] {
			t.Fatalf("chunk %d: repeated label %q", i, c.Label)
		}
		labels[c.Label] = true
		if c.Label == "" {
			t.Fatalf("chunk %d: empty label", i)
		}
		checkChildren(t, doc, i, c)
	}
	for w, ok := range covered {
		if !ok {
			t.Fatalf("word %d (%q) is in no chunk", w, strings.Fields(doc.Text)[w])
		}
	}
}

func checkChildren(t *testing.T, doc Document, i int, c Chunk) {
	t.Helper()
	words := 0
	prevEnd := c.ByteStart
	for k, ch := range c.Children {
		if ch.Ordinal != k {
			t.Fatalf("chunk %d child %d: ordinal %d", i, k, ch.Ordinal)
		}
		if ch.ByteStart < prevEnd || ch.ByteEnd > c.ByteEnd || ch.ByteStart >= ch.ByteEnd {
			t.Fatalf("chunk %d child %d: range [%d,%d) outside parent [%d,%d) or out of order",
				i, k, ch.ByteStart, ch.ByteEnd, c.ByteStart, c.ByteEnd)
		}
		if ch.Text != doc.Text[ch.ByteStart:ch.ByteEnd] || strings.TrimSpace(ch.Text) == "" {
			t.Fatalf("chunk %d child %d: bad text %q", i, k, ch.Text)
		}
		prevEnd = ch.ByteEnd
		words += len(strings.Fields(ch.Text))
	}
	if words != c.Words() {
		t.Fatalf("chunk %d: children hold %d words, chunk %d", i, words, c.Words())
	}
}
