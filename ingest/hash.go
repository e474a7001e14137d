package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"unsafe"
)

// textHash is the hex SHA-256 of text.
func textHash(text string) string {
	sum := sha256.Sum256(readOnlyBytes(text))
	return hex.EncodeToString(sum[:])
}

// embedHash is textHash(store.EmbedText(headings, text)), the key of a
// chunk's vector, without building that text: the heading path joined by
// " › ", a blank line, the text.
func embedHash(headings []string, text string) string {
	if len(headings) == 0 {
		return textHash(text)
	}
	h := sha256.New()
	for i, hd := range headings {
		if i > 0 {
			h.Write(readOnlyBytes(" › "))
		}
		h.Write(readOnlyBytes(hd))
	}
	h.Write(readOnlyBytes("\n\n"))
	h.Write(readOnlyBytes(text))
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0]))
}

// readOnlyBytes is s as bytes without a copy, for a hash that only reads
// them (a chunk's text is hashed three times; copying it each time was a
// third of what the notes stage allocated).
func readOnlyBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
