package answer

import (
	"github.com/oraculo/oraculo/retrieve"
	txt "github.com/oraculo/oraculo/text"
)

// Evidence is one item delivered to the model, in its public shape (the
// engine's Answer.Evidence, `ask --json`).
type Evidence struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	File  string `json:"file"`
	// Kind is "full" (the whole chunk), "summary" (one line) or "memory"
	// (a verified entry of long-term memory: its ID is the entry's, mN,
	// and File the note it came from, or "").
	Kind string `json:"kind"`
	Text string `json:"text,omitempty"`
}

// ContextInfo sizes what the model was shown.
type ContextInfo struct {
	Full      int `json:"full"`
	Summaries int `json:"summaries"`
	// Memory counts the verified memory entries delivered.
	Memory int `json:"memory"`
	Words  int `json:"words"`
}

// Delivery is the evidence the model is shown, with the public id of
// each item: what [Delivery.Evidence] lists and what a citation of the
// item names.
type Delivery struct {
	// Context is the evidence itself.
	Context Context
	// ids are the public ids of the items of Context, by item id.
	ids map[int64]string
}

// Deliver chooses the evidence from the hits in rank order (see
// [deliver]), each read with its annotation in notes (by
// [retrieve.Hit.Chunk]) and named by its public id.
func Deliver(hits []retrieve.Hit, notes map[int64]string, opts AssembleOptions) *Delivery {
	return deliver(candidates(hits, notes), opts)
}

// candidates are the hits as [Assemble] reads them, each with its
// annotation in notes.
func candidates(hits []retrieve.Hit, notes map[int64]string) []Candidate {
	out := make([]Candidate, len(hits))
	for i, h := range hits {
		out[i] = Candidate{ID: h.Chunk, Ref: h.ID, Label: h.Label, File: h.File, Title: h.Title, Headings: h.Headings,
			Text: h.Text, Annotation: notes[h.Chunk], Passage: h.Passage}
		if h.Session != nil {
			out[i].Session, out[i].InSession = *h.Session, true
		}
	}
	return out
}

// deliver chooses the evidence from the candidates in rank order (see
// [Assemble] with opts), each Candidate.Ref its public id. The evidence
// is the notes as their reader sees them ([txt.Render]: wikilinks as
// their shown text, no highlight or footnote marks): what the model
// reads, what an answer quotes and what [Delivery.Evidence] shows.
func deliver(cands []Candidate, opts AssembleOptions) *Delivery {
	d := &Delivery{ids: make(map[int64]string, len(cands))}
	shown := make([]Candidate, len(cands))
	for i, c := range cands {
		d.ids[c.ID] = c.Ref
		c.Text, c.Annotation, c.Passage = txt.Render(c.Text), txt.Render(c.Annotation), txt.Render(c.Passage)
		shown[i] = c
	}
	d.Context = Assemble(shown, opts)
	return d
}

// DeliverOptions are the options [Deliver] chooses an answer's evidence
// with: in session order for a timeline, and then, when no model writes
// the answer, more sessions than a model is shown, since an extractive
// timeline quotes one sentence of each (see [TimelineFull]).
func DeliverOptions(timeline, extractive bool) AssembleOptions {
	opts := AssembleOptions{Chronological: timeline}
	if timeline && extractive {
		opts.More = TimelineFull - DefaultFull
	}
	return opts
}

// Refer records ref as the public id of the item id, one added to
// d.Context after [Deliver] (a verified memory entry).
func (d *Delivery) Refer(id int64, ref string) { d.ids[id] = ref }

// Info sizes the evidence.
func (d *Delivery) Info() ContextInfo {
	c := d.Context
	return ContextInfo{Full: len(c.Full), Summaries: len(c.Summaries), Memory: len(c.Memory), Words: c.Words}
}

// Evidence lists the evidence in its public shape, in the order of
// [Context.Items]; never nil.
func (d *Delivery) Evidence() []Evidence {
	out := []Evidence{}
	for _, it := range d.Context.Items() {
		out = append(out, Evidence{ID: d.ids[it.ID], Label: it.Label, File: it.File, Kind: it.Kind, Text: it.Text})
	}
	return out
}
