package load

import (
	"fmt"
	"testing"
)

// The footnote queue DOCX and ODT share: notes go after the paragraph's
// blocks in the order they were cited; a note citing a note queues it
// (the flush reading the outer one does not start another) and it comes
// after the outer one; the paragraph's blocks are kept; blank note
// paragraphs go.
func TestNoteQueue(t *testing.T) {
	a, b, c := &xnode{text: "A"}, &xnode{text: "B"}, &xnode{text: "C"}
	var q noteQueue
	blocks := []Block{{Level: 1, Text: "Párrafo"}}
	q.add(a)
	q.add(b)
	n := 0
	var read func(note *xnode) string
	read = func(note *xnode) string {
		n++
		blocks = append(blocks, Block{Level: 2, Text: " " + note.text + " "}, Block{Text: "  "})
		if note == a {
			q.add(c)
			q.flush(&blocks, read) // a paragraph of the note ending: no-op
		}
		return fmt.Sprintf("[%d] ", n)
	}
	q.flush(&blocks, read)
	want := []Block{{Level: 1, Text: "Párrafo"}, {Text: "[1] A"}, {Text: "[2] B"}, {Text: "[3] C"}}
	sameBlocks(t, "queue", blocks, want)
	if len(q.notes) != 0 || q.reading {
		t.Fatalf("the queue is not empty after flush: %+v", q)
	}
}
