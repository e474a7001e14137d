package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/notelink"
	"github.com/oraculo/oraculo/snapshot"
)

// redactor returns what the note text handed to the caller becomes: for
// the DM, the text as written; for a player, each link to a note the
// player may not see written as the text it shows, so that it names
// nothing hidden (see [notelink.Directory.Redact]).
func (e *Engine) redactor(ctx context.Context, v *snapshot.Snapshot) (func(string) string, error) {
	if !isPlayer(ctx) {
		return func(s string) string { return s }, nil
	}
	dir, err := v.Notes(ctx, true)
	if err != nil {
		return nil, err
	}
	return dir.Redact, nil
}

// redactHits rewrites the note text of hits with redact (see
// [Engine.redactor]).
func redactHits(hits []Hit, redact func(string) string) {
	for i := range hits {
		h := &hits[i]
		h.Text, h.Passage, h.Title = redact(h.Text), redact(h.Passage), redact(h.Title)
		h.Headings = notelink.RedactAll(h.Headings, redact)
	}
}
