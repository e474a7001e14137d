package oraculo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// TestSecretFoldersAndFrontMatter: a note is DM-only by its front matter
// or its folder; changing the folders re-marks notes without re-reading
// them, and players' searches follow.
func TestSecretFoldersAndFrontMatter(t *testing.T) {
	ctx := context.Background()
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	dir := t.TempDir()
	write(t, dir+"/Sesiones/s1.md", "# Sesión 1\n\nEl grupo encuentra un mapa del dragón en la cripta.\n")
	write(t, dir+"/NPCs/Vex.md", "---\nvisibility: dm\n---\n# Vex\n\nVex es el dragón disfrazado de mercader.\n")
	write(t, dir+"/DM/plan.md", "# Plan\n\nEl dragón atacará la ciudad en la sesión 5.\n")
	write(t, dir+"/Secretos/giro.md", "# Giro\n\nEl dragón es la madre de Vex y de [[Orvalda]].\n")
	eng, _ := openEngine(t)
	files := func(ctx context.Context) map[string]bool {
		t.Helper()
		hits, err := eng.Search(ctx, "dragón", oraculo.SearchOptions{K: 10})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, h := range hits {
			out[h.File] = true
		}
		return out
	}
	rep, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.SecretFolders) != 1 || rep.SecretFolders[0] != "DM" {
		t.Errorf("default secret folders %v, want [DM]", rep.SecretFolders)
	}
	got := files(player)
	if got["NPCs/Vex.md"] || got["DM/plan.md"] || !got["Secretos/giro.md"] || !got["Sesiones/s1.md"] {
		t.Errorf("player sees %v", got)
	}
	if got := files(ctx); len(got) != 4 {
		t.Errorf("the DM sees %v, want all four notes", got)
	}
	if _, ok, _ := eng.FindEntity(player, "Orvalda"); !ok {
		t.Error("Orvalda, named in a note players may see, is not in their compendium")
	}
	// Another folder list: re-marked without re-reading anything.
	rep, err = eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{SecretFolders: []string{"Secretos/"}})
	if err != nil || rep.Indexed != 0 {
		t.Fatalf("re-ingest: %v, %d indexed", err, rep.Indexed)
	}
	got = files(player)
	if got["NPCs/Vex.md"] || !got["DM/plan.md"] || got["Secretos/giro.md"] {
		t.Errorf("after --secret-folders Secretos, player sees %v", got)
	}
	// The players' compendium was rebuilt for the new audience.
	if _, ok, _ := eng.FindEntity(player, "Orvalda"); ok {
		t.Error("Orvalda, named only in a note now DM-only, is still in the players' compendium")
	}
	// The folders are remembered by the next ingest.
	if rep, err = eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil || len(rep.SecretFolders) != 1 || rep.SecretFolders[0] != "Secretos" {
		t.Errorf("stored folders: %v %v", rep.SecretFolders, err)
	}
	// The players' compendium does not know the DM-only note's entity.
	if _, ok, _ := eng.FindEntity(player, "Vex"); ok {
		t.Error("players' compendium knows Vex, described only in a DM-only note")
	}
	if _, ok, _ := eng.FindEntity(ctx, "Vex"); !ok {
		t.Error("the DM's compendium lacks Vex")
	}
}

// TestServingEngineSeesAnotherProcessIngest: an engine that has cached the
// compendium and the DM-only set (a running server) sees what an ingest
// by another engine on the same file changed.
func TestServingEngineSeesAnotherProcessIngest(t *testing.T) {
	ctx := context.Background()
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	dir := t.TempDir()
	write(t, dir+"/Sesiones/s1.md", "# Sesión 1\n\nEl grupo encuentra un mapa en la cripta.\n")
	ingester, db := openEngine(t)
	if _, err := ingester.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	server, err := oraculo.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	if hits, err := server.Search(player, "mapa", oraculo.SearchOptions{K: 5}); err != nil || len(hits) != 1 {
		t.Fatalf("before: %d hits, %v", len(hits), err)
	}
	write(t, dir+"/Sesiones/s1.md", "---\nvisibility: dm\n---\n# Sesión 1\n\nEl grupo encuentra un mapa en la cripta.\n")
	write(t, dir+"/Sesiones/s2.md", "# Sesión 2\n\nOtro mapa, el de la torre.\n")
	write(t, dir+"/NPCs/Orla Vantis.md", "# Orla Vantis\n\nCartógrafa de la torre.\n")
	if _, err := ingester.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	hits, err := server.Search(player, "mapa", oraculo.SearchOptions{K: 5})
	if err != nil || len(hits) != 1 || hits[0].File != "Sesiones/s2.md" {
		t.Fatalf("after the other process's ingest: %v, %v", labels(hits), err)
	}
	// The new entity is known to the serving engine's entity path.
	hits, err = server.Search(player, "¿Quién es Orla Vantis?", oraculo.SearchOptions{K: 5, Paths: []string{"entity"}})
	if err != nil || len(hits) == 0 {
		t.Fatalf("entity path after the other process's ingest: %v, %v", labels(hits), err)
	}
}

// TestOverlappingFolders: folders inside one another in one ingest are
// refused; one overlapping an earlier ingest's folder is a warning.
func TestOverlappingFolders(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, dir+"/notas/sub/a.md", "# A\n\nUna nota.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{dir + "/notas", dir + "/notas/sub"}, oraculo.IngestOptions{}); err == nil || !strings.Contains(err.Error(), "lies inside") {
		t.Fatalf("nested folders in one ingest: %v", err)
	}
	if st, _ := eng.Stats(ctx); st.Documents != 0 {
		t.Fatalf("the refused ingest wrote %d notes", st.Documents)
	}
	if _, err := eng.Ingest(ctx, []string{dir + "/notas/sub"}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	rep, err := eng.Ingest(ctx, []string{dir + "/notas"}, oraculo.IngestOptions{})
	if err != nil || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0].Detail, "overlap") {
		t.Fatalf("overlapping an earlier folder: %v, warnings %+v", err, rep.Warnings)
	}
}
