package store

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// DocumentRecord is everything the store keeps about one note.
type DocumentRecord struct {
	// Root is the absolute path of the folder the note was ingested from.
	Root string
	// Path is relative to Root, with forward slashes.
	Path   string
	SHA256 string
	Size   int64
	Title  string
	// Metadata is the note's front matter as a JSON object.
	Metadata json.RawMessage
	// Visibility is the note's front-matter visibility value, as written.
	Visibility string
	// DMOnly notes are never shown to players. It is stored in the same
	// write as the note, so that no reader ever sees the note without it.
	DMOnly bool
	// DMReason and DMDetail say why the note is DM-only (see package
	// visibility); empty when it is not.
	DMReason string
	DMDetail string
	// Link is where a symbolic link points, for the folder rules ("" for
	// ordinary files).
	Link string
	// FrontRaw is the text of a front matter that could not be parsed.
	FrontRaw string
	// Stamp names the analysis and chunking settings that produced the
	// chunks; a document whose stamp differs from the current one is redone.
	Stamp string
	// Lang is the language the note was analysed in ("es", "en"): the
	// keyword search matches it with the question analysed in the same.
	Lang   string
	Chunks []ChunkRecord
}

// ChunkRecord is one chunk to store.
type ChunkRecord struct {
	ChunkData
	// HeadingTerms is the analysed heading path, indexed with every child
	// (see [HeadingTerms]).
	HeadingTerms string
	// EmbedHash is the hash of the text the dense path embeds for this
	// chunk (heading path and text): the key of its vector.
	EmbedHash string
	Children  []ChildRecord
}

// ChildRecord is one paragraph of a chunk, the unit that BM25 matches.
type ChildRecord struct {
	Ordinal   int
	ByteStart int
	ByteEnd   int
	// Terms is the analysed paragraph text, space-separated.
	Terms string
}

// DocumentState is what an ingest needs to know to skip unchanged notes.
type DocumentState struct {
	SHA256 string
	Stamp  string
}

// VisibilityRecord is what a note's visibility is decided from, and the
// decision in force.
type VisibilityRecord struct {
	Root, Path string
	Link       string
	Metadata   json.RawMessage
	FrontRaw   string
	DMOnly     bool
	Reason     string
	Detail     string
}

// Decider decides one note: DM-only or not, why and what decided.
type Decider func(VisibilityRecord) (dmOnly bool, reason, detail string)

// HeadingTerms is the analysed heading path a chunk's paragraphs are
// indexed with, led by the note's name (its file name without the
// extension) when the headings do not already hold its words: an
// Obsidian note is named by its file ("Consejo de vigilancia.md") while
// its headings are often generic ("# Definición"), and a question names
// the note's subject. terms is the note's analyser.
func HeadingTerms(terms func(string) []string, path string, headings []string) string {
	head := terms(strings.Join(headings, "\n"))
	have := make(map[string]bool, len(head))
	for _, t := range head {
		have[t] = true
	}
	base := filepath.Base(filepath.FromSlash(path))
	name := strings.TrimSuffix(base, filepath.Ext(base))
	var extra []string
	for _, t := range terms(strings.NewReplacer("-", " ", "_", " ").Replace(name)) {
		if !have[t] {
			have[t] = true
			extra = append(extra, t)
		}
	}
	return strings.Join(append(extra, head...), " ")
}
