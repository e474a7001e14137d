package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo/link"
)

// passageLinks asks the index at db, with links to the server at url, and
// returns the links to passages the answer carries.
func passageLinks(t *testing.T, db, url string) []string {
	t.Helper()
	out, errOut, code := runCLI(t, "", "ask", "--db", db, "--json", "--public-url", url, "¿Quién cruzó el puente de Galerna?")
	if code != 0 {
		t.Fatalf("ask --json: exit %d: %s", code, errOut)
	}
	var a struct {
		Markdown string `json:"markdown"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, m := range regexp.MustCompile(`\((http://[^)\s]+/c/[^)\s]+)\)`).FindAllStringSubmatch(a.Markdown, -1) {
		links = append(links, m[1])
	}
	if len(links) == 0 {
		t.Fatalf("no links to passages in %q", a.Markdown)
	}
	return links
}

// waitFor waits until out holds want.
func waitFor(t *testing.T, out *lockedBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("%q never said:\n%s", want, out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// statusOf GETs u without a token, as a browser following a link does.
func statusOf(t *testing.T, u string) int {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestTokenRotateLinks: oraculo token rotate-links replaces the link key
// and says what it does; the running server takes the new key, so the
// links given before stop opening (401) and the links made after open;
// a server started afterwards refuses the old links too.
func TestTokenRotateLinks(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_TOKENS", "")
	old := linkKeyPollEvery
	linkKeyPollEvery = 50 * time.Millisecond
	t.Cleanup(func() { linkKeyPollEvery = old }) // after serve stopped: it waits for its watcher
	db := ingestSmall(t)
	// With tokens, a request without one reads only what a signed link
	// opens (without, every loopback request is the DM's).
	tokens := filepath.Join(t.TempDir(), "tokens.yaml")
	if _, errOut, code := runCLI(t, "", "token", "add", "ana", "--role", "player", "--tokens", tokens); code != 0 {
		t.Fatalf("token add: %s", errOut)
	}
	url, stdout, _, stop := startServe(t, "--db", db, "--tokens", tokens)
	// The commands below set the interface's language that serve's
	// messages read: they run once serve has said all it says at start.
	waitFor(t, stdout, tokens)
	before := passageLinks(t, db, url)
	for _, l := range before {
		if s := statusOf(t, l); s != 200 {
			t.Fatalf("a link before the rotation: %d", s)
		}
	}
	keyBefore, err := os.ReadFile(link.KeyPath(db))
	if err != nil {
		t.Fatal(err)
	}

	out, errOut, code := runCLI(t, "", "token", "rotate-links", "--db", db)
	if code != 0 {
		t.Fatalf("token rotate-links: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, link.KeyPath(db)) || !strings.Contains(out, "stops working") {
		t.Errorf("rotate-links says %q", out)
	}
	keyAfter, err := os.ReadFile(link.KeyPath(db))
	if err != nil || len(keyAfter) < 32 || string(keyAfter) == string(keyBefore) {
		t.Fatalf("the key file after rotate-links: %d bytes, same %v, %v", len(keyAfter), string(keyAfter) == string(keyBefore), err)
	}
	if fi, err := os.Stat(link.KeyPath(db)); err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("the new key file is readable by others: %v %v", fi.Mode(), err)
	}

	deadline := time.Now().Add(5 * time.Second)
	for _, l := range before {
		for statusOf(t, l) != 401 {
			if time.Now().After(deadline) {
				t.Fatalf("a link signed with the old key still opens on the running server: %s", l)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for _, l := range passageLinks(t, db, url) {
		if s := statusOf(t, l); s != 200 {
			t.Errorf("a link made after the rotation: %d", s)
		}
	}

	if err := stop(); err != nil {
		t.Fatal(err)
	}
	url2, stdout2, _, _ := startServe(t, "--db", db, "--tokens", tokens)
	waitFor(t, stdout2, tokens)
	for _, l := range before {
		if s := statusOf(t, strings.Replace(l, url, url2, 1)); s != 401 {
			t.Errorf("a link signed with the old key, on a server started after the rotation: %d", s)
		}
	}
}

// TestIngestFollowLinksOutside: oraculo ingest skips a symlink to a file
// outside the notes and says why (in the summary and in --json); with
// --follow-links-outside it reads it and says so, but never the link key
// beside the index.
func TestIngestFollowLinksOutside(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_TOKENS", "")
	notes, outside := smallNotes(t), t.TempDir()
	db := filepath.Join(t.TempDir(), "o.db")
	if _, err := link.LoadKey(db); err != nil {
		t.Fatal(err)
	}
	writeNote(t, filepath.Join(outside, "fuera.md"), "# Fuera\n\nEl zarquifuera vive fuera.\n")
	for name, target := range map[string]string{"fuera.md": filepath.Join(outside, "fuera.md"), "clave.md": link.KeyPath(db)} {
		if err := os.Symlink(target, filepath.Join(notes, name)); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runCLI(t, "", "ingest", "--db", db, "--quiet", notes)
	if code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"fuera.md", "a symlink to a file outside the notes folders", "clave.md", "one of the index's own files"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = runCLI(t, "", "ingest", "--db", db, "--quiet", "--json", "--follow-links-outside", notes)
	if code != 0 {
		t.Fatalf("ingest --follow-links-outside: exit %d: %s", code, errOut)
	}
	var rep struct {
		Indexed            int  `json:"indexed"`
		FollowLinksOutside bool `json:"follow_links_outside"`
		Skipped            []struct {
			Path, Reason string
		} `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.FollowLinksOutside || rep.Indexed != 1 || len(rep.Skipped) != 1 || rep.Skipped[0].Path != "clave.md" || rep.Skipped[0].Reason != "index-file" {
		t.Errorf("ingest --follow-links-outside --json: %+v", rep)
	}
	out, _, _ = runCLI(t, "", "search", "--db", db, "zarquifuera")
	if !strings.Contains(out, "fuera") {
		t.Errorf("the outside note is not found once followed:\n%s", out)
	}
}

// TestMCPLinksFollowARotatedKey: oraculo mcp --public-url signs its
// links with the index's link key, and after token rotate-links with the
// new one, without a restart: links it gives keep opening on a server.
func TestMCPLinksFollowARotatedKey(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	old := linkKeyPollEvery
	linkKeyPollEvery = 50 * time.Millisecond
	t.Cleanup(func() { linkKeyPollEvery = old }) // after mcp ended: it waits for its watcher
	db := ingestSmall(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runCommand(ctx, "mcp", []string{"--db", db, "--public-url", "http://oraculo.example"}, inR, outW, io.Discard)
		outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("mcp did not stop")
		}
	})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	// sigs are the passage links' ids and signatures in an answer.
	sigs := func() [][2]string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "¿Quién cruzó el puente de Galerna?"}})
		if err != nil || res.IsError {
			t.Fatalf("ask: %v %+v", err, res)
		}
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		var out [][2]string
		for _, m := range regexp.MustCompile(`/c/([0-9a-f]+)\?k=([A-Za-z0-9_-]+)&[^)\s]*r=dm`).FindAllStringSubmatch(text.String(), -1) {
			out = append(out, [2]string{m[1], m[2]})
		}
		if len(out) == 0 {
			t.Fatalf("no signed links in %q", text.String())
		}
		return out
	}
	valid := func(key []byte, s [2]string) bool {
		return (&link.Maker{Key: key}).Valid(link.KindPassage, "dm", s[0], s[1])
	}
	before, err := link.LoadKey(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sigs() {
		if !valid(before, s) {
			t.Fatalf("a link before the rotation is not signed with the key: %v", s)
		}
	}
	if _, errOut, code := runCLI(t, "", "token", "rotate-links", "--db", db); code != 0 {
		t.Fatalf("token rotate-links: %s", errOut)
	}
	after, err := link.LoadKey(db)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := sigs()[0]
		if valid(after, s) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("mcp still signs with the old key after the rotation: %v (old key: %v)", s, valid(before, s))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
