package watch

import (
	"path/filepath"
	"testing"
	"time"
)

// TestIgnoresObsidianExclusions: changes to the notes an Obsidian vault's
// settings leave out of an ingest (its templates folder, its "Excluded
// files") are not reacted to, unless the ingest includes them; a change
// to those settings makes the next update a rescan, with the new
// settings.
func TestIgnoresObsidianExclusions(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".obsidian", "templates.json"), `{"folder": "Plantillas"}`)
	write(t, filepath.Join(root, ".obsidian", "app.json"), `{"userIgnoreFilters": ["Archivo/", "/borrador/"]}`)
	write(t, filepath.Join(root, "Plantillas", "Sesión.md"), "x")
	write(t, filepath.Join(root, "Archivo", "vieja.md"), "x")
	write(t, filepath.Join(root, "Sesiones", "Sesión 1.md"), "x")
	rec := &recorder{}
	w, _ := start(t, Config{Roots: []string{root}, Debounce: 100 * time.Millisecond, Update: rec.update}, nil)
	write(t, filepath.Join(root, "Plantillas", "Sesión.md"), "y")
	write(t, filepath.Join(root, "Plantillas", "Nueva.md"), "y")
	write(t, filepath.Join(root, "Archivo", "vieja.md"), "y")
	write(t, filepath.Join(root, "Archivo", "2020", "otra.md"), "y")
	write(t, filepath.Join(root, "Sesiones", "Borrador 3.md"), "y")
	time.Sleep(300 * time.Millisecond)
	note := filepath.Join(root, "Sesiones", "Sesión 3.md")
	write(t, note, "texto")
	settled(t, w, rec, 1)
	time.Sleep(300 * time.Millisecond)
	if got := rec.paths(); len(got) != 1 || !got[note] || rec.calls() != 1 {
		t.Fatalf("batches %+v, want one naming only %q", rec.batches, note)
	}

	// The filter removed: a rescan at once, and the archive's notes count.
	write(t, filepath.Join(root, ".obsidian", "app.json"), `{"userIgnoreFilters": []}`)
	settled(t, w, rec, 2)
	if b := rec.batches[1]; !b.Rescan {
		t.Errorf("after the settings changed: %+v, want a rescan", b)
	}
	archived := filepath.Join(root, "Archivo", "vieja.md")
	write(t, archived, "z")
	waitFor(t, "the note no longer excluded", func() bool { return rec.paths()[archived] })
	// Other files of .obsidian change nothing.
	n := rec.calls()
	write(t, filepath.Join(root, ".obsidian", "workspace.json"), "{}")
	time.Sleep(300 * time.Millisecond)
	if rec.calls() != n {
		t.Errorf("workspace.json made an update: %+v", rec.batches[n:])
	}
}

// TestIncludesObsidianTemplates: with the templates included, their
// changes are seen.
func TestIncludesObsidianTemplates(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".obsidian", "templates.json"), `{"folder": "Plantillas"}`)
	rec := &recorder{}
	cfg := Config{Roots: []string{root}, Debounce: 100 * time.Millisecond, Update: rec.update}
	cfg.Vault.IncludeTemplates = true
	w, _ := start(t, cfg, nil)
	tpl := filepath.Join(root, "Plantillas", "Sesión.md")
	write(t, tpl, "x")
	waitFor(t, "the template", func() bool { return rec.paths()[tpl] })
	settled(t, w, rec, 1)
}

// TestPollSeesObsidianSettings: a rescan sees a change to the settings
// alone.
func TestPollSeesObsidianSettings(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".obsidian", "app.json"), `{}`)
	rec := &recorder{}
	w, _ := start(t, Config{Roots: []string{root}, Poll: true, PollEvery: 50 * time.Millisecond, Update: rec.update}, nil)
	settled(t, w, rec, 1)
	time.Sleep(200 * time.Millisecond)
	n := rec.calls()
	write(t, filepath.Join(root, ".obsidian", "app.json"), `{"userIgnoreFilters": ["Archivo/"]}`)
	settled(t, w, rec, n+1)
}
