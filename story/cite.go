package story

import "github.com/oraculo/oraculo/store"

// Cite is the passage an item of a story comes from: the chunk's public
// id (what `/c/{id}` and `GET /api/chunks/{id}` open), its note, label,
// heading path and session (null outside a session). Its JSON shape is
// public.
type Cite struct {
	ID       string   `json:"id"`
	File     string   `json:"file"`
	Label    string   `json:"label"`
	Headings []string `json:"headings"`
	Session  *int     `json:"session"`
}

// Moment is one sentence of the notes, as written there (white space
// collapsed), with the passage it comes from.
type Moment struct {
	Text string `json:"text"`
	Cite
}

// CiteOf is the citation of chunk c.
func CiteOf(c store.Chunk) Cite {
	ct := Cite{ID: c.UID, File: c.Path, Label: c.Label, Headings: c.Headings}
	if ct.Headings == nil {
		ct.Headings = []string{}
	}
	if c.InSession {
		s := c.Session
		ct.Session = &s
	}
	return ct
}
