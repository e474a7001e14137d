package chunk

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// summary renders each chunk as "label | session | headings | [start,end)".
func summary(chunks []Chunk) []string {
	out := make([]string, len(chunks))
	for i, c := range chunks {
		s := "-"
		if c.InSession {
			s = fmt.Sprint(c.Session)
		}
		out[i] = fmt.Sprintf("%s | %s | %s | [%d,%d)", c.Label, s, strings.Join(c.Headings, " › "), c.WordStart, c.WordEnd)
	}
	return out
}

func TestSplitGrouping(t *testing.T) {
	// Sections of 3, 3, 4 and 3 words with a cap of 10: the first three fill
	// the cap exactly, the fourth starts a new group.
	text := "## A\nuno\n## B\ndos\n## C\ntres cuatro\n## D\ncinco"
	chunks, err := Split(Document{Path: "a.md", Text: text}, Options{MaxWords: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a › A | - | a | [0,10)",
		"a › D | - | a › D | [10,13)",
	}
	if got := summary(chunks); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if chunks[0].Text != "## A\nuno\n## B\ndos\n## C\ntres cuatro" {
		t.Errorf("first group text %q", chunks[0].Text)
	}
}

func TestSplitEmpty(t *testing.T) {
	for _, text := range []string{"", "\n", "\n\n  \t\n", "\u00a0\u2003\n"} {
		chunks, err := Split(Document{Path: "a.md", Text: text}, Options{MaxWords: 10})
		if err != nil || len(chunks) != 0 {
			t.Errorf("Split(%q) = %d chunks, %v; want none", text, len(chunks), err)
		}
	}
}

func TestSplitBadOptions(t *testing.T) {
	for _, o := range []Options{{}, {MaxWords: -1}, {MaxWords: 10, OverlapWords: -1}, {MaxWords: 10, OverlapWords: 10}, {MaxWords: 10, OverlapWords: 11}} {
		if _, err := Split(Document{Text: "hola"}, o); !errors.Is(err, ErrBadOptions) {
			t.Errorf("Split with %+v: err %v, want ErrBadOptions", o, err)
		}
	}
	if _, err := Split(Document{Text: "hola"}, Options{MaxWords: 1}); err != nil {
		t.Errorf("MaxWords 1, no overlap: %v", err)
	}
}

func TestSplitChildren(t *testing.T) {
	text := "## Sesión 1\n\n### Llegada\n\nUno dos.\nTres.\n\n```\nx\n\ny\n```\n\n### Vacía"
	doc := Document{Path: "a.md", Text: text}
	chunks, err := Split(doc, Options{MaxWords: 100})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, doc, Options{MaxWords: 100}, chunks)
	var got []string
	for _, c := range chunks[0].Children {
		got = append(got, c.Text)
	}
	want := []string{"## Sesión 1\n\n### Llegada\n\nUno dos.\nTres.", "```\nx\n\ny\n```", "### Vacía"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("children %q, want %q", got, want)
	}
}

func TestSplitWindowChildren(t *testing.T) {
	text := "uno dos tres\n\ncuatro cinco seis\n\nsiete ocho"
	doc := Document{Path: "a.md", Text: text}
	opts := Options{MaxWords: 4, OverlapWords: 1}
	chunks, err := Split(doc, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, doc, opts, chunks)
	var got [][]string
	for _, c := range chunks {
		var cs []string
		for _, ch := range c.Children {
			cs = append(cs, ch.Text)
		}
		got = append(got, cs)
	}
	want := [][]string{{"uno dos tres", "cuatro"}, {"cuatro cinco seis", "siete"}, {"siete ocho"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("children %q, want %q", got, want)
	}
}

// A document title alone above the first session joins that session's
// chunk (no chunk without content) without entering its heading path.
func TestBareTitleJoinsFirstSession(t *testing.T) {
	doc := Document{Path: "Sesiones/Diario.md", Text: "# Diario\n\n## Sesión 1 — El puente\n\nCruzamos el puente.\n\n## Sesión 2\n\nLa cripta.\n"}
	chunks, err := Split(doc, Options{MaxWords: 100, OverlapWords: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 2 {
		t.Fatalf("%d chunks, want 2: %+v", len(chunks), chunks)
	}
	c := chunks[0]
	if !strings.HasPrefix(c.Text, "# Diario\n\n## Sesión 1") || c.Label != "Sesión 1" || strings.Join(c.Headings, " › ") != "Diario › Sesión 1 — El puente" {
		t.Fatalf("first chunk: label %q headings %q text %q", c.Label, c.Headings, c.Text)
	}
	// Small MaxWords forces sections: the title still stays out of the path.
	chunks, _ = Split(doc, Options{MaxWords: 4, OverlapWords: 1})
	for _, c := range chunks {
		for i, h := range c.Headings {
			if i > 0 && h == "Diario" {
				t.Errorf("title repeated inside the heading path: %q", c.Headings)
			}
		}
	}
}
