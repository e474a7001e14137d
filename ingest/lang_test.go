package ingest

import (
	"context"
	"strings"
	"testing"
)

// TestUpdateEachNoteInItsLanguage: with Detect and Langs, each note is
// cut (its labels), analysed and stamped in the language recognised in
// it and stored with it; an unchanged note in either language is left
// alone, and a new analysis of one language redoes only its notes.
func TestUpdateEachNoteInItsLanguage(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeNote(t, root, "Sessions/Session 1.md", "# Session 1\n\nThe party reaches the village.\n")
	writeNote(t, root, "Sesiones/Sesión 2.md", "# Sesión 2\n\nEl grupo llega a la aldea.\n")
	detect := func(text string) string {
		if strings.Contains(text, "The party") {
			return "en"
		}
		return "es"
	}
	cfg := testConfig()
	cfg.Detect = detect
	cfg.Langs = map[string]LangAnalysis{
		"es": {Stamp: "es-1", Terms: func(s string) []string { return []string{"es"} }},
		"en": {Stamp: "en-1", Terms: func(s string) []string { return []string{"en"} }},
	}
	w := newMemWriter()
	res, err := Update(ctx, w, root, cfg)
	if err != nil || res.Indexed != 2 {
		t.Fatalf("first run: %+v, %v", res, err)
	}
	for path, want := range map[string][3]string{
		"Sessions/Session 1.md": {"en", "en-1", "Session 1"},
		"Sesiones/Sesión 2.md":  {"es", "es-1", "Sesión 2"},
	} {
		d := w.docs[root+"\x00"+path]
		if d == nil {
			t.Fatalf("%s not stored: %v", path, w.docs)
		}
		if d.Lang != want[0] || d.Stamp != want[1] || len(d.Chunks) == 0 || d.Chunks[0].Label != want[2] || d.Chunks[0].Children[0].Terms != want[0] {
			t.Errorf("%s: lang %q, stamp %q, chunks %+v; want %v", path, d.Lang, d.Stamp, d.Chunks, want)
		}
	}
	if res, err := Update(ctx, w, root, cfg); err != nil || res.Indexed != 0 || res.Unchanged != 2 {
		t.Errorf("unchanged run: %+v, %v", res, err)
	}
	cfg.Langs["en"] = LangAnalysis{Stamp: "en-2", Terms: cfg.Langs["en"].Terms}
	if res, err := Update(ctx, w, root, cfg); err != nil || res.Indexed != 1 || res.Unchanged != 1 {
		t.Errorf("new English analysis: %+v, %v; want only the English note redone", res, err)
	}
}
