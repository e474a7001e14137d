// Package story reads the campaign as a story rather than a bag of
// passages: an entity's timeline (every session that names it, in order,
// with its most informative sentence there), a session's recap, the
// threads left open, and the notes' own contradictions (the continuity
// check). It works over the store's roles (chunks, sessions, the
// compendium's mentions), for one asker: a player's story is built from
// the notes players may see, never from a DM-only one.
//
// Every item cites the passage it comes from as a [Cite] (the chunk's
// public id, what /c/{id} opens); the sentences are the notes' own,
// never rewritten.
package story
