package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/oraculo/oraculo/load"
)

// Reasons a document (PDF, DOCX, ...) is skipped, besides those of notes.
const (
	// ReasonDamaged is a document its format's reader cannot read (the
	// detail says why); what the index had of it is kept, in case the
	// file is being written.
	ReasonDamaged Reason = "damaged"
	// ReasonNoText is a document with no text to read: a scanned PDF.
	ReasonNoText Reason = "no-text"
	// ReasonEncrypted is a document that needs a password.
	ReasonEncrypted Reason = "encrypted"
)

// readDocument is Read for a file whose bytes are a document of kind: it
// hashes them and keeps them, to be loaded by [Note.LoadDocument] only
// when the file changed (reading a PDF costs far more than hashing it).
func readDocument(rel, kind string, data []byte) *Note {
	sum := sha256.Sum256(data)
	return &Note{Path: rel, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data)), Metadata: json.RawMessage("{}"), Kind: kind, data: data}
}

// notDocument is the skip of a file named like a document whose bytes
// are not one.
func notDocument(rel string) *Skip {
	return &Skip{Path: rel, Reason: ReasonDamaged, Detail: fmt.Sprintf("not a valid %s file", strings.ToUpper(strings.TrimPrefix(path.Ext(rel), ".")))}
}

// LoadDocument reads a document's text into the note (its Title, Body and
// Pages), or says why it cannot. It does nothing for a note that is not a
// document, or one already loaded.
func (n *Note) LoadDocument() *Skip {
	if n.Kind == "" || n.data == nil {
		return nil
	}
	data := n.data
	n.data = nil
	doc, err := load.LoadAs(n.Kind, data) // Read detected the format
	switch {
	case errors.Is(err, load.ErrNoText):
		return &Skip{Path: n.Path, Reason: ReasonNoText, Detail: err.Error()}
	case errors.Is(err, load.ErrEncrypted):
		return &Skip{Path: n.Path, Reason: ReasonEncrypted, Detail: err.Error()}
	case err != nil:
		return &Skip{Path: n.Path, Reason: ReasonDamaged, Detail: err.Error()}
	}
	n.Title = doc.Title
	n.Body, n.Pages = doc.Markdown()
	n.PageCount = doc.Pages
	if strings.TrimSpace(n.Body) == "" {
		if doc.Kind == load.KindPDF {
			return &Skip{Path: n.Path, Reason: ReasonNoText, Detail: load.ErrNoText.Error()}
		}
		return &Skip{Path: n.Path, Reason: ReasonEmpty}
	}
	return nil
}

// PageRange is the first and last page of the body's bytes [start, end)
// in a paged document, or 0, 0 for a note without pages.
func (n *Note) PageRange(start, end int) (int, int) {
	if len(n.Pages) == 0 {
		return 0, 0
	}
	return load.PageAt(n.Pages, start), load.PageAt(n.Pages, max(start, end-1))
}

// PageLabel adds a chunk's pages to its label: "Manual › Combate, p. 34",
// "…, pp. 34–35"; the label as it is without pages.
func PageLabel(label string, first, last int) string {
	switch {
	case first <= 0:
		return label
	case last <= first:
		return fmt.Sprintf("%s, p. %d", label, first)
	default:
		return fmt.Sprintf("%s, pp. %d–%d", label, first, last)
	}
}
