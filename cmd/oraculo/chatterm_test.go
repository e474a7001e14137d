package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

func TestChatHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chat_history")
	h := loadChatHistory(path, 3)
	for _, q := range []string{"uno", "", "  ", "dos", "dos", "tres", "cuatro"} {
		h.Add(q)
	}
	if h.Len() != 3 || h.At(0) != "cuatro" || h.At(2) != "dos" {
		t.Errorf("history: %q", h.entries)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "uno\ndos\ntres\ncuatro\n" {
		t.Errorf("file: %q", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	// The next session starts with the last entries; a file grown past
	// twice the cap is cut back to it.
	h = loadChatHistory(path, 3)
	if h.Len() != 3 || h.At(0) != "cuatro" || h.At(2) != "dos" {
		t.Errorf("loaded: %q", h.entries)
	}
	for i := range 4 {
		h.Add(fmt.Sprint("q", i))
	}
	h = loadChatHistory(path, 3)
	if data, _ := os.ReadFile(path); string(data) != "q1\nq2\nq3\n" || h.At(0) != "q3" {
		t.Errorf("after the cut: file %q, entries %q", data, h.entries)
	}
	// A line asking to remember or forget is recalled in this session
	// but never written to the file.
	h.Add("Recuerda que Ana es alérgica al marisco")
	h.Add("olvida lo de Ana")
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "Ana") || h.At(1) != "Recuerda que Ana es alérgica al marisco" {
		t.Errorf("memory lines: file %q, entries %q", data, h.entries)
	}
	// A history that cannot be written lives in memory.
	h = loadChatHistory(filepath.Join(t.TempDir(), "no", "such", "dir"), 3)
	h.Add("a")
	h.Add("b")
	if h.Len() != 2 || h.At(0) != "b" {
		t.Errorf("in memory: %q", h.entries)
	}
}

// A player's history is not the DM's.
func TestChatHistoryPathPerRole(t *testing.T) {
	db := filepath.Join(t.TempDir(), "o.db")
	dm := chatHistoryPath(context.Background(), location{backend: backendSQLite, db: db})
	player := chatHistoryPath(oraculo.WithRole(context.Background(), oraculo.RolePlayer), location{backend: backendSQLite, db: db})
	if dm != filepath.Join(filepath.Dir(db), "chat_history") || player == dm || filepath.Dir(player) != filepath.Dir(db) {
		t.Errorf("dm %q, player %q", dm, player)
	}
}

// $ORACULO_CHAT_HISTORY turns the history file off, or moves it.
func TestChatHistoryPathFromEnv(t *testing.T) {
	db := filepath.Join(t.TempDir(), "o.db")
	sqlite := location{backend: backendSQLite, db: db}
	cluster := location{backend: backendWeaviate, db: db, url: "http://127.0.0.1:1", collection: "oraculo"}
	t.Setenv("ORACULO_CHAT_HISTORY", "")
	if p := chatHistoryPath(context.Background(), cluster); p != "" {
		t.Errorf("an index in a cluster keeps its history in %q, want none (nothing local)", p)
	}
	t.Setenv("ORACULO_CHAT_HISTORY", "off")
	if p := chatHistoryPath(context.Background(), sqlite); p != "" {
		t.Errorf("off: %q", p)
	}
	h := loadChatHistory(chatHistoryPath(context.Background(), sqlite), 10)
	h.Add("¿quién es Nix?")
	if entries, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "*")); len(entries) != 0 || h.Len() != 1 {
		t.Errorf("off wrote %v, kept %d", entries, h.Len())
	}
	elsewhere := filepath.Join(t.TempDir(), "historia")
	t.Setenv("ORACULO_CHAT_HISTORY", elsewhere)
	for _, l := range []location{sqlite, cluster} {
		if p := chatHistoryPath(context.Background(), l); p != elsewhere {
			t.Errorf("a path, %s: %q", l.backend, p)
		}
	}
}
