package store

import (
	"context"
	"encoding/json"
)

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
	// Path is the path of the chunk's note, Ordinal the chunk's place in
	// it: what ties are broken by, the same in every store (chunk ids
	// are each store's own).
	Path    string
	Ordinal int
}

// NoteSource is a note as the compendium builder needs it: reassembled
// from its chunks (whitespace between chunks aside, the same text).
type NoteSource struct {
	DocID             int64
	Root, Path, Title string
	// Restricted notes are DM-only.
	Restricted bool
	Metadata   json.RawMessage
	Text       string
	// Chunks are the note's chunks: id and text.
	ChunkIDs   []int64
	ChunkTexts []string
}

// NoteFacts is what the compendium read from one note's text (an encoded
// [github.com/oraculo/oraculo/compendium.Facts]), kept so that a note is
// read again only when it changes, with what it is known by.
type NoteFacts struct {
	DocID             int64
	Root, Path, Title string
	Metadata          json.RawMessage
	// Restricted notes are DM-only.
	Restricted bool
	// Data is all but the lowercase words, Lower those (see
	// compendium.Facts.MarshalLower).
	Data, Lower []byte
	// Structure is what the compendium reads of the note besides the
	// sums (its links and the headings of an entity note, encoded like
	// Data), empty for a note with neither.
	Structure []byte
	// Sums is what the note adds to the compendium's sums, given to
	// UpdateCompendiumSums.
	Sums NoteSums
}

// NameSum is what some notes say of one capitalised word sequence (see
// compendium.NameStat): how often they write it, in how many notes, and
// the sum of those notes' ids.
type NameSum struct {
	Surface         string
	Start, Date     bool
	Mentions, Notes int
	IDSum           uint64
}

// NoteSums are the compendium's corpus-wide sums over some notes, or what
// notes add to them (negative counts take notes away): their capitalised
// sequences and their lowercase words, by word.
type NoteSums struct {
	Names []NameSum
	Lower map[string]int
}

// CompendiumChanges are the notes whose part of the compendium's sums
// changed since they were stored, besides the notes whose facts are not
// stored (SyncCompendiumNotes lists those).
type CompendiumChanges struct {
	// Stale says that the stored sums cannot be updated (never filled,
	// or an update was cut short): they must be filled again from every
	// note's facts (Gone and Flipped are then empty).
	Stale bool
	// Gone are the notes removed or rewritten, with the facts and the
	// visibility they were summed with.
	Gone []NoteFacts
	// Flipped are the notes whose visibility changed, with their facts;
	// Restricted is their visibility now.
	Flipped []NoteFacts
}

// CompendiumSumsUpdate changes the compendium's stored sums and the notes
// they were summed from, in one transaction.
type CompendiumSumsUpdate struct {
	// Fill replaces the sums with All and DMOnly, every note being
	// summed with its visibility now (and its Structure set from
	// Structures); otherwise All and DMOnly are added to them.
	Fill bool
	// All is over every note, DMOnly over the DM-only notes.
	All, DMOnly NoteSums
	// Gone are the notes of CompendiumChanges.Gone taken away.
	Gone []int64
	// Flipped are the notes of CompendiumChanges.Flipped, whose new
	// visibility is now summed (their mentions become pending).
	Flipped []NoteFacts
	// Structures are every note's Structure, by note, when Fill.
	Structures map[int64][]byte
}

// ChunkText is a chunk as the compendium's mention matcher reads it.
type ChunkText struct {
	ID int64
	// Restricted chunks belong to DM-only notes.
	Restricted bool
	// Pending chunks belong to notes whose mentions are not stored yet:
	// new or changed, or whose visibility changed.
	Pending bool
	Text    string
}

// CompendiumWriter updates both compendiums in one transaction.
type CompendiumWriter interface {
	// Entities returns a scope's stored compendium, by name, with ids,
	// stale or not.
	Entities(ctx context.Context, scope string) ([]Entity, error)
	// SetEntities makes a scope's compendium ents (their Mentions
	// ignored): entities gone are deleted with their mentions, the others
	// keep their ids and mentions. It returns the id of each of ents.
	SetEntities(ctx context.Context, scope string, ents []Entity) ([]int64, error)
	// Chunks returns up to n chunks with ids above after, by id; only
	// pending ones when pending is set.
	Chunks(ctx context.Context, after int64, n int, pending bool) ([]ChunkText, error)
	// ClearMentions deletes a scope's mentions in the chunks.
	ClearMentions(ctx context.Context, scope string, chunks []int64) error
	// AddMention records that a chunk names an entity count times (stored
	// by ClearMentions or Finish at the latest).
	AddMention(ctx context.Context, entity, chunk int64, count int) error
	// Finish marks every chunk's mentions as stored, the players'
	// compendium as fresh, and stores the setting key.
	Finish(ctx context.Context, key, value string) error
}
