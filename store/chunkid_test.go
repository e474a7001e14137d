package store

import "testing"

// TestChunkUIDs: an id relative to the notes folder does not depend on
// where the folder lies; the rooted id is the one ingests gave before
// (pinned: indexes hold it, and links and memory entries name it).
func TestChunkUIDs(t *testing.T) {
	if got := RootedChunkUID("/home/dm/Campaña", "Sesiones/Sesión 1.md", 2, "El grupo llega a Villaseca."); got != "f44f2c6365509caa" {
		t.Errorf("RootedChunkUID = %q, want the id of before, f44f2c6365509caa", got)
	}
	a := ChunkUID("Sesiones/Sesión 1.md", 2, "El grupo llega a Villaseca.")
	for _, other := range []string{
		ChunkUID("Sesiones/Sesión 2.md", 2, "El grupo llega a Villaseca."),
		ChunkUID("Sesiones/Sesión 1.md", 3, "El grupo llega a Villaseca."),
		ChunkUID("Sesiones/Sesión 1.md", 2, "El grupo llega a Villaseca"),
		ChunkUIDIn("/mnt/otra", a),
	} {
		if other == a || len(other) != 16 {
			t.Errorf("%q beside %q", other, a)
		}
	}
}
