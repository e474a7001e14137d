package answer

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
	// NoNotes reports that the index holds no note the asker may see; the
	// answer says so ([EmptyIndex]), Owner telling how to add notes.
	NoNotes, Owner bool
	// Quoted reports that Text is the notes' own sentences, each cited
	// ([ExtractWith]): a note that says "no se habla de eso" is quoted,
	// not an answer saying the notes do not answer.
	Quoted bool
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
	// for a closest answer or an abstention written here. Each is marked
	// in Text and Segments (see [Check]).
	Uncited []string
	// Sentences counts the sentences of Text that claim something, and
	// Supported those of them with a valid citation: every one for a
	// closest answer or an abstention written here, whose lines quote the
	// evidence they cite.
	Sentences, Supported int
	// Grounding is GroundingDirect, GroundingClosest or GroundingNone.
	Grounding string
	// Abstained is true exactly when Grounding is GroundingNone.
	Abstained bool
}

// Judge verifies the draft's citations against the evidence delivered
// and marks each sentence that claims without a valid citation (see
// [Check]), and decides whether the answer abstains. It abstains with its
// own text, [AbstentionWith] the sentences closest to question and opened
// by the draft's Unmentioned words, when no citation of the draft is
// valid: an empty draft, one that says that the notes do not answer, and
// one whose every claim is unsupported alike. A draft that says so while
// backing something with evidence abstains as written, unless it is a
// closest answer. lang and terms are as for [Closest].
func Judge(question string, d Draft, ctx Context, terms func(string) []string, lang string) Verdict {
	if d.NoNotes {
		text := EmptyIndex(lang, d.Owner)
		return Verdict{Text: text, Segments: []Segment{{Text: text}}, Grounding: GroundingNone, Abstained: true}
	}
	v := Verify(d.Text, ctx)
	if !anyValid(v.Citations) {
		text := AbstentionWith(lang, ctx, Closest(question, ctx, terms, lang))
		if len(d.Unmentioned) > 0 {
			text = Unmentioned(lang, d.Unmentioned) + " " + text
		}
		av := Verify(text, ctx)
		n := len(av.claims)
		return Verdict{Text: av.Text, Segments: av.Segments, Citations: av.Citations, Removed: v.Removed,
			Grounding: GroundingNone, Abstained: true, Sentences: n, Supported: n}
	}
	out := Verdict{Grounding: GroundingDirect, Citations: v.Citations, Removed: v.Removed}
	if d.Closest {
		n := len(v.claims)
		out.Text, out.Segments, out.Grounding, out.Sentences, out.Supported = v.Text, v.Segments, GroundingClosest, n, n
		return out
	}
	m := mark(v, v.claims, lang)
	out.Text, out.Segments, out.Uncited, out.Sentences, out.Supported = m.Text, m.Segments, m.Uncited, m.Sentences, m.Supported
	if !d.Quoted && SaysNotInNotes(d.Text) {
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
