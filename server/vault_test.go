package server

import (
	"slices"
	"testing"

	"github.com/oraculo/oraculo/store/storetest"
)

// TestWatchObsidianVault: a watching server leaves an Obsidian vault's
// templates and "Excluded files" out as the ingest does, and includes
// the templates when told to (serve --include-templates); removing a
// filter in Obsidian lets its notes in without any note changing.
func TestWatchObsidianVault(t *testing.T) {
	for _, include := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "include-templates"}[include], func(t *testing.T) {
			root := storetest.VaultNotes(t)
			ts, _ := serveWatching(t, root, Config{IncludeTemplates: include})
			storetest.WriteFile(t, root, "Plantillas/PNJ.md", "# PNJ\n\nEl zarquimolde de un PNJ.\n")
			storetest.WriteFile(t, root, "Archivo/Otra.md", "# Otra\n\nEl zarquiviejo.\n")
			storetest.WriteFile(t, root, "Sesiones/Sesión 2.md", "# Sesión 2\n\nEl zarquinuevo.\n")
			seen(t, ts, "a new session note", "zarquinuevo", "Sesiones/Sesión 2.md")
			var templates []string
			if include {
				templates = []string{"Plantillas/PNJ.md", "Plantillas/Sesión.md"}
				seen(t, ts, "the templates", "zarquimolde zarzamora", templates...)
			}
			if got := searchFiles(t, ts, "zarquimolde zarzamora zarquiviejo"); !slices.Equal(got, templates) {
				t.Errorf("searching the templates and the archive finds %q, want %q", got, templates)
			}
			storetest.WriteFile(t, root, ".obsidian/app.json", `{"userIgnoreFilters": []}`)
			seen(t, ts, "the archive once no longer excluded", "zarquiviejo quimera", "Archivo/Campaña vieja.md", "Archivo/Otra.md")
		})
	}
}
