package answer

import "strings"

// PublicCitation is a [Citation] in its public shape (the engine's
// Citation, `ask --json`): the evidence it names by public id.
type PublicCitation struct {
	// Label is the citation as written in the answer.
	Label string `json:"label"`
	// Evidence is the id of the evidence it resolved to, or null.
	Evidence *string `json:"evidence"`
	// Kind is "full", "summary" or "memory" for a resolved citation.
	Kind      string `json:"kind,omitempty"`
	Delivered bool   `json:"delivered"`
	Valid     bool   `json:"valid"`
}

// PublicSegment is a [Segment] in its public shape (the engine's
// Segment): one part of an answer's text.
type PublicSegment struct {
	// Text is the part as written, brackets included for a citation group.
	Text string `json:"text"`
	// Citations are the labels of a citation group, in order, each with
	// the evidence it names; absent for plain text.
	Citations []PublicCitation `json:"citations,omitempty"`
	// Supported is false for a sentence that claims something without a
	// valid citation; absent otherwise.
	Supported *bool `json:"supported,omitempty"`
	// Mark is "unsupported" for the mark that follows such a sentence
	// ("_(sin fuente)_"): Oráculo's words, not the answer's.
	Mark string `json:"mark,omitempty"`
}

// Citation returns c in its public shape: the item it names by the public
// id d holds for it, none when d holds none.
func (d *Delivery) Citation(c Citation) PublicCitation {
	out := PublicCitation{Label: c.Label, Kind: c.Kind, Delivered: c.Delivered, Valid: c.Valid}
	if c.Evidence != nil {
		if id, ok := d.ids[*c.Evidence]; ok {
			out.Evidence = &id
		}
	}
	return out
}

// Citations returns cs in their public shape (see [Delivery.Citation]),
// in order; never nil.
func (d *Delivery) Citations(cs []Citation) []PublicCitation {
	out := make([]PublicCitation, 0, len(cs))
	for _, c := range cs {
		out = append(out, d.Citation(c))
	}
	return out
}

// Segments returns segs in their public shape, each citation resolved as
// [Delivery.Citation] does; never nil.
func (d *Delivery) Segments(segs []Segment) []PublicSegment {
	out := make([]PublicSegment, 0, len(segs))
	for _, s := range segs {
		p := PublicSegment{Text: s.Text, Supported: s.Supported, Mark: s.Mark}
		for _, c := range s.Citations {
			p.Citations = append(p.Citations, d.Citation(c))
		}
		out = append(out, p)
	}
	return out
}

// SegmentsText is the text segs make together, marks included.
func SegmentsText(segs []PublicSegment) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteString(s.Text)
	}
	return b.String()
}

// Cited returns the evidence the valid citations name, each once, in the
// order of its first citation: an answer's sources.
func Cited(evidence []Evidence, citations []PublicCitation) []Evidence {
	byID := make(map[string]Evidence, len(evidence))
	for _, ev := range evidence {
		byID[ev.ID] = ev
	}
	seen := map[string]bool{}
	var out []Evidence
	for _, c := range citations {
		if !c.Valid || c.Evidence == nil || seen[*c.Evidence] {
			continue
		}
		seen[*c.Evidence] = true
		if ev, ok := byID[*c.Evidence]; ok {
			out = append(out, ev)
		}
	}
	return out
}
