// Package enrich is the stage of the pipeline between chunking and the
// index: it adds to the stored chunks what their text does not say
// outright, through the store's role interfaces (package store) and the
// models' (packages chat and embed).
//
//   - [Annotate] describes each chunk in one or two sentences with a chat
//     model, for the reranker. Annotations are cached by the hash of the
//     chunk's text, the model and the prompt's version, so that no chunk is
//     annotated twice; each is stored as it arrives, so that an interrupted
//     run resumes where it stopped; a model that cannot be reached is
//     reported, not an error.
//
//   - [BuildCompendium] builds the compendium (package compendium) from the
//     stored notes and each folder's compendium.yaml, twice: the DM's, from
//     every note, and the players', from the notes they may see, with the
//     chunks that mention each entity. It rebuilds only when something it
//     is built from changed.
//
//   - [Embed] gives each chunk its vector with an embedding model (package
//     embed), once per distinct text and model, storing each batch as it
//     arrives. The engine then builds the vector graph the dense path
//     searches at scale (package vector).
package enrich
