package answer

import "strings"

// Draft is an answer before verification: a chat model's text, or what
// [Extract] made of the evidence.
type Draft struct {
	Text string
	// Closest reports that Text quotes what comes closest, says so, and
	// cites every quote ([ClosestAnswer]).
	Closest bool
	// Unmentioned are the question's words that no note uses, named when
	// the answer abstains.
	Unmentioned []string
}

// Verdict is a verified answer and the decision to abstain.
type Verdict struct {
	// Text is the answer to give: the draft with its invalid citations
	// removed, or the abstention.
	Text string
	// Segments are Text cut at its citations (see [Segments]).
	Segments []Segment
	// Citations are the citations of Text as verified: the draft's, valid
	// or not, or the abstention's when the answer abstains with one.
	Citations []Citation
	// Removed are the draft's invalid citations, taken out of Text.
	Removed []Citation
	// Uncited are the sentences of Text that claim without citing; none
	// for a closest answer or an abstention written here.
	Uncited []string
	// Grounding is GroundingDirect, GroundingClosest or GroundingNone.
	Grounding string
	// Abstained is true exactly when Grounding is GroundingNone.
	Abstained bool
}

// Judge verifies the draft's citations against the evidence delivered
// (see [Verify]) and decides whether the answer abstains. It abstains with
// its own text, [AbstentionWith] the sentences closest to question and
// opened by the draft's Unmentioned words, when the draft is empty or says
// that the notes do not answer while no citation of it is valid. A draft
// that says so while backing something with evidence abstains as written,
// unless it is a closest answer. lang and terms are as for [Closest].
func Judge(question string, d Draft, ctx Context, terms func(string) []string, lang string) Verdict {
	v := Verify(d.Text, ctx)
	out := Verdict{Text: v.Text, Segments: v.Segments, Citations: v.Citations, Removed: v.Removed, Uncited: v.Uncited, Grounding: GroundingDirect}
	if d.Closest {
		out.Grounding, out.Uncited = GroundingClosest, nil
	}
	says := SaysNotInNotes(d.Text)
	switch {
	case strings.TrimSpace(d.Text) == "" || (says && !anyValid(v.Citations)):
		text := AbstentionWith(lang, ctx, Closest(question, ctx, terms, lang))
		if len(d.Unmentioned) > 0 {
			text = Unmentioned(lang, d.Unmentioned) + " " + text
		}
		av := Verify(text, ctx)
		out.Text, out.Segments, out.Citations, out.Uncited = av.Text, av.Segments, av.Citations, nil
		out.Abstained, out.Grounding = true, GroundingNone
	case says && !d.Closest:
		out.Abstained, out.Grounding = true, GroundingNone
	}
	return out
}

// anyValid reports whether one of cs is valid.
func anyValid(cs []Citation) bool {
	for _, c := range cs {
		if c.Valid {
			return true
		}
	}
	return false
}
