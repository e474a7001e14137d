package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestIndexSizeAgrees: the size ingest's summary gives the index is the
// size stats gives it right after, in the text (both languages) and in
// --json, whether or not the database's log was folded in meanwhile.
func TestIndexSizeAgrees(t *testing.T) {
	notes := smallNotes(t)
	for i := range 40 { // enough pages that a log left behind would show
		writeNote(t, filepath.Join(notes, "Más", "nota"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+".md"),
			"# Nota\n\n"+strings.Repeat("El puente de Galerna cruje bajo los trolls. ", 80))
	}
	figures := map[string]*regexp.Regexp{
		"en": regexp.MustCompile(`paragraphs, (.+) on disk\n[\s\S]*\nindex size +(.+)\n`),
		"es": regexp.MustCompile(`párrafos, (.+) en disco\n[\s\S]*\ntamaño del índice +(.+)\n`),
	}
	for ui, re := range figures {
		db := filepath.Join(t.TempDir(), "o.db")
		in, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", "--ui-lang", ui, notes)
		if code != 0 {
			t.Fatalf("ingest: %s", errOut)
		}
		st, _, _ := runCLI(t, "", "stats", "--db", db, "--ui-lang", ui)
		m := re.FindStringSubmatch(in + "\n" + st)
		if m == nil || m[1] != m[2] {
			t.Errorf("(%s) ingest and stats disagree on the index's size:\n%s\n%s", ui, in, st)
		}
	}
	db := filepath.Join(t.TempDir(), "o.db")
	in, _, _ := runCLI(t, "", "ingest", "--db", db, "--json", "--quiet", notes)
	st, _, _ := runCLI(t, "", "stats", "--db", db, "--json")
	var ingested struct {
		Stats struct {
			Bytes int64 `json:"index_bytes"`
		} `json:"stats"`
	}
	var stats struct {
		Bytes int64 `json:"index_bytes"`
	}
	if json.Unmarshal([]byte(in), &ingested) != nil || json.Unmarshal([]byte(st), &stats) != nil ||
		stats.Bytes == 0 || ingested.Stats.Bytes != stats.Bytes {
		t.Errorf("--json: ingest says %d bytes, stats %d:\n%s\n%s", ingested.Stats.Bytes, stats.Bytes, in, st)
	}
}
