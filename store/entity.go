package store

import "encoding/json"

// Compendium scopes: every note, or only those players may see.
const (
	ScopeDM     = "dm"
	ScopePlayer = "player"
)

// Entity is one compendium entry as stored.
type Entity struct {
	ID      int64    `json:"-"`
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Aliases []string `json:"aliases"`
	// Note is the path of the note that describes the entity, "" if none.
	Note   string `json:"note"`
	Source string `json:"source"`
	// Mentions maps chunk ids to how many times the chunk names the entity.
	Mentions map[int64]int `json:"-"`
}

// Mention is one chunk that names an entity, with what the entity path
// orders by.
type Mention struct {
	ChunkID   int64
	Count     int
	Session   int
	InSession bool
	// Path is the path of the chunk's note.
	Path string
}

// NoteSource is a note as the compendium builder needs it: reassembled
// from its chunks (whitespace between chunks aside, the same text).
type NoteSource struct {
	Root, Path, Title string
	// Restricted notes are DM-only.
	Restricted bool
	Metadata   json.RawMessage
	Text       string
	// Chunks are the note's chunks: id and text.
	ChunkIDs   []int64
	ChunkTexts []string
}
