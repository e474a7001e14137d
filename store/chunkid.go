package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// ChunkUID is a chunk's public id: 16 hex digits of the sha256 of its
// note's path relative to the notes folder, its ordinal and its text. It
// stays the same while the note keeps its place in the folder and the
// chunk its text, wherever the folder lies (moving the vault keeps every
// id), and changes as soon as the text does.
func ChunkUID(path string, ordinal int, text string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", path, ordinal)
	h.Write([]byte(text))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ChunkUIDIn is the public id of a chunk of the folder root whose
// ChunkUID a note of another folder of the same index already holds (two
// folders with the same note): that id and the folder's, hashed.
func ChunkUIDIn(root, uid string) string {
	sum := sha256.Sum256([]byte(uid + "\x00" + root))
	return hex.EncodeToString(sum[:])[:16]
}

// RootedChunkUID is the id chunks had before ids were relative to the
// notes folder: the same hash, with the folder's absolute path first. An
// index written then is migrated to ChunkUID and keeps answering to
// these ids (links and memory entries made before name them); the
// Weaviate backend still keys its objects by it.
func RootedChunkUID(root, path string, ordinal int, text string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00", root, path, ordinal)
	h.Write([]byte(text))
	return hex.EncodeToString(h.Sum(nil))[:16]
}
