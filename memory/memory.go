// Package memory is long-term memory's stage: over a [store.MemoryStore],
// it decides who may see which entry, who may change it, which entries
// are stale, and which ones concern a question, and it reads a chat line
// that asks to remember or to forget something.
//
// It guarantees that an asker is never shown, offered or allowed to name
// anything they may not see: the DM sees everything; a player their own
// scope, and otherwise only verified entries of the campaign and of the
// sessions players may see whose source, when a note, players may see
// whole. Whatever it does not know to be visible is hidden (fail closed).
// The engine gives it what it knows of the index as a small interface and
// functions ([Book]); it hands an answer the entries it is shown through
// [answer.WithMemory], and answer knows nothing of this package.
package memory

import (
	"context"

	"github.com/oraculo/oraculo/store"
)

// Entry is an entry of long-term memory as a caller sees it: the stored
// entry and whether it is stale. Its JSON shape is public (`memory list
// --json`, /api/memory): the fields of [store.Memory] and "stale".
type Entry struct {
	store.Memory
	// Stale is true when the entry's source is a note whose stored version
	// is no longer the one the entry names (or that is gone): the entry is
	// not used as evidence until it is verified again.
	Stale bool `json:"stale"`
}

// Input is a new entry for [Book.Add].
type Input struct {
	Scope string `json:"scope"`
	Key   string `json:"key"`
	Value string `json:"value"`
	// Note is the path of the note it comes from (as in a hit's "file"):
	// its source is the version stored now. Empty: stated by the asker
	// today.
	Note string `json:"note,omitempty"`
	// Chunk is the id of the chunk it comes from (a hit's or a citation's
	// "id"): its note is the source, and the chunk is named in it.
	Chunk    string `json:"chunk,omitempty"`
	Verified bool   `json:"verified,omitempty"`
	// Author names who made it (default: the asker's name, else the role).
	Author string `json:"author,omitempty"`
}

// Index is what the stage reads of the index: its memory, and the chunks
// of a note (to tell whether players may see all of it).
type Index interface {
	store.MemoryStore
	// ListChunks is [store.ChunkReader.ListChunks].
	ListChunks(ctx context.Context, prefixes []string) ([]store.Chunk, error)
}

// Book is long-term memory as one asker reads and changes it.
type Book struct {
	Index Index
	Asker Asker
	// Sessions returns the sessions players may see (asked for players
	// only); none when nothing is indexed.
	Sessions func(ctx context.Context) ([]int, error)
	// Chunk returns the note of the chunk with the public id, and the id
	// it has now, when the asker may see it; else an error wrapping
	// [store.ErrNoChunk].
	Chunk func(ctx context.Context, id string) (note, uid string, err error)
	// ReadOnly returns why memory may not be changed, or nil.
	ReadOnly func() error
}

// seq is the evidence id of the entry "mN": -N, never a chunk's.
func seq(id string) (int64, bool) {
	n, ok := store.MemorySeq(id)
	return -n, ok
}
