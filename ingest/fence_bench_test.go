package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWalkRead walks and reads 2,000 small notes, as an unchanged
// re-ingest does, within a fence that knows the index's files (its cost:
// one look at each file's path and identity, and one at the file opened)
// and with no fence (Walk's lexical check only, Read unchecked).
func BenchmarkWalkRead(b *testing.B) {
	root, idx := b.TempDir(), b.TempDir()
	for i := range 2000 {
		p := filepath.Join(root, fmt.Sprintf("d%02d", i%20), fmt.Sprintf("n%04d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# Nota\n\nEl texto de una nota corta de la campaña.\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, name := range []string{"o.db", "o.db-wal", "o.db.linkkey", "tokens.yaml"} {
		if err := os.WriteFile(filepath.Join(idx, name), []byte("x"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	run := func(b *testing.B, fence *Fence, read func(File) (*Note, *Skip)) {
		for range b.N {
			l, err := fence.Walk(root)
			if err != nil {
				b.Fatal(err)
			}
			for _, f := range l.Files {
				if _, skip := read(f); skip != nil {
					b.Fatal(skip)
				}
			}
		}
	}
	b.Run("fenced", func(b *testing.B) {
		fence := NewFence(Bounds{Roots: []string{root}, Private: []string{filepath.Join(idx, "o.db"), idx}})
		run(b, fence, func(f File) (*Note, *Skip) { return fence.Read(f, 0) })
	})
	b.Run("unfenced", func(b *testing.B) {
		fence := NewFence(Bounds{Roots: []string{root}, FollowOutside: true})
		run(b, fence, func(f File) (*Note, *Skip) { return Read(f, 0) })
	})
}
