package answer

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/chat"
)

// fakeNotes is an index holding terms, with units notes (see prefixNotes
// for one that also looks a term's start up).
type fakeNotes struct {
	terms map[string]bool
	units int
	err   error
	asked []string
}

func (n *fakeNotes) TermUsed(_ context.Context, term string, _ bool) (bool, error) {
	n.asked = append(n.asked, term)
	return n.terms[term], n.err
}

func (n *fakeNotes) Units(context.Context, bool) (int, error) { return n.units, n.err }

// prefixNotes is a fakeNotes that also looks up a term's start.
type prefixNotes struct{ *fakeNotes }

func (n prefixNotes) TermPrefixUsed(_ context.Context, prefix string, _ bool) (bool, error) {
	for t := range n.terms {
		if strings.HasPrefix(t, prefix) {
			return true, nil
		}
	}
	return false, nil
}

// TestTermOrKinUsed: a term is used when the notes hold it, or, with a
// store that looks prefixes up, a term sharing all of it but its last two
// letters (four at least).
func TestTermOrKinUsed(t *testing.T) {
	n := &fakeNotes{terms: map[string]bool{"garrik": true, "confesion": true}}
	tests := []struct {
		notes Notes
		term  string
		want  bool
	}{
		{n, "garrik", true},
		{n, "confeso", false},
		{prefixNotes{n}, "confesar", true}, // "confes"
		{prefixNotes{n}, "gar", false},     // too short for a prefix
		{prefixNotes{n}, "vesper", false},
	}
	for _, tt := range tests {
		if got, err := termOrKinUsed(context.Background(), tt.notes, true, tt.term); got != tt.want || err != nil {
			t.Errorf("termOrKinUsed(%q) = %v, %v; want %v", tt.term, got, err, tt.want)
		}
	}
}

// replyModel replies reply, or fails with err.
type replyModel struct {
	reply string
	err   error
}

func (replyModel) ID() string { return "test/model" }

func (m replyModel) Chat(_ context.Context, _ chat.Request, onDelta func(string)) (string, error) {
	if m.err != nil {
		return "", m.err
	}
	if onDelta != nil {
		onDelta(m.reply)
	}
	return m.reply, nil
}

// TestWrite: the model writes the draft when it answers, streaming it and
// its verified text; when it fails the draft is extracted and the failure
// kept; with nothing found and no note the asker may see, the draft says
// there are no notes, to the owner how to add them.
func TestWrite(t *testing.T) {
	ctx := context.Background()
	ev := deliver([]Candidate{{ID: 7, Ref: "c7", Label: "Sesión 1", File: "S1.md",
		Text: "Garrik confesó el robo en el puerto. Luego huyó al norte."}}, AssembleOptions{})
	notes := &fakeNotes{terms: map[string]bool{"garrik": true}, units: 1}
	o := DraftOptions{Question: "¿Qué confesó Garrik?", Lang: "es", Notes: notes, Found: true}

	var streamed []string
	o.Model = replyModel{reply: "Confesó el robo [Sesión 1]. Después"}
	o.OnVerified = func(segs []PublicSegment) { streamed = append(streamed, SegmentsText(segs)) }
	w, err := Write(ctx, ctx, ev, o)
	if err != nil || w.Mode != "generated" || w.Model != "test/model" || w.Failed != nil || w.Draft.Text != "Confesó el robo [Sesión 1]. Después" {
		t.Fatalf("generated: %+v, %v", w, err)
	}
	if len(streamed) != 1 || streamed[0] != "Confesó el robo [Sesión 1]." {
		t.Errorf("verified as it went: %q", streamed)
	}

	failure := errors.New("boom")
	o.Model = replyModel{err: failure}
	w, err = Write(ctx, ctx, ev, o)
	if err != nil || w.Mode != "extractive" || w.Model != "" || !errors.Is(w.Failed, failure) || !strings.Contains(w.Draft.Text, "[Sesión 1]") {
		t.Fatalf("fell back: %+v, %v", w, err)
	}

	o.Model, o.Found, notes.units = nil, false, 0
	for _, public := range []bool{false, true} {
		o.Public = public
		w, err = Write(ctx, ctx, deliver(nil, AssembleOptions{}), o)
		if err != nil || !w.Draft.NoNotes || w.Draft.Owner == public {
			t.Errorf("no notes, public %v: %+v, %v", public, w.Draft, err)
		}
	}
	notes.err = errors.New("disk")
	if _, err = Write(ctx, ctx, deliver(nil, AssembleOptions{}), o); !errors.Is(err, notes.err) {
		t.Errorf("a failed lookup: %v", err)
	}
}

// TestDelivery: the evidence is rendered as its reader sees it, listed
// with public ids, and citations name them, a memory entry's once
// referred.
func TestDelivery(t *testing.T) {
	ev := deliver([]Candidate{{ID: 7, Ref: "c7", Label: "Sesión 1", File: "S1.md",
		Text: "[[Garrik el Rojo|Garrik]] confesó ==el robo==."}}, AssembleOptions{})
	got := ev.Evidence()
	if len(got) != 1 || got[0].ID != "c7" || got[0].Text != "Garrik confesó el robo." || got[0].Kind != KindFull {
		t.Fatalf("Evidence() = %+v", got)
	}
	if info := ev.Info(); info.Full != 1 || info.Summaries != 0 || info.Words == 0 {
		t.Errorf("Info() = %+v", info)
	}
	v := Verify("Confesó [Sesión 1] [Sesión 9].", ev.Context)
	cs := ev.Citations(append(v.Citations, v.Removed...))
	if len(cs) != 3 || cs[0].Evidence == nil || *cs[0].Evidence != "c7" || !cs[0].Valid || cs[1].Evidence != nil || cs[1].Valid {
		t.Errorf("Citations = %+v", cs)
	}
	segs := ev.Segments(v.Segments)
	if SegmentsText(segs) != v.Text || segs[1].Citations[0].Evidence == nil {
		t.Errorf("Segments = %+v", segs)
	}
	ev.Refer(-1, "m1")
	if c := ev.Citation(Citation{Label: "Memoria: x", Evidence: new(int64(-1))}); c.Evidence == nil || *c.Evidence != "m1" {
		t.Errorf("a referred entry's citation = %+v", c)
	}
	if e := deliver(nil, AssembleOptions{}).Evidence(); e == nil {
		t.Error("no evidence is nil, not empty")
	}
}
