package store

// ChunkData is what a chunk is, whether being stored or read back.
type ChunkData struct {
	// UID is the chunk's stable public id.
	UID string
	// Hash is the sha256 of the chunk text, the key of per-chunk caches.
	Hash      string
	Ordinal   int
	Session   int
	InSession bool
	Headings  []string
	Label     string
	WordStart int
	WordEnd   int
	ByteStart int
	ByteEnd   int
	// PageStart and PageEnd are the pages of a paged document (a PDF) the
	// chunk starts and ends on, from 1; 0 for a note without pages.
	PageStart int
	PageEnd   int
	Text      string
}

// Words returns the chunk's word count.
func (c ChunkData) Words() int { return c.WordEnd - c.WordStart }

// Chunk is a chunk as read back from the store, with its document.
type Chunk struct {
	ChunkData
	ID         int64
	Root       string
	Path       string
	DocTitle   string
	Visibility string
	// Restricted chunks belong to DM-only notes.
	Restricted bool
}

// Match is a chunk found by the keyword search.
type Match struct {
	Chunk Chunk
	// Score is the BM25 score of the chunk's best paragraph (plus a share
	// of its other matching ones): higher is better, always positive.
	Score float64
	// Child is the ordinal of that best paragraph within the chunk, and
	// Passage its text.
	Child   int
	Passage string
}

// BM25Options tune the keyword search.
type BM25Options struct {
	// HeadingWeight multiplies matches in the heading path; body matches
	// weigh 1. Zero means [DefaultHeadingWeight].
	HeadingWeight float64
	// SiblingWeight adds this share of the scores of a chunk's best other
	// matching paragraphs to its best paragraph's. Zero means the keyword
	// path's default; a negative value ranks by the best paragraph alone.
	SiblingWeight float64
	// Public leaves out the paragraphs of restricted (DM-only) notes, in
	// the query itself: they never reach the ranking.
	Public bool
	// Filter keeps only the paragraphs of the chunks it lets through, in
	// the query itself.
	Filter Filter
	// Lang, when set, keeps only the paragraphs of notes analysed in that
	// language ([DocumentRecord.Lang]), in the query itself: the terms
	// searched are the question analysed in the same language. A store
	// without [LangCounter] ignores it.
	Lang string
}

// Filter restricts a search to some chunks before anything is ranked: the
// chunks of the given sessions, of notes under the given folders, of notes
// whose front matter carries one of the given tags, of the sessions up to
// one (the campaign as it stood then). Each non-empty field must hold
// (and); within a field any value may (or). Folders match at the start of
// a note's path and tags whatever the case. The zero Filter restricts
// nothing.
type Filter struct {
	Sessions []int    `json:"sessions,omitempty"`
	Folders  []string `json:"folders,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	// UntilSession, when positive, keeps only the chunks of sessions up
	// to it, inclusive; a note of no session is left out, as under
	// Sessions. The engine resolves it into Sessions before a store sees
	// it (see [Filter.Through]); a store ignores it.
	UntilSession int `json:"until_session,omitempty"`
}

// IsZero reports whether f restricts nothing.
func (f Filter) IsZero() bool {
	return len(f.Sessions) == 0 && len(f.Folders) == 0 && len(f.Tags) == 0 && f.UntilSession <= 0
}

// Stats are the store's counts.
type Stats struct {
	Documents int `json:"documents"`
	// DocumentsByType counts the documents by their file's extension,
	// lowercase without the dot ("md", "txt", "pdf", "docx"...).
	DocumentsByType map[string]int `json:"documents_by_type"`
	Sessions        int            `json:"sessions"`
	Chunks          int            `json:"chunks"`
	Children        int            `json:"children"`
	// Bytes is the store's size on disk (for SQLite, its pages: the file's
	// size once the write-ahead log is folded in), 0 when it is not local.
	Bytes  int64 `json:"index_bytes"`
	Schema int   `json:"schema_version"`
	// Langs counts the documents by the language they were analysed in
	// ("es", "en"); nil when the store does not keep it.
	Langs map[string]int `json:"langs,omitempty"`
}
