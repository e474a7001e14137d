package chunk

import "testing"

// TestDetectSession: the session headers' cases are in testdata/detect
// (TestDetectSessionScenarios); here, those a text file would not keep as
// they are written (an accent as a combining mark, an empty line).
func TestDetectSession(t *testing.T) {
	tests := []struct {
		line    string
		ok      bool
		number  int
		heading string
	}{
		{"## Sesio\u0301n 9", true, 9, "Sesio\u0301n 9"},
		{"", false, 0, ""},
	}
	for _, tc := range tests {
		n, h, ok := DetectSession(tc.line)
		if ok != tc.ok || n != tc.number || h != tc.heading {
			t.Errorf("DetectSession(%q) = %d, %q, %v; want %d, %q, %v", tc.line, n, h, ok, tc.number, tc.heading, tc.ok)
		}
	}
}

func TestSessionFromPath(t *testing.T) {
	tests := []struct {
		path   string
		ok     bool
		number int
	}{
		{"Sesiones/Sesion 7.md", true, 7},
		{"sesion 25.md", true, 25},
		{"Sesión 3.txt", true, 3},
		{"SESIÓN 4.md", true, 4},
		{"Session 12.md", true, 12},
		{"campaña/sesiones/sesion_07.md", true, 7},
		{"Sesion-3.md", true, 3},
		{"Sesion7.md", true, 7},
		{"Sesión nº 8.md", true, 8},
		{"Sesión 9 - La cripta.md", true, 9},
		{"2024-03-12 Sesión 10.md", true, 10},
		{"012 - Sesion 12.md", true, 12},
		{"Sesión 5b.md", true, 5},
		{"Sesion 7", true, 7},

		{"Sesiones.md", false, 0},
		{"Sesiones/notas.md", false, 0},
		{"Sesiones/Resumen sesión 7.md", false, 0},
		{"Sesión.md", false, 0},
		{"Sesión final.md", false, 0},
		{"NPCs/Harbin Wester.md", false, 0},
		{"Sesión 5ta.md", false, 0},
		{"", false, 0},
	}
	for _, tc := range tests {
		n, ok := SessionFromPath(tc.path)
		if ok != tc.ok || n != tc.number {
			t.Errorf("SessionFromPath(%q) = %d, %v; want %d, %v", tc.path, n, ok, tc.number, tc.ok)
		}
	}
}

func TestDocTitle(t *testing.T) {
	tests := []struct {
		name string
		doc  Document
		want string
	}{
		{"explicit", Document{Path: "a/b.md", Title: " Mi título ", Text: "# Otro"}, "Mi título"},
		{"first h1 saying the stem", Document{Path: "a/uno.md", Text: "intro\n## Dos\n# **Uno** #\n# Tres"}, "Uno"},
		{"h1 in fence skipped", Document{Path: "a/si.md", Text: "```\n# No\n```\n# Sí"}, "Sí"},
		{"stem", Document{Path: "NPCs/Harbin Wester.md", Text: "## Apariencia"}, "Harbin Wester"},
		{"stem without folder", Document{Path: "notas.txt"}, "notas"},
		{"empty h1 skipped", Document{Path: "real.md", Text: "#\n# Real"}, "Real"},
		// Obsidian titles a note by its file name: a first H1 that says
		// other words is a section of the note, not its title.
		{"h1 that is a section", Document{Path: "NPCs/Katerina Emberdusk.md", Text: "# Acciones Notables\n\nSalvó al rey."}, "Katerina Emberdusk"},
		{"h1 with the stem's words", Document{Path: "NPCs/ser-morcant.md", Text: "# Ser Morcant\n\nCaballero."}, "Ser Morcant"},
		{"h1 with the stem's words, accents aside", Document{Path: "Lugares/Leon.md", Text: "# León"}, "León"},
		{"only the first h1", Document{Path: "n/Nix.md", Text: "# Historia\n# Nix"}, "Nix"},
		{"h1 of a converted document", Document{Path: "manual.pdf", Text: "# Manual de uso\n\nTexto."}, "Manual de uso"},
		{"h1 of a text note", Document{Path: "notas.txt", Text: "# Mis notas"}, "Mis notas"},
	}
	for _, tc := range tests {
		if got := DocTitle(tc.doc); got != tc.want {
			t.Errorf("%s: DocTitle = %q, want %q", tc.name, got, tc.want)
		}
	}
}
