// Package compendium lists who and what a person's notes name — player
// characters, NPCs, places, factions, gods, items — so that retrieval can
// fetch every chunk that mentions an entity named in a question.
//
// The first users are game masters with long tabletop campaigns written in
// Spanish Markdown (Obsidian vaults with front-matter aliases, [[wikilinks]]
// and folders such as NPCs/ and Lugares/), but nothing here is specific to
// one game or vault layout. The package is pure: no I/O and no database.
// The caller reads the notes and the user's compendium.yaml, and stores
// what comes out:
//
//	file, err := compendium.ParseFile(yamlBytes)    // optional, the user's edits
//	entities, err := compendium.Build(notes, file, compendium.Config{})
//	m := compendium.NewMatcher(entities)
//	for _, x := range m.Find(chunkText) { ... entities[x.Entity] ... }
//	for _, x := range m.Find(question) { ... }
//
// Build (see BuildWith) ranks its sources: the file, then note titles and
// front-matter aliases, then wikilinks, then "## Name" sections of
// collection notes (Mundo/Dioses.md), then extra entities (the seam for a
// language-model pass, Extractor), then heuristic proper names. Matcher
// finds mentions by whole words, case- and accent-insensitively, longest
// first, with a little spelling tolerance for long names; Find is linear in
// the text's tokens.
//
// A compendium once stored is read back through the store's roles the
// caller passes: Load for searching (its entities and their Matcher), List
// for listing them with where the notes mention them, Lookup to look one
// up by name.
//
// Names are compared with Normalize: lowercase, accents folded (ñ → n too),
// punctuation collapsed to single spaces. "Ciénaga de Murgo", "cienaga de
// murgo" and "CIÉNAGA  DE  MURGO" are one name.
package compendium
