package chunk

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzSplit(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, name := range inputs {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), "Sesiones/"+filepath.Base(name), uint16(40), uint16(7))
		f.Add(string(b), "Sesion 3.md", uint16(1200), uint16(120))
	}
	f.Add("## Sesión 1\n```\n## Sesión 2\n", "a.md", uint16(3), uint16(2))
	f.Add("**Sesión 7:** x\n\n# y\n\n\u00a0z", "s/Sesión 7.md", uint16(1), uint16(0))
	f.Fuzz(func(t *testing.T, text, path string, maxWords, overlap uint16) {
		opts := Options{MaxWords: int(maxWords%300) + 1}
		opts.OverlapWords = int(overlap) % opts.MaxWords
		doc := Document{Path: path, Text: text}
		chunks, err := Split(doc, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, doc, opts, chunks)
		for _, line := range []string{text, path} {
			DetectSession(line)
			SessionFromPath(line)
		}
	})
}
