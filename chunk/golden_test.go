package chunk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/internal/golden"
)

// goldenCases maps each testdata note to the path it is ingested under and
// the options it is cut with.
var goldenCases = []struct {
	file string
	path string
	opts Options
}{
	{"cronica.md", "Campaña/Crónica de la Costa.md", Options{MaxWords: 60, OverlapWords: 10}},
	{"diario.md", "Diarios/Katerina_Emberdusk.md", Options{MaxWords: DefaultMaxWords, OverlapWords: DefaultOverlapWords}},
	{"resumenes.md", "Resúmenes.md", Options{MaxWords: DefaultMaxWords, OverlapWords: DefaultOverlapWords, Lang: "en"}},
	{"npc.md", "NPCs/Harbin Wester.md", Options{MaxWords: 50, OverlapWords: 5}},
	{"sesion12.md", "Sesiones/Sesion 12.md", Options{MaxWords: 60, OverlapWords: 10}},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.file, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			doc := Document{Path: tc.path, Text: string(in)}
			chunks, err := Split(doc, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, doc, tc.opts, chunks)
			got := render(doc, tc.opts, chunks)
			golden.Check(t, filepath.Join("testdata", strings.TrimSuffix(tc.file, filepath.Ext(tc.file))+".golden"), []byte(got))
		})
	}
}

// render prints chunks one block each, in a form meant to be read.
func render(doc Document, opts Options, chunks []Chunk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "path: %s\ntitle: %s\noptions: max=%d overlap=%d lang=%q\nchunks: %d\n",
		doc.Path, DocTitle(doc), opts.MaxWords, opts.OverlapWords, opts.Lang, len(chunks))
	for _, c := range chunks {
		session := "-"
		if c.InSession {
			session = fmt.Sprint(c.Session)
		}
		first, _, _ := strings.Cut(c.Text, "\n")
		fmt.Fprintf(&b, "\n#%d %s\n", c.Ordinal, c.Label)
		fmt.Fprintf(&b, "  session:  %s\n", session)
		fmt.Fprintf(&b, "  headings: %s\n", strings.Join(c.Headings, " › "))
		fmt.Fprintf(&b, "  words:    [%d,%d) %d\n", c.WordStart, c.WordEnd, c.Words())
		fmt.Fprintf(&b, "  bytes:    [%d,%d)\n", c.ByteStart, c.ByteEnd)
		fmt.Fprintf(&b, "  children: %d\n", len(c.Children))
		fmt.Fprintf(&b, "  first:    %s\n", first)
		for _, ch := range c.Children {
			line, _, _ := strings.Cut(ch.Text, "\n")
			if r := []rune(line); len(r) > 60 {
				line = string(r[:60]) + "…"
			}
			fmt.Fprintf(&b, "    %d [%d,%d) %s\n", ch.Ordinal, ch.ByteStart, ch.ByteEnd, line)
		}
	}
	return b.String()
}
