package notelink

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// TestChunkRedact: a player's listing of a chunk writes each link to a
// note they may not see as its shown text, in the text, the title, the
// first line and the headings; nothing else changes.
func TestChunkRedact(t *testing.T) {
	d := NewDirectory([]Name{{Path: "NPCs/Harbin.md"}})
	c := ChunkOf(store.Chunk{ChunkData: store.ChunkData{UID: "u1", Text: "\n[[DM/Plan|el viejo]] y [[Harbin]]\n"}, Path: "S/1.md", DocTitle: "[[DM/Plan|Plan]]"}, nil, []string{"[[DM/Plan|Arriba]]"})
	got := c.Redact(d.Redact)
	want := c
	want.Text, want.Title, want.FirstLine, want.Headings = "\nel viejo y [[Harbin]]\n", "Plan", "el viejo y [[Harbin]]", []string{"Arriba"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Redact = %+v\nwant %+v", got, want)
	}
	if c.FirstLine != "[[DM/Plan|el viejo]] y [[Harbin]]" || c.Headings[0] != "[[DM/Plan|Arriba]]" {
		t.Errorf("Redact changed the chunk it was given: %+v", c)
	}
}

// TestChunkOfPages: a paged document's chunk gives its pages; a note's,
// none.
func TestChunkOfPages(t *testing.T) {
	if c := ChunkOf(store.Chunk{ChunkData: store.ChunkData{PageStart: 2, PageEnd: 3}}, nil, nil); c.PageStart == nil || *c.PageStart != 2 || *c.PageEnd != 3 {
		t.Errorf("pages = %v, %v, want 2, 3", c.PageStart, c.PageEnd)
	}
	if c := ChunkOf(store.Chunk{}, nil, nil); c.PageStart != nil || c.PageEnd != nil {
		t.Errorf("a note's chunk has pages %v, %v", c.PageStart, c.PageEnd)
	}
}

// TestNoteOf: a note is the chunks of its file only, titled by the first;
// no chunk of it (a missing note, or one the caller may not see) is
// ErrNoNote naming the file.
func TestNoteOf(t *testing.T) {
	chunks := []Chunk{{File: "A/b.md", Title: "B"}, {File: "A/bc.md", Title: "BC"}, {File: "A/b.md", Title: "B2"}}
	n, err := NoteOf("A/b.md", chunks)
	if err != nil || n.Title != "B" || len(n.Chunks) != 2 {
		t.Errorf("NoteOf = %+v, %v", n, err)
	}
	if _, err := NoteOf("DM/x.md", chunks); !errors.Is(err, ErrNoNote) || err.Error() != `no such note: "DM/x.md"` {
		t.Errorf("NoteOf(missing) error = %v", err)
	}
}

// TestGather: each id once, in order; the passage at hand when there is
// one, else the one read; an id with no chunk is left out; another error
// stops.
func TestGather(t *testing.T) {
	known := func(id string) (Written, bool) { return Written{File: "k", Text: id}, id == "a" }
	var reads []string
	read := func(_ context.Context, id string) (Written, error) {
		reads = append(reads, id)
		if id == "gone" {
			return Written{}, fmt.Errorf("%w: %q", store.ErrNoChunk, id)
		}
		return Written{File: "r", Text: id}, nil
	}
	got, err := Gather(context.Background(), []string{"b", "a", "gone", "b", "c"}, known, read)
	want := []Written{{File: "r", Text: "b"}, {File: "k", Text: "a"}, {File: "r", Text: "c"}}
	if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(reads, []string{"b", "gone", "c"}) {
		t.Errorf("Gather = %+v, %v (read %v)\nwant %+v", got, err, reads, want)
	}
	boom := errors.New("boom")
	fail := func(context.Context, string) (Written, error) { return Written{}, boom }
	if _, err := Gather(context.Background(), []string{"x"}, known, fail); !errors.Is(err, boom) {
		t.Errorf("Gather error = %v, want boom", err)
	}
}

// TestList: a player's listing leaves the chunks of DM-only notes out and
// redacts the rest; the DM's keeps every chunk, in order.
func TestList(t *testing.T) {
	stored := []store.Chunk{
		{Path: "A.md", ChunkData: store.ChunkData{Text: "[[DM/Plan|el viejo]]"}},
		{Path: "DM/Plan.md", Restricted: true},
		{Path: "B.md"},
	}
	info := func(c store.Chunk) Chunk { return Chunk{File: c.Path, Text: c.Text} }
	d := NewDirectory([]Name{{Path: "A.md"}, {Path: "B.md"}})
	got := List(stored, true, info, d.Redact)
	if want := []Chunk{{File: "A.md", Text: "el viejo"}, {File: "B.md"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("a player's List = %+v, want %+v", got, want)
	}
	identity := func(s string) string { return s }
	if got := List(stored, false, info, identity); len(got) != 3 || got[0].Text != "[[DM/Plan|el viejo]]" || got[1].File != "DM/Plan.md" {
		t.Errorf("the DM's List = %+v", got)
	}
}
