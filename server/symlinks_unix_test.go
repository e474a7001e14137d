//go:build unix

package server

import (
	"context"
	"errors"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	linkpkg "github.com/oraculo/oraculo/link"
	"github.com/oraculo/oraculo/watch"
)

// linkedVault is a vault whose notes link to the index's own files, to a
// file beside the index, to a file outside the notes and to /etc/passwd,
// as a player with write access to a synced vault could make them, and
// also to a note inside the vault, as a DM would.
type linkedVault struct {
	notes, db string
	key       []byte
	// words holds, for each link's name, a word only its target has
	// (none for /etc/passwd, whose text is the system's).
	words map[string]string
}

// The links of a linkedVault, by what they lead to.
const (
	linkKey     = "clave.md"      // the index's link key
	linkHard    = "dura.md"       // a hard link to the link key
	linkTokens  = "tokens.md"     // the tokens file beside the index
	linkBeside  = "junto.md"      // a note-like file in the index's folder
	linkIndex   = "indice.md"     // the index itself
	linkOutside = "fuera.md"      // a file outside the notes, in a temp dir
	linkPasswd  = "passwd.md"     // /etc/passwd
	linkInside  = "Sesiones/x.md" // a note inside the vault
)

func newLinkedVault(t *testing.T) *linkedVault {
	t.Helper()
	v := &linkedVault{notes: writeNotes(t), words: map[string]string{}}
	idxDir, outside := t.TempDir(), t.TempDir()
	v.db = filepath.Join(idxDir, "o.db")
	// A key made of letters, so that, read as a note, it would be text a
	// search finds (a drawn one is, most of the time, in Windows-1252).
	keyText := "zarquiclavesecreta" + strings.Repeat("k", 40)
	must(t, os.WriteFile(linkpkg.KeyPath(v.db), []byte(keyText), 0o600))
	key, err := linkpkg.LoadKey(v.db)
	if err != nil || string(key) != keyText {
		t.Fatalf("the link key: %q %v", key, err)
	}
	v.key = key
	tokens := filepath.Join(idxDir, "tokens.yaml")
	if _, err := AddToken(tokens, "ana", oraculo.RolePlayer); err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(idxDir, "junto.md"), []byte("# Junto\n\nEl zarquijunto vive junto al índice.\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "fuera.md"), []byte("# Fuera\n\nEl zarquifuera vive fuera de las notas.\n"), 0o644))
	targets := map[string]string{
		linkKey:     linkpkg.KeyPath(v.db),
		linkTokens:  tokens,
		linkBeside:  filepath.Join(idxDir, "junto.md"),
		linkIndex:   v.db,
		linkOutside: filepath.Join(outside, "fuera.md"),
		linkInside:  "../NPCs/Harbin Wester.md",
	}
	if _, err := os.Stat("/etc/passwd"); err == nil {
		targets[linkPasswd] = "/etc/passwd"
	}
	for name, target := range targets {
		must(t, os.Symlink(target, filepath.Join(v.notes, filepath.FromSlash(name))))
	}
	if err := os.Link(linkpkg.KeyPath(v.db), filepath.Join(v.notes, linkHard)); err != nil {
		t.Logf("no hard link to the key: %v", err)
	}
	v.words = map[string]string{linkKey: "zarquiclavesecreta", linkHard: "zarquiclavesecreta", linkBeside: "zarquijunto", linkOutside: "zarquifuera", linkInside: "Tabernero"}
	return v
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSymlinksOutsideTheNotes: a symlink among the notes is followed only
// to a note inside them. Links to the link key (and a hard link to it), the
// tokens, the index, a file beside the index, a file outside the notes and
// /etc/passwd are refused, listed with why, and never searchable nor
// readable through the server's pages, even with a link signed by the
// server's own key; a link inside the notes works. --follow-links-outside
// reads the outside file and /etc/passwd but never the index's own files;
// and the next ingest without it removes what it let in.
func TestSymlinksOutsideTheNotes(t *testing.T) {
	ctx := context.Background()
	dm := oraculo.WithRole(ctx, oraculo.RoleDM)
	v := newLinkedVault(t)
	eng, err := oraculo.Open(ctx, v.db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	ts, _ := testServer(t, Config{Engine: eng, LinkKey: v.key})
	signer := &linkpkg.Maker{Key: v.key}
	notePage := func(role, file string) (int, string) {
		t.Helper()
		q := url.Values{"file": {file}, "r": {role}, "k": {signer.Sig(linkpkg.KindNote, role, file)}}
		return getPage(t, ts.URL+"/n?"+q.Encode())
	}
	passagePage := func(role, id string) (int, string) {
		t.Helper()
		q := url.Values{"r": {role}, "k": {signer.Sig(linkpkg.KindPassage, role, id)}}
		return getPage(t, ts.URL+"/c/"+url.PathEscape(id)+"?"+q.Encode())
	}
	// readable says whether the DM reaches the note by any way: search,
	// the engine's note, the note's page and each of its passages' pages.
	readable := func(file string) bool {
		t.Helper()
		n, err := eng.Note(dm, file)
		if err != nil && !errors.Is(err, oraculo.ErrNoNote) {
			t.Fatal(err)
		}
		isNote := err == nil
		status, _ := notePage(oraculo.RoleDM, file)
		if (err == nil) != (status == 200) {
			t.Errorf("%s: the engine says %v, the page %d", file, err, status)
		}
		if w := v.words[file]; w != "" {
			hits, err := eng.Search(dm, w, oraculo.SearchOptions{K: 20})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				if h.File == file {
					if !isNote {
						t.Errorf("%s: found by a search for %q, yet not a note", file, w)
					}
					return true
				}
				if strings.Contains(h.Text, w) && file != linkInside {
					t.Errorf("a search for %q finds it in %s", w, h.File)
				}
			}
		}
		if isNote {
			for _, c := range n.Chunks {
				if status, _ := passagePage(oraculo.RoleDM, c.ID); status != 200 {
					t.Errorf("%s: passage %s: %d", file, c.ID, status)
				}
			}
		}
		return isNote
	}
	refused := func(rep *oraculo.IngestReport) map[string]string {
		out := map[string]string{}
		for _, p := range rep.Skipped {
			out[p.Path] = p.Reason
		}
		return out
	}
	check := func(stage string, rep *oraculo.IngestReport, want map[string]string) {
		t.Helper()
		got := refused(rep)
		for _, name := range []string{linkKey, linkHard, linkTokens, linkBeside, linkIndex, linkOutside, linkPasswd, linkInside} {
			_, statErr := os.Lstat(filepath.Join(v.notes, filepath.FromSlash(name)))
			if statErr != nil {
				continue // no /etc/passwd, or no hard link here
			}
			reason, refuse := want[name]
			if got[name] != reason {
				t.Errorf("%s: %s skipped as %q, want %q", stage, name, got[name], reason)
			}
			if r := readable(name); r == refuse {
				t.Errorf("%s: %s readable = %v, want %v", stage, name, r, !refuse)
			}
		}
	}
	const outside, own = "link-outside-notes", "index-file"

	rep, err := eng.Ingest(ctx, []string{v.notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("by default", rep, map[string]string{linkKey: own, linkHard: own, linkTokens: own, linkBeside: own, linkIndex: own,
		linkOutside: outside, linkPasswd: outside})
	if status, page := notePage(oraculo.RolePlayer, linkInside); status != 200 || !strings.Contains(page, "Tabernero") {
		t.Errorf("a player's link to the note inside the vault: %d %.200s", status, page)
	}

	rep, err = eng.Ingest(ctx, []string{v.notes}, oraculo.IngestOptions{FollowLinksOutside: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.FollowLinksOutside {
		t.Error("the report does not say links outside were followed")
	}
	check("--follow-links-outside", rep, map[string]string{linkKey: own, linkHard: own, linkTokens: own, linkBeside: own, linkIndex: own})
	fuera, err := eng.Note(dm, linkOutside)
	if err != nil {
		t.Fatal(err)
	}

	// As an index built before the fence holds such notes: the next
	// ingest that refuses them takes them out.
	rep, err = eng.Ingest(ctx, []string{v.notes}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("again by default", rep, map[string]string{linkKey: own, linkHard: own, linkTokens: own, linkBeside: own, linkIndex: own,
		linkOutside: outside, linkPasswd: outside})
	for _, c := range fuera.Chunks {
		if status, page := passagePage(oraculo.RoleDM, c.ID); status != 404 || strings.Contains(page, "zarquifuera") {
			t.Errorf("the passage of the note let in before: %d %.200s", status, page)
		}
	}
}

// TestWatchRefusesLinksOutside: under serve --watch, links made while
// watching are judged as by an ingest: a link to the link key, to a file
// beside the index and to a file outside the notes never become
// searchable, while a link inside the notes does, and the last ingest's
// report lists the refused ones with why. With FollowLinksOutside (serve
// --follow-links-outside) the outside file comes in, the key never.
func TestWatchRefusesLinksOutside(t *testing.T) {
	for _, follow := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "follow-links-outside"}[follow], func(t *testing.T) {
			ctx := context.Background()
			notes, idxDir, outside := writeNotes(t), t.TempDir(), t.TempDir()
			db := filepath.Join(idxDir, "o.db")
			must(t, os.WriteFile(linkpkg.KeyPath(db), []byte("zarquiclavesecreta"+strings.Repeat("k", 40)), 0o600))
			eng, err := oraculo.Open(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { eng.Close() })
			if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
				t.Fatal(err)
			}
			h := New(Config{Engine: eng, FollowLinksOutside: follow})
			if err := h.Watch(ctx, watch.Config{Debounce: 100 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(h)
			t.Cleanup(func() {
				ts.Close()
				h.Close()
			})
			writeFile(t, filepath.Join(idxDir, "junto.md"), "# Junto\n\nEl zarquijunto vive junto al índice.\n")
			writeFile(t, filepath.Join(outside, "fuera.md"), "# Fuera\n\nEl zarquifuera vive fuera de las notas.\n")
			for _, l := range [][2]string{
				{"clave.md", linkpkg.KeyPath(db)},
				{"junto.md", filepath.Join(idxDir, "junto.md")},
				{"fuera.md", filepath.Join(outside, "fuera.md")},
				{"dentro.md", "Sesiones/Campaña.md"},
			} {
				must(t, os.Symlink(l[1], filepath.Join(notes, l[0])))
			}
			// The link inside the notes is made last: once it is searchable,
			// the ingest that judged the others is over.
			seen(t, ts, "a link inside the notes", "Galerna", "Sesiones/Campaña.md", "dentro.md")
			wantOutside := []string(nil)
			if follow {
				wantOutside = []string{"fuera.md"}
			}
			seen(t, ts, "a link outside the notes", "zarquifuera", wantOutside...)
			for _, w := range []string{"zarquiclavesecreta", "zarquijunto"} {
				if got := searchFiles(t, ts, w); len(got) > 0 {
					t.Errorf("a search for %s finds %q", w, got)
				}
			}
			// The notes are searchable before the ingest's last stage (the
			// compendium) ends: its report comes when it is over.
			type ingestStatus struct {
				Running bool `json:"running"`
				Last    *struct {
					Skipped []oraculo.Problem `json:"skipped"`
				} `json:"last"`
			}
			var st ingestStatus
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				resp, data := call(t, ts, "GET", "/api/ingest", "", nil)
				wantStatus(t, resp, data, 200)
				st = decodeJSON[ingestStatus](t, data)
				if st.Last != nil && !st.Running {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no ingest report in 30 s: %s", data)
				}
			}
			skipped := map[string]string{}
			for _, p := range st.Last.Skipped {
				skipped[p.Path] = p.Reason
			}
			want := map[string]string{"clave.md": "index-file", "junto.md": "index-file", "fuera.md": "link-outside-notes"}
			if follow {
				delete(want, "fuera.md")
			}
			for name, reason := range want {
				if skipped[name] != reason {
					t.Errorf("%s skipped as %q, want %q: skipped %v", name, skipped[name], reason, st.Last.Skipped)
				}
			}
		})
	}
}
