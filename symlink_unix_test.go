//go:build unix

package oraculo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestIndexInsideTheNotes: the index's own files are never notes, even
// when the notes folder holds the index: kept in a folder of the vault
// (everything in that folder is the index's), or in the vault's root
// itself (its files, the link key, the tokens and the chat history,
// however reached; the notes beside it are still notes), with or without
// --follow-links-outside.
func TestIndexInsideTheNotes(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		db   string // relative to the notes
		// private is a note-like file in the index's folder, refused
		// when the folder is the index's alone.
		private string
	}{
		{name: "in a folder of the notes", db: "indice/o.db", private: "indice/extra.md"},
		{name: "in the notes' root", db: "o.db"},
	} {
		t.Run(c.name, func(t *testing.T) {
			notes := t.TempDir()
			db := filepath.Join(notes, c.db)
			dir := filepath.Dir(db)
			write(t, filepath.Join(notes, "Sesiones", "s1.md"), "# Sesión 1\n\nEl zarquinota cruza el puente.\n")
			write(t, db+".linkkey", "zarquiclave"+string(make([]byte, 0))+"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
			write(t, filepath.Join(dir, "tokens.yaml"), "tokens:\n  - name: zarquitoken\n")
			write(t, filepath.Join(dir, "chat_history_player"), "zarquihistoria\n")
			links := map[string]string{
				"clave.md":    db + ".linkkey",
				"tokens.md":   filepath.Join(dir, "tokens.yaml"),
				"historia.md": filepath.Join(dir, "chat_history_player"),
			}
			if c.private != "" {
				write(t, filepath.Join(notes, c.private), "# Extra\n\nEl zarquiextra vive junto al índice.\n")
			}
			for name, target := range links {
				if err := os.Symlink(target, filepath.Join(notes, name)); err != nil {
					t.Fatal(err)
				}
			}
			// What lies in a folder named after the index (its graphs).
			write(t, db+".graphs/g.md", "zarquigrafo\n")
			refused := []string{"clave.md", "tokens.md", "historia.md", c.db + ".graphs/g.md"}
			if c.private != "" {
				refused = append(refused, c.private)
			}
			if err := os.Link(db+".linkkey", filepath.Join(notes, "dura.md")); err == nil {
				refused = append(refused, "dura.md")
			}
			eng := reopen(t, db)
			dm := oraculo.WithRole(ctx, oraculo.RoleDM)
			for _, follow := range []bool{false, true} {
				rep, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{FollowLinksOutside: follow})
				if err != nil {
					t.Fatal(err)
				}
				skipped := map[string]string{}
				for _, p := range rep.Skipped {
					skipped[p.Path] = p.Reason
				}
				for _, name := range refused {
					if skipped[name] != "index-file" {
						t.Errorf("follow %v: %s skipped as %q, want index-file", follow, name, skipped[name])
					}
					if _, err := eng.Note(dm, name); !errors.Is(err, oraculo.ErrNoNote) {
						t.Errorf("follow %v: %s is a note: %v", follow, name, err)
					}
				}
				for _, w := range []string{"zarquiclave", "zarquitoken", "zarquihistoria", "zarquiextra", "zarquigrafo"} {
					hits, err := eng.Search(dm, w, oraculo.SearchOptions{K: 5})
					if err != nil {
						t.Fatal(err)
					}
					if len(hits) > 0 {
						t.Errorf("follow %v: a search for %s finds %s", follow, w, hits[0].File)
					}
				}
				if hits, err := eng.Search(dm, "zarquinota", oraculo.SearchOptions{K: 5}); err != nil || len(hits) != 1 {
					t.Errorf("follow %v: the note is not found: %v %v", follow, hits, err)
				}
			}
		})
	}
}
