package oraculo_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestVisibilityVariants ingests one note per way of writing "DM-only"
// that people use, each naming its own secret word, and checks that a
// player finds none of them, by search, chunk listing or note, while the
// DM finds each; public notes written alike stay visible.
func TestVisibilityVariants(t *testing.T) {
	ctx := context.Background()
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	dir := t.TempDir()
	outside := t.TempDir() // a secret folder outside the notes folder
	cases := []struct {
		name, path, front string
		dmOnly            bool
	}{
		{"DM folder", "DM/a.md", "", true},
		{"DM folder below the top", "Campaña/DM/b.md", "", true},
		{"lower-case dm folder", "dm/c.md", "", true},
		{"non-ASCII secret folder", "Máster/secreto.md", "", true},
		{"non-ASCII secret folder, other case", "MÁSTER/otro.md", "", true},
		{"secret folder with spaces", "Secretos del DJ/trama.md", "", true},
		{"visibility: dm", "NPCs/d.md", "visibility: dm", true},
		{"YAML list", "NPCs/e.md", "visibility: [dm]", true},
		{"capitalised key", "NPCs/f.md", "Visibility: dm", true},
		{"Spanish key", "NPCs/g.md", "visibilidad: dm", true},
		{"solo dm", "NPCs/h.md", "visibility: solo dm", true},
		{"visible: false", "NPCs/i.md", "visible: false", true},
		{"secreto: true", "NPCs/j.md", "secreto: sí", true},
		{"máster", "NPCs/k.md", "visibilidad: Máster", true},
		{"oculto", "NPCs/l.md", "visibilidad: oculto", true},
		{"not understood fails closed", "NPCs/m.md", "visibility: equipo rojo", true},
		{"typo fails closed", "NPCs/n.md", "visiblity: dm", true},
		{"tag", "NPCs/o.md", "tags: [npc, dm-only]", true},
		{"invalid YAML with a visibility line", "NPCs/t.md", "title: [roto\nvisibility: dm", true},
		{"front matter too large to parse", "NPCs/u.md", "visibility: dm\nrelleno: " + strings.Repeat("x", 70<<10), true},
		{"public", "NPCs/p.md", "visibility: public", false},
		{"jugadores", "NPCs/q.md", "visibilidad: jugadores", false},
		{"plain note", "Sesiones/r.md", "", false},
		{"a folder merely named like DM", "DMs favoritos/s.md", "", false},
	}
	word := func(i int) string { return fmt.Sprintf("zarquifol%c%c", 'a'+i/26, 'a'+i%26) }
	for i, c := range cases {
		text := fmt.Sprintf("# Nota %d\n\nEl %s aparece aquí y en ningún otro sitio.\n", i, word(i))
		if c.front != "" {
			text = "---\n" + c.front + "\n---\n" + text
		}
		write(t, filepath.Join(dir, c.path), text)
	}
	// Symbolic links judged by where they point.
	write(t, filepath.Join(dir, "DM", "destino.md"), "# Destino\n\nEl zarquifolenlace vive en la carpeta del DM.\n")
	write(t, filepath.Join(outside, "DM", "fuera.md"), "# Fuera\n\nEl zarquifolfuera vive fuera de las notas.\n")
	for link, target := range map[string]string{
		"Sesiones/enlace.md": "../DM/destino.md",
		"Sesiones/fuera.md":  filepath.Join(outside, "DM", "fuera.md"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	eng, _ := openEngine(t)
	rep, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{SecretFolders: []string{"DM", "Máster", "Secretos del DJ"}})
	if err != nil {
		t.Fatal(err)
	}
	found := func(ctx context.Context, w string) []string {
		t.Helper()
		hits, err := eng.Search(ctx, w, oraculo.SearchOptions{K: 5})
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, h := range hits {
			if strings.Contains(h.Text, w) {
				files = append(files, h.File)
			}
		}
		return files
	}
	visible, err := eng.Chunks(player, nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, c := range visible {
		listed[c.File] = true
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := found(ctx, word(i)); len(got) != 1 || got[0] != c.path {
				t.Fatalf("the DM finds %v for %s, want %s", got, word(i), c.path)
			}
			got := found(player, word(i))
			if c.dmOnly && (len(got) > 0 || listed[c.path]) {
				t.Errorf("a player finds the DM-only note %s (search %v, listed %v)", c.path, got, listed[c.path])
			}
			if !c.dmOnly && len(got) != 1 {
				t.Errorf("a player does not find the public note %s", c.path)
			}
			if _, err := eng.Note(player, c.path); (err == nil) == c.dmOnly {
				t.Errorf("player reading the note %s: %v", c.path, err)
			}
		})
	}
	for _, w := range []string{"zarquifolenlace", "zarquifolfuera"} {
		if got := found(player, w); len(got) > 0 {
			t.Errorf("a player finds %s through a link into a secret folder: %v", w, got)
		}
		if got := found(ctx, w); len(got) == 0 {
			t.Errorf("the DM does not find %s", w)
		}
	}
	// Settings not understood are warned about, naming the file.
	warned := map[string]bool{}
	for _, w := range rep.Warnings {
		warned[w.Path] = true
	}
	for _, p := range []string{"NPCs/m.md", "NPCs/n.md", "NPCs/t.md", "NPCs/u.md"} {
		if !warned[p] {
			t.Errorf("no warning for %s: %+v", p, rep.Warnings)
		}
	}
	st, err := eng.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, c := range cases {
		if c.dmOnly {
			want++
		}
	}
	want += 3 // DM/destino.md and the two links
	if st.DMOnly.Notes != want || st.DMOnly.ByReason["folder"] != 7 || st.DMOnly.ByReason["link"] != 2 || st.DMOnly.ByReason["unclear"] != 4 {
		t.Errorf("stats count %+v, want %d DM-only notes: 7 by folder, 2 by link, 4 unclear", st.DMOnly, want)
	}
}
