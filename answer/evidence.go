package answer

// Kinds of delivered evidence.
const (
	// KindFull is a whole chunk, delivered with its text.
	KindFull = "full"
	// KindSummary is a one-line summary of a candidate left out of the
	// full evidence.
	KindSummary = "summary"
)

// Candidate is one fused (and possibly reranked) retrieval result, as
// handed to [Assemble] in rank order.
type Candidate struct {
	// ID identifies the chunk in the index.
	ID int64
	// Ref is the chunk's public id, what [Delivery.Evidence] lists and a
	// citation of it names; [Assemble] does not read it.
	Ref string
	// Label names the evidence as a player would cite it: "Sesión 38 ›
	// La Dama Velada", "Fichas: Nix", "NPCs: Anika del Molino".
	Label string
	// File is the note's path relative to the notes folder.
	File string
	// Title is the note's title.
	Title string
	// Headings are the headings that lead to the chunk, outermost first.
	Headings []string
	// Session is the session number when InSession.
	Session int
	// InSession reports whether the chunk belongs to a session block of
	// its note.
	InSession bool
	// Text is the chunk's text.
	Text string
	// Annotation is the cached one-or-two sentence description of the
	// chunk; it may be empty.
	Annotation string
	// Passage is the part of the chunk that matched the question best
	// (BM25's paragraph), or "": without an annotation, a summary line is
	// taken from it rather than from the chunk's opening.
	Passage string
}

// Item is one piece of delivered evidence: a full chunk or a one-line
// summary. Its Label is unique (tolerantly: see [Context.Find]) within its
// [Context] and is what a citation must name.
type Item struct {
	ID    int64  `json:"id"`
	Label string `json:"label"`
	File  string `json:"file"`
	// Kind is KindFull or KindSummary.
	Kind string `json:"kind"`
	// Text is the chunk's text (full) or the summary line (summary).
	Text string `json:"text,omitempty"`
	// Gist is the item's one-line summary (for a summary, its Text): what
	// an abstention quotes of it.
	Gist string `json:"-"`
	// Rank is a full chunk's place in rank order (0 the best; [Assemble]
	// sets it), which [AssembleOptions.Chronological] does not follow.
	Rank int `json:"-"`
}

// Context is the evidence delivered for one answer: full chunks, best
// first, and a separate block of one-line summaries of other candidates.
type Context struct {
	Full      []Item
	Summaries []Item
	// Memory holds verified entries of long-term memory (KindMemory), cited
	// like the rest; Unconfirmed the entries the model is shown as not
	// settled, which nothing can cite (see [WithMemory]).
	Memory      []Item
	Unconfirmed []Unconfirmed
	// Words is the number of words in the items' texts, the quantity that
	// [AssembleOptions.WordBudget] caps.
	Words int
}

// Items returns the full items, then the memory items, then the
// summaries.
func (c Context) Items() []Item {
	out := make([]Item, 0, len(c.Full)+len(c.Memory)+len(c.Summaries))
	out = append(out, c.Full...)
	out = append(out, c.Memory...)
	return append(out, c.Summaries...)
}

// quotable returns the items whose sentences an extractive answer may
// quote: the memory items, then the full items, so that between equal
// matches what the table settled comes first.
func (c Context) quotable() []Item {
	out := make([]Item, 0, len(c.Full)+len(c.Memory))
	out = append(out, c.Memory...)
	return append(out, c.Full...)
}

// Find returns the delivered item a citation label names, matching as
// [Verify] does: ignoring case, accents, repeated spaces, the spacing around
// ":" and "›", and "›" written as ">" or "»". A label that names only the
// start of one or more delivered labels, up to a " › " or " (" ("Sesión 38"
// for "Sesión 38 › La Dama Velada"), finds the first of them, full items
// before summaries.
func (c Context) Find(label string) (Item, bool) {
	return newLabelIndex(c).find(label)
}
