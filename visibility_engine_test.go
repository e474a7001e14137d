package oraculo_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	rep, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{SecretFolders: []string{"DM", "Máster", "Secretos del DJ"}, FollowLinksOutside: true})
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

// TestPlayersCompendiumWithheld: when a note players could see becomes
// DM-only and the ingest that writes it stops before the compendium is
// rebuilt, the players' compendium (which still names what that note
// named) is withheld until a complete ingest rebuilds it.
func TestPlayersCompendiumWithheld(t *testing.T) {
	ctx := context.Background()
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	dir := t.TempDir()
	write(t, dir+"/Sesiones/s1.md", "# Sesión 1\n\nEl grupo conoce a Harbin en la taberna.\n")
	write(t, dir+"/NPCs/Harbin Wester.md", "# Harbin Wester\n\nTabernero de Puertogris.\n")
	write(t, dir+"/NPCs/Vex Tarrasque.md", "---\naliases: [la Sombra Gris]\n---\n# Vex Tarrasque\n\nVex es una mercader de Puertogris.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := eng.FindEntity(player, "la Sombra Gris"); !ok {
		t.Fatal("a public NPC's alias should be in the players' compendium")
	}
	// The NPC becomes a DM secret; the ingest is cancelled right after
	// writing it, before the compendium is rebuilt.
	write(t, dir+"/NPCs/Vex Tarrasque.md", "---\naliases: [la Sombra Gris]\nvisibilidad: secreto\n---\n# Vex Tarrasque\n\nVex es la Sombra Gris, espía del archiduque.\n")
	cctx, cancel := context.WithCancel(ctx)
	_, err := eng.Ingest(cctx, []string{dir}, oraculo.IngestOptions{Progress: func(p oraculo.Progress) {
		if p.Path == "NPCs/Vex Tarrasque.md" {
			cancel()
		}
	}})
	if err == nil {
		t.Fatal("the ingest should have been cancelled")
	}
	comp, err := eng.Compendium(player)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range comp {
		if strings.Contains(en.Name, "Vex") || slices.Contains(en.Aliases, "la Sombra Gris") {
			t.Errorf("the players' compendium still names %q after its note became DM-only", en.Name)
		}
	}
	if _, ok, _ := eng.FindEntity(player, "la Sombra Gris"); ok {
		t.Error("a player finds the DM-only alias")
	}
	if st, _ := eng.Stats(ctx); st.DMOnly.PlayersCompendium != "withheld" {
		t.Errorf("stats say the players' compendium is %q, want withheld", st.DMOnly.PlayersCompendium)
	}
	if dm, _ := eng.Compendium(ctx); len(dm) == 0 {
		t.Error("the DM's compendium is withheld too")
	}
	// A complete ingest rebuilds it, from what players may see.
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if st, _ := eng.Stats(ctx); st.DMOnly.PlayersCompendium != "ok" {
		t.Errorf("after a complete ingest the players' compendium is %q", st.DMOnly.PlayersCompendium)
	}
	if _, ok, _ := eng.FindEntity(player, "Harbin Wester"); !ok {
		t.Error("the rebuilt players' compendium lost a public name")
	}
	if _, ok, _ := eng.FindEntity(player, "la Sombra Gris"); ok {
		t.Error("the rebuilt players' compendium names the DM-only alias")
	}
}

// TestUndecidedNotesAreDecidedOnOpen: an index whose notes are not decided
// yet (as after the upgrade to schema 7) hides them all from players, and
// the next Open decides them with the stored secret folders.
func TestUndecidedNotesAreDecidedOnOpen(t *testing.T) {
	ctx := context.Background()
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	dir := t.TempDir()
	write(t, dir+"/Sesiones/s1.md", "# Sesión 1\n\nEl grupo cruza el puente de Galerna.\n")
	write(t, dir+"/Secretos/plan.md", "# Plan\n\nEl puente de Galerna caerá en la sesión 5.\n")
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{SecretFolders: []string{"Secretos"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := openIndex(t, db).DB().Exec(`UPDATE documents SET restricted = 1, dm_reason = 'unknown';
		DELETE FROM meta WHERE key = 'visibility_rules'`); err != nil {
		t.Fatal(err)
	}
	if hits, _ := eng.Search(player, "puente Galerna", oraculo.SearchOptions{K: 5}); len(hits) != 0 {
		t.Errorf("undecided notes are shown to a player: %v", labels(hits))
	}
	eng.Close()
	eng, err := oraculo.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	hits, err := eng.Search(player, "puente Galerna", oraculo.SearchOptions{K: 5})
	if err != nil || len(hits) != 1 || hits[0].File != "Sesiones/s1.md" {
		t.Errorf("after Open a player finds %v (%v); want only the session", labels(hits), err)
	}
}
