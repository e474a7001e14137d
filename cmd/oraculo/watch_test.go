package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// serveSearch are the files a served search for q finds by keyword.
func serveSearch(t *testing.T, url, q string) []string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"question": q, "k": 50, "paths": []string{"bm25"}})
	resp, err := http.Post(url+"api/search", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Hits []struct {
			File string `json:"file"`
		} `json:"hits"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != 200 {
		t.Fatalf("search %q: %d, %v", q, resp.StatusCode, err)
	}
	var files []string
	for _, h := range got.Hits {
		if !slices.Contains(files, h.File) {
			files = append(files, h.File)
		}
	}
	slices.Sort(files)
	return files
}

// served waits, 5 s at most, until a served search for q finds files.
func served(t *testing.T, url, what, q string, files ...string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := serveSearch(t, url, q)
		if slices.Equal(got, files) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: a search for %q finds %q, want %q", what, q, got, files)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeWatch: a running serve --watch answers the next search with
// the notes as they are, whatever the editor did to them, and stops
// cleanly.
func TestServeWatch(t *testing.T) {
	t.Setenv("ORACULO_TOKENS", "")
	t.Setenv("ORACULO_UI_LANG", "en")
	dir := smallNotes(t)
	// The index inside the folder: its writes are not changes.
	db := filepath.Join(dir, "indice.db")
	if _, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", dir); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	url, stdout, stderr, stop := startServe(t, "--db", db, "--watch", "--watch-debounce", "100ms")
	if !strings.Contains(stdout.String(), "Watching "+mustReal(t, dir)) {
		t.Errorf("serve does not say what it watches:\n%s", stdout)
	}

	note := filepath.Join(dir, "NPCs", "Zelmira.md")
	writeNote(t, note, "# Zelmira\n\nLa bruja Zelmira vive en el pantano.\n")
	served(t, url, "a new note", "Zelmira", "NPCs/Zelmira.md")

	tmp := filepath.Join(dir, "NPCs", ".Zelmira.md.swp")
	writeNote(t, tmp, "# Zelmira\n\nLa bruja Zelmira se mudó a Puertogris con Ulbrecht.\n")
	if err := os.Rename(tmp, note); err != nil {
		t.Fatal(err)
	}
	served(t, url, "an atomic save", "Ulbrecht", "NPCs/Zelmira.md")

	if err := os.Rename(note, filepath.Join(dir, "Zelmira la bruja.md")); err != nil {
		t.Fatal(err)
	}
	served(t, url, "a rename", "Ulbrecht", "Zelmira la bruja.md")
	if err := os.Remove(filepath.Join(dir, "Zelmira la bruja.md")); err != nil {
		t.Fatal(err)
	}
	served(t, url, "a removal", "Ulbrecht")

	resp, err := http.Get(url + "api/health")
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Watch struct {
			State   string `json:"state"`
			Updates int    `json:"updates"`
		} `json:"watch"`
	}
	json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if h.Watch.State != "watching" || h.Watch.Updates == 0 {
		t.Errorf("health: %+v", h)
	}
	// Nothing the index wrote in the folder made an update of its own:
	// the updates settle.
	time.Sleep(500 * time.Millisecond)
	before := health(t, url)
	time.Sleep(500 * time.Millisecond)
	if after := health(t, url); after != before {
		t.Errorf("the watcher keeps updating (%d, then %d updates): it reacts to the index's own writes", before, after)
	}
	if err := stop(); err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr)
	}
}

// health is how many updates a served watcher has made.
func health(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url + "api/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h struct {
		Watch struct {
			Updates int `json:"updates"`
		} `json:"watch"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h.Watch.Updates
}

func mustReal(t *testing.T, dir string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func TestWatchDebounceMustBePositive(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	for _, args := range [][]string{{"ingest", t.TempDir()}, {"serve"}} {
		cmd := args[0]
		_, errOut, code := runCLI(t, "", append(args, "--db", filepath.Join(t.TempDir(), "o.db"), "--watch", "--watch-debounce", "0s")...)
		if code != 2 || !strings.Contains(errOut, "--watch-debounce must be more than 0") {
			t.Errorf("%s --watch-debounce 0s: exit %d, %s", cmd, code, errOut)
		}
	}
}

// TestIngestWatch: ingest --watch ingests, then prints a line for each
// update until it is stopped.
func TestIngestWatch(t *testing.T) {
	saved := lang
	lang = "es" // as run would for ORACULO_UI_LANG=es
	t.Cleanup(func() { lang = saved })
	dir := smallNotes(t)
	db := filepath.Join(t.TempDir(), "o.db")
	stdout, stderr := &lockedBuffer{}, &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- runCommand(ctx, "ingest", []string{"--db", db, "--quiet", "--watch", "--watch-debounce", "100ms", dir}, nil, stdout, stderr)
	}()
	waitOutput := func(what, want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(stdout.String(), want) {
			select {
			case err := <-done:
				t.Fatalf("ingest --watch ended: %v\n%s%s", err, stdout, stderr)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no %q in:\n%s%s", what, want, stdout, stderr)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitOutput("the first ingest", "Vigilando los cambios en")
	writeNote(t, filepath.Join(dir, "Nueva.md"), "# Nueva\n\nUna nota nueva.\n")
	waitOutput("an update", "índice al día: 1 indexado, 0 eliminados; 3 notas en el índice")
	if err := os.Remove(filepath.Join(dir, "Nueva.md")); err != nil {
		t.Fatal(err)
	}
	waitOutput("a removal", "índice al día: 0 indexados, 1 eliminado; 2 notas en el índice")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ingest --watch stopped with %v\n%s", err, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ingest --watch did not stop")
	}
	if !strings.HasSuffix(stdout.String(), "Vigilancia detenida.\n") {
		t.Errorf("the last line is not the stop:\n%s", stdout)
	}
}
