// Package storytest holds a small campaign for the tests of the story
// features on every surface: its contradictions are half in DM-only
// notes, so that a player's view can be told from the DM's.
package storytest

import (
	"os"
	"path/filepath"
	"testing"
)

// Continuity is a campaign where Garrik Tresdedos dies in session 2 and
// acts in session 3 (a public note) and in session 4 (a DM-only note,
// under DM/), and where a DM-only note gives Chispa another "raza" than
// her NPC note. The DM's check finds three pairs, a player's one: Garrik
// in sessions 2 and 3.
var Continuity = map[string]string{
	"Sesiones/Sesion 1.md":     "# Sesión 1\n\nGarrik Tresdedos paga la ronda en la taberna.\n",
	"Sesiones/Sesion 2.md":     "# Sesión 2\n\nUn virote desde un tejado: Garrik Tresdedos ha muerto en el puente.\n",
	"Sesiones/Sesion 3.md":     "# Sesión 3\n\nEn la taberna, Garrik Tresdedos levanta la jarra y brinda por nosotros.\n",
	"DM/Sesion 4.md":           "# Sesión 4\n\nGarrik Tresdedos conspira en secreto con el regente.\n",
	"NPCs/Garrik Tresdedos.md": "---\ntitle: Garrik Tresdedos\n---\n\nMercenario de los Perros.\n",
	"NPCs/Chispa.md":           "---\ntitle: Chispa\nraza: kobold\n---\n\nKobold alquimista.\n",
	"DM/Chispa.md":             "---\ntitle: Chispa\nraza: dragona\n---\n\nLo que Chispa es de verdad.\n",
}

// Secrets are words only the DM-only notes of Continuity hold.
var Secrets = []string{"DM/", "conspira", "regente", "dragona"}

// Write writes notes into dir/notas and returns that folder.
func Write(t testing.TB, dir string, notes map[string]string) string {
	t.Helper()
	root := filepath.Join(dir, "notas")
	for name, text := range notes {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
