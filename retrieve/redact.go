package retrieve

import "github.com/oraculo/oraculo/notelink"

// Redact rewrites the note text of hits (text, passage, title, headings)
// with redact: for a player, a [notelink.Directory.Redact] of the notes
// they may see, so that no hit names a note they may not.
func Redact(hits []Hit, redact func(string) string) {
	for i := range hits {
		h := &hits[i]
		h.Text, h.Passage, h.Title = redact(h.Text), redact(h.Passage), redact(h.Title)
		h.Headings = notelink.RedactAll(h.Headings, redact)
	}
}
