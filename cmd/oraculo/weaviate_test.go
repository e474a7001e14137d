package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oraculo/oraculo/internal/weaviatetest"
)

// The end-to-end tests of an index in a Weaviate cluster: the oraculo
// binary (this test binary, see TestMain) run as a separate process
// against a real node, in a sandbox whose home, working and temporary
// folders start empty.

// dmOnlyQuestion is answered only by a DM-only note of examples/campaign
// (DM/El traidor.md: "desde Verdal del 1347").
const dmOnlyQuestion = "¿Desde cuándo trabaja Alvar Duranza para la Mano Gris?"

// sandbox is an empty home, working and temporary folder for one process.
type sandbox struct{ home, work, tmp string }

func newSandbox(t *testing.T) sandbox {
	return sandbox{home: t.TempDir(), work: t.TempDir(), tmp: t.TempDir()}
}

// env is the environment of a process in the sandbox: none of this
// process's ORACULO_ variables, the interface in English, then extra.
func (s sandbox) env(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "ORACULO_") || k == "HOME" || k == "TMPDIR" || k == "OLLAMA_HOST" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "ORACULO_TEST_MAIN=1", "ORACULO_UI_LANG=en", "HOME="+s.home, "TMPDIR="+s.tmp)
	return append(env, extra...)
}

// command is the oraculo binary in the sandbox.
func (s sandbox) command(ctx context.Context, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir, cmd.Env = s.work, s.env(env...)
	return cmd
}

// run runs oraculo in the sandbox to its end.
func (s sandbox) run(t *testing.T, stdin string, env []string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := s.command(ctx, env, args...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("oraculo %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

// mcp runs oraculo mcp in the sandbox: it writes requests to its
// standard input, keeps it open until the output shows until, then
// closes it (the end of the session) and returns the output.
func (s sandbox) mcp(t *testing.T, requests, until string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := s.command(ctx, env, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, requests)
	for !strings.Contains(out.String(), until) && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("oraculo %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out.String()
}

// empty fails the test for anything in the sandbox's folders.
func (s sandbox) empty(t *testing.T, after string) {
	t.Helper()
	for name, dir := range map[string]string{"home": s.home, "working": s.work, "temporary": s.tmp} {
		var found []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if p != dir {
				found = append(found, strings.TrimPrefix(p, dir+"/"))
			}
			return nil
		})
		if len(found) > 0 {
			t.Errorf("after %s, the %s folder holds %v: nothing local may be written for an index in a cluster", after, name, found)
		}
	}
}

func sampleFiles(t *testing.T) (campaign, golden string) {
	t.Helper()
	campaign, err := filepath.Abs("../../examples/campaign")
	if err != nil {
		t.Fatal(err)
	}
	golden, err = filepath.Abs("../../examples/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return campaign, golden
}

// clusterChat, on systems with pseudo-terminals, runs the terminal chat
// in the sandbox (weaviate_pty_test.go).
var clusterChat func(t *testing.T, s sandbox, env []string, args ...string)

// TestWeaviateBackend runs every command that reads or writes the index
// on one Weaviate node, the backend chosen by flags, then by the
// environment; afterwards the home, working and temporary folders are as
// empty as before. A read-only command on an empty collection says to
// ingest first and creates nothing.
func TestWeaviateBackend(t *testing.T) {
	t.Parallel() // see parallelWeaviate
	c := weaviatetest.Start(t, 1)
	url := c.Nodes[0].URL()
	campaign, golden := sampleFiles(t)

	t.Run("flags", func(t *testing.T) {
		s := newSandbox(t)
		where := []string{"--backend", "weaviate", "--weaviate-url", url, "--collection", "flags", "--db", "index.db"}
		checkCommands(t, s, nil, where, url, "flags", campaign, golden)
	})
	t.Run("environment", func(t *testing.T) {
		s := newSandbox(t)
		env := []string{"ORACULO_BACKEND=weaviate", "ORACULO_WEAVIATE_URL=" + url, "ORACULO_DB=index.db"}
		checkCommands(t, s, env, nil, url, "oraculo", campaign, golden)
	})
	t.Run("empty collection", func(t *testing.T) {
		s := newSandbox(t)
		where := []string{"--backend", "weaviate", "--weaviate-url", url, "--collection", "never_ingested"}
		for _, args := range [][]string{{"search", "hola"}, {"ask", "hola"}, {"stats"}, {"eval", "--golden", golden}, {"serve"}, {"mcp"}, {"show", "x"}, {"chunks"}, {"compendium"}, {"bench"}} {
			cmd := s.command(context.Background(), nil, append(args, where...)...)
			out, err := cmd.CombinedOutput()
			want := "collection \"never_ingested\" of the Weaviate cluster at " + url + " holds no index yet: run `oraculo ingest` first"
			if err == nil || !strings.Contains(string(out), want) {
				t.Errorf("%s on an empty collection: %v, %s; want %q", args[0], err, out, want)
			}
		}
		out, err := s.command(context.Background(), []string{"ORACULO_UI_LANG=es"}, append([]string{"search", "hola"}, where...)...).CombinedOutput()
		if want := "la colección \"never_ingested\" del clúster de Weaviate en " + url + " aún no tiene índice: ejecuta antes `oraculo ingest`"; err == nil || !strings.Contains(string(out), want) {
			t.Errorf("search on an empty collection, in Spanish: %v, %s; want %q", err, out, want)
		}
		if code := httpStatus(t, url+"/v1/schema/OraculoSetting/tenants/never_ingested"); code == http.StatusOK {
			t.Errorf("read-only commands created the collection: GET its tenant answers %d", code)
		}
		out, _ = s.command(context.Background(), nil, append([]string{"doctor"}, where...)...).CombinedOutput()
		if !strings.Contains(string(out), "✓ backend: weaviate at "+url+`, collection "never_ingested"`) || !strings.Contains(string(out), "✗ index:") {
			t.Errorf("doctor on an empty collection:\n%s", out)
		}
		s.empty(t, "the read-only commands")
	})
}

func httpStatus(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// checkCommands runs ingest, search, ask, eval, bench, stats, chunks,
// show, compendium, doctor, mcp and chat on the cluster the environment
// or the where flags name, checking that each does its work there and
// that the sandbox stays empty.
func checkCommands(t *testing.T, s sandbox, env, where []string, url, collection, campaign, golden string) {
	t.Helper()
	cmd := func(name string, args ...string) []string { return append(append([]string{name}, args...), where...) }
	out, _ := s.run(t, "", env, cmd("ingest", "--quiet", "--json", "--embedder", "hashing", campaign)...)
	var rep struct {
		Indexed int `json:"indexed"`
		Stats   struct {
			Chunks int `json:"chunks"`
		} `json:"stats"`
		Embed struct {
			Embedded int `json:"embedded"`
		} `json:"embed"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Indexed == 0 || rep.Stats.Chunks == 0 || rep.Embed.Embedded == 0 {
		t.Fatalf("ingest --json: %v\n%s", err, out)
	}
	s.empty(t, "ingest")

	out, _ = s.run(t, "", env, cmd("search", "--json", "¿Quién nos dio el mapa de las Criptas de Ulmenor?")...)
	var found struct {
		Hits []struct {
			ID, File string
		}
	}
	if err := json.Unmarshal([]byte(out), &found); err != nil || len(found.Hits) == 0 || !strings.HasPrefix(found.Hits[0].File, "Sesiones/") {
		t.Fatalf("search --json: %v\n%s", err, out)
	}
	s.empty(t, "search")

	out, _ = s.run(t, "", env, cmd("ask", "--json", "--extractive", "¿Quién nos dio el mapa de las Criptas de Ulmenor?")...)
	var answer struct {
		Answer   string `json:"answer"`
		Markdown string `json:"markdown"`
	}
	if err := json.Unmarshal([]byte(out), &answer); err != nil || answer.Answer == "" || !strings.Contains(answer.Markdown, "/c/") {
		t.Fatalf("ask --json: %v\n%s", err, out)
	}
	s.empty(t, "ask")

	// Memory lives in the cluster too: added, used by an answer, listed,
	// forgotten.
	out, _ = s.run(t, "", env, cmd("memory", "add", "--scope", "campaign", "--key", "mapa de Ulmenor", "--value", "El mapa de las Criptas de Ulmenor nos lo dio la archivera Vesper.", "--verified")...)
	id := strings.Fields(out)[0]
	out, _ = s.run(t, "", env, cmd("ask", "--json", "--extractive", "¿Quién nos dio el mapa de las Criptas de Ulmenor?")...)
	var withMemory struct {
		Memory []struct{ ID, Use string } `json:"memory"`
	}
	if err := json.Unmarshal([]byte(out), &withMemory); err != nil || len(withMemory.Memory) != 1 || withMemory.Memory[0].ID != id || withMemory.Memory[0].Use != "evidence" {
		t.Errorf("ask --json with a verified entry in the cluster: %v\n%.600s", err, out)
	}
	if out, _ = s.run(t, "", env, cmd("memory", "list", "--json")...); !strings.Contains(out, `"id": "`+id+`"`) {
		t.Errorf("memory list in the cluster:\n%s", out)
	}
	s.run(t, "", env, cmd("memory", "forget", id)...)
	if out, _ = s.run(t, "", env, cmd("memory", "list", "--json", "--all")...); strings.Contains(out, `"`+id+`"`) {
		t.Errorf("memory list after the forget, in the cluster:\n%s", out)
	}
	s.empty(t, "memory")

	out, _ = s.run(t, "", env, cmd("eval", "--golden", golden, "--json")...)
	var ev struct {
		Questions int `json:"questions"`
	}
	if err := json.Unmarshal([]byte(out), &ev); err != nil || ev.Questions == 0 {
		t.Fatalf("eval --json: %v\n%.400s", err, out)
	}
	s.empty(t, "eval")

	s.run(t, "", env, cmd("bench", "--n", "5", "--json")...)
	s.empty(t, "bench")
	out, _ = s.run(t, "", env, cmd("stats")...)
	if !strings.Contains(out, url+"#"+collection) || !strings.Contains(out, "in a Weaviate cluster (size not measured)") {
		t.Errorf("stats does not say where the index is:\n%s", out)
	}
	for _, args := range [][]string{{"chunks", "NPCs"}, {"show", found.Hits[0].ID}, {"compendium"}} {
		s.run(t, "", env, cmd(args[0], args[1:]...)...)
		s.empty(t, args[0])
	}
	out, _ = s.run(t, "", env, cmd("doctor")...)
	if want := fmt.Sprintf("✓ backend: weaviate at %s, collection %q: Weaviate %s, 1 of 1 nodes healthy", url, collection, strings.TrimPrefix(weaviatetest.Version, "v")); !strings.Contains(out, want) {
		t.Errorf("doctor does not say %q:\n%s", want, out)
	}
	s.empty(t, "doctor")

	// MCP on stdin and stdout, its answers' links signed with the
	// cluster's key.
	mcpIn := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"question":"Vesper Quillon"}}}
`
	if out := s.mcp(t, mcpIn, `"id":2`, env, cmd("mcp", "--public-url", "http://127.0.0.1:8080")...); !strings.Contains(out, "Vesper") {
		t.Errorf("mcp answered:\n%.600s", out)
	}
	s.empty(t, "mcp")

	// The chat, piped and on a terminal: no history file.
	out, _ = s.run(t, "¿Quién es Vesper Quillon?\n/exit\n", env, cmd("chat")...)
	if !strings.Contains(out, "Sources:") {
		t.Errorf("chat answered:\n%s", out)
	}
	if clusterChat != nil {
		clusterChat(t, s, env, where...)
	}
	s.empty(t, "chat")
}

// serveProcess is an `oraculo serve` process.
type serveProcess struct {
	url  string
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan error
}

// startServer starts oraculo serve in the sandbox; stop ends it with
// SIGTERM, as a service manager does.
func startServer(t *testing.T, s sandbox, args ...string) *serveProcess {
	t.Helper()
	srv := &serveProcess{out: &lockedBuffer{}, done: make(chan error, 1)}
	srv.cmd = s.command(context.Background(), nil, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	srv.cmd.Stdout, srv.cmd.Stderr = srv.out, srv.out
	if err := srv.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { srv.done <- srv.cmd.Wait() }()
	t.Cleanup(func() { srv.stop(t) })
	return srv
}

// ready waits for the address the server prints.
func (srv *serveProcess) ready(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for srv.url == "" {
		srv.url = strings.TrimSuffix(servedURL.FindString(srv.out.String()), "/")
		select {
		case err := <-srv.done:
			srv.done <- err
			t.Fatalf("serve ended: %v\n%s", err, srv.out)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve printed no address:\n%s", srv.out)
		}
	}
}

func (srv *serveProcess) stop(t *testing.T) {
	if srv.cmd.ProcessState != nil || srv.cmd.Process == nil {
		return
	}
	srv.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-srv.done:
	case <-time.After(20 * time.Second):
		srv.cmd.Process.Kill()
		<-srv.done
		t.Errorf("serve did not stop on SIGTERM:\n%s", srv.out)
	}
}

// call sends a request with a bearer token and decodes the JSON reply.
func (srv *serveProcess) call(t *testing.T, token, method, path, body string, into any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatalf("%s %s: %v\n%s", method, path, err, data)
	}
}

// addToken makes a token of role in the tokens file path.
func addToken(t *testing.T, s sandbox, path, name, role string) string {
	t.Helper()
	out, _ := s.run(t, "", nil, "token", "add", name, "--role", role, "--tokens", path)
	return strings.TrimSpace(out)
}

// parallelWeaviate: the tests that drive oraculo processes on a Weaviate
// node of their own (TestWeaviateBackend, TestTwoServers,
// TestWeaviateReplicationFlag) run side by side, after the package's other
// tests, so that the waits of their nodes and processes overlap. Each has
// its own node, ports and sandbox (its processes' environment is
// sandbox.env's), and none sets this process's environment or globals.

// passageLink finds the links to passages in a text.
var passageLink = regexp.MustCompile(`http://127\.0\.0\.1:\d+(/c/[^)\s"]+)`)

// TestTwoServers: two `oraculo serve` processes on different ports, with
// no local index and a tokens file each, started at the same moment on
// one cluster, answer the same question with the same citations (the
// web page's API and the OpenAI endpoint), open each other's signed
// links, and never show a player a DM-only note.
func TestTwoServers(t *testing.T) {
	t.Parallel() // see parallelWeaviate
	c := weaviatetest.Start(t, 1)
	url := c.Nodes[0].URL()
	campaign, _ := sampleFiles(t)
	where := []string{"--backend", "weaviate", "--weaviate-url", url, "--collection", "two_servers"}
	ingester := newSandbox(t)
	ingester.run(t, "", nil, append([]string{"ingest", "--quiet", campaign}, where...)...)

	tokensDir := t.TempDir()
	sandboxes := []sandbox{newSandbox(t), newSandbox(t)}
	servers := make([]*serveProcess, 2)
	dm, player := make([]string, 2), make([]string, 2)
	for i := range servers {
		path := filepath.Join(tokensDir, fmt.Sprintf("tokens-%d.yaml", i))
		dm[i] = addToken(t, ingester, path, "dm", "dm")
		player[i] = addToken(t, ingester, path, "ana", "player")
	}
	// At the same moment: neither finds a link key in the cluster, both
	// make one, and they must end with the same.
	for i := range servers {
		servers[i] = startServer(t, sandboxes[i], append(where, "--tokens", filepath.Join(tokensDir, fmt.Sprintf("tokens-%d.yaml", i)))...)
	}
	for _, srv := range servers {
		srv.ready(t)
	}
	if servers[0].url == servers[1].url {
		t.Fatalf("both servers at %s", servers[0].url)
	}

	const question = "¿Quién nos dio el mapa de las Criptas de Ulmenor?"
	t.Run("same answers", func(t *testing.T) {
		var answers [2]struct {
			Answer    string `json:"answer"`
			Citations []struct {
				Label    string  `json:"label"`
				Evidence *string `json:"evidence"`
			} `json:"citations"`
			Evidence []struct{ ID, File string } `json:"evidence"`
		}
		var hits [2]struct {
			Hits []struct{ ID, File string } `json:"hits"`
		}
		var completions [2]struct {
			Choices []struct {
				Message struct{ Content string } `json:"message"`
			} `json:"choices"`
		}
		for i, srv := range servers {
			srv.call(t, dm[i], "POST", "/api/ask", `{"question": "`+question+`", "extractive": true}`, &answers[i])
			srv.call(t, dm[i], "POST", "/api/search", `{"question": "`+question+`"}`, &hits[i])
			srv.call(t, dm[i], "POST", "/v1/chat/completions", `{"model": "oraculo-extractive", "messages": [{"role": "user", "content": "`+question+`"}]}`, &completions[i])
		}
		a, b := answers[0], answers[1]
		if a.Answer == "" || len(a.Citations) == 0 {
			t.Fatalf("no cited answer: %+v", a)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("the servers answer differently:\n%+v\n%+v", a, b)
		}
		if len(hits[0].Hits) == 0 || !slices.Equal(hits[0].Hits, hits[1].Hits) {
			t.Errorf("the servers' searches differ:\n%v\n%v", hits[0].Hits, hits[1].Hits)
		}
		// The OpenAI endpoint's text is the same but for where its links
		// point (the host each request came to).
		texts := make([]string, 2)
		for i := range texts {
			if len(completions[i].Choices) == 0 {
				t.Fatalf("server %d: no completion", i)
			}
			texts[i] = strings.ReplaceAll(completions[i].Choices[0].Message.Content, servers[i].url, "BASE")
		}
		if texts[0] != texts[1] || !strings.Contains(texts[0], "BASE/c/") {
			t.Errorf("the OpenAI endpoint's answers differ:\n%s\n---\n%s", texts[0], texts[1])
		}
		// A link signed by one server opens on the other, and back.
		for i, srv := range servers {
			other := servers[1-i]
			links := passageLink.FindAllStringSubmatch(completions[i].Choices[0].Message.Content, -1)
			if len(links) == 0 {
				t.Fatalf("server %d's answer links no passage:\n%s", i, completions[i].Choices[0].Message.Content)
			}
			for _, l := range links {
				if code := httpStatus(t, other.url+l[1]); code != http.StatusOK {
					t.Errorf("a link of %s does not open on %s: %d (%s)", srv.url, other.url, code, l[1])
				}
			}
			forged := regexp.MustCompile(`k=[^&]+`).ReplaceAllString(links[0][1], "k=AAAA")
			if code := httpStatus(t, other.url+forged); code == http.StatusOK {
				t.Errorf("a link with a forged signature opens: %s", forged)
			}
		}
	})

	t.Run("players never see DM-only notes", func(t *testing.T) {
		// The DM-only notes of the sample are its DM folder's.
		dmOnly := func(file string) bool { return strings.HasPrefix(file, "DM/") }
		out, _ := ingester.run(t, "", nil, append([]string{"chunks", "--json", "DM"}, where...)...)
		var secret []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var c struct{ ID, File string }
			if err := json.Unmarshal([]byte(line), &c); err != nil || !dmOnly(c.File) {
				t.Fatalf("chunks --json DM: %v %q", err, line)
			}
			secret = append(secret, c.ID)
		}
		var asDM struct {
			Hits []struct{ File string } `json:"hits"`
		}
		servers[0].call(t, dm[0], "POST", "/api/search", `{"question": "`+dmOnlyQuestion+`", "k": 50}`, &asDM)
		if len(secret) == 0 || len(asDM.Hits) == 0 || !dmOnly(asDM.Hits[0].File) {
			t.Fatalf("the DM's search does not find the DM-only note first (%d DM-only chunks), so a player's could not show it: %v", len(secret), asDM.Hits)
		}
		for i, srv := range servers {
			var hits struct {
				Hits []struct{ File string } `json:"hits"`
			}
			srv.call(t, player[i], "POST", "/api/search", `{"question": "`+dmOnlyQuestion+`", "k": 50}`, &hits)
			var answer struct {
				Evidence   []struct{ File string } `json:"evidence"`
				Candidates []struct{ File string } `json:"candidates"`
			}
			srv.call(t, player[i], "POST", "/api/ask", `{"question": "`+dmOnlyQuestion+`", "extractive": true}`, &answer)
			var completion struct {
				Choices []struct {
					Message struct{ Content string } `json:"message"`
				} `json:"choices"`
			}
			srv.call(t, player[i], "POST", "/v1/chat/completions", `{"model": "oraculo-extractive", "messages": [{"role": "user", "content": "`+dmOnlyQuestion+`"}]}`, &completion)
			for _, f := range append(append(hits.Hits, answer.Evidence...), answer.Candidates...) {
				if dmOnly(f.File) {
					t.Errorf("server %d showed a player the DM-only note %s", i, f.File)
				}
			}
			if len(completion.Choices) == 0 || len(hits.Hits) == 0 {
				t.Fatalf("server %d answered a player nothing: %d hits, %+v", i, len(hits.Hits), completion)
			}
			for _, ch := range completion.Choices {
				for _, id := range secret {
					if strings.Contains(ch.Message.Content, id) {
						t.Errorf("server %d's OpenAI answer to a player links the DM-only chunk %s:\n%s", i, id, ch.Message.Content)
					}
				}
				if strings.Contains(ch.Message.Content, "DM/") || strings.Contains(ch.Message.Content, "Verdal del 1347") {
					t.Errorf("server %d's OpenAI answer to a player shows a DM-only note:\n%s", i, ch.Message.Content)
				}
			}
		}
	})

	// Each server holds what it loaded of the index (the compendium's
	// matcher here) until another process's ingest changes the index's
	// generation, which each reads before every answer.
	t.Run("another process's ingest", func(t *testing.T) {
		more := t.TempDir()
		writeNote(t, filepath.Join(more, "NPCs", "Zoila Zarzal.md"), "---\ntitle: Zoila Zarzal\n---\n# Zoila Zarzal\n\nHerbolaria de Ribafría que vende raíz de zarzaparrilla.\n")
		const byEntity = `{"question": "¿Qué vende Zoila Zarzal?", "paths": ["entity"]}`
		found := func(srv *serveProcess, token string) bool {
			var res struct {
				Hits []struct{ File string } `json:"hits"`
			}
			srv.call(t, token, "POST", "/api/search", byEntity, &res)
			return len(res.Hits) > 0 && res.Hits[0].File == "NPCs/Zoila Zarzal.md"
		}
		for i, srv := range servers {
			if found(srv, dm[i]) {
				t.Fatalf("server %d finds Zoila Zarzal before she is ingested", i)
			}
		}
		ingester.run(t, "", nil, append([]string{"ingest", "--quiet", campaign, more}, where...)...)
		for i, srv := range servers {
			if !found(srv, dm[i]) {
				t.Errorf("server %d does not see another process's ingest: the entity path does not find Zoila Zarzal", i)
			}
		}
	})

	for i, srv := range servers {
		srv.stop(t)
		if !strings.Contains(srv.out.String(), "Stopped.") {
			t.Errorf("server %d did not stop cleanly:\n%s", i, srv.out)
		}
		sandboxes[i].empty(t, "serve")
	}
	ingester.empty(t, "ingest")
}

// TestWeaviateReplicationFlag: --weaviate-replication 3 makes the first
// ingest create collections every node of a three-node cluster holds; a
// later run asking for another factor is refused, naming the collection,
// and a command without the flag takes the collections as they are,
// through another node.
func TestWeaviateReplicationFlag(t *testing.T) {
	t.Parallel() // see parallelWeaviate
	c := weaviatetest.Start(t, 3)
	campaign, _ := sampleFiles(t)
	s := newSandbox(t)
	at := func(i int) []string {
		return []string{"--backend", "weaviate", "--weaviate-url", c.Nodes[i].URL()}
	}
	s.run(t, "", nil, append(append([]string{"ingest", "--quiet"}, at(0)...), "--weaviate-replication", "3", campaign)...)
	for _, class := range []string{"OraculoDocument", "OraculoChunk", "OraculoParagraph"} {
		resp, err := http.Get(c.Nodes[2].URL() + "/v1/schema/" + class)
		if err != nil {
			t.Fatal(err)
		}
		var schema struct {
			ReplicationConfig struct{ Factor int } `json:"replicationConfig"`
		}
		err = json.NewDecoder(resp.Body).Decode(&schema)
		resp.Body.Close()
		if err != nil || schema.ReplicationConfig.Factor != 3 {
			t.Errorf("%s: replication factor %d (%v), want 3", class, schema.ReplicationConfig.Factor, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := s.command(ctx, nil, append(append([]string{"ingest", "--quiet"}, at(1)...), "--weaviate-replication", "2", campaign)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err == nil || !strings.Contains(out.String(), "replication factor 3, not the 2 asked") {
		t.Errorf("ingest asking for factor 2 on collections of factor 3: %v\n%s", err, out.String())
	}
	got, _ := s.run(t, "", nil, append(append([]string{"search"}, at(2)...), "--json", "¿Qué pasó con el archiduque?")...)
	if !strings.Contains(got, "archiduque") {
		t.Errorf("search through node2 without the flag found nothing about the archiduque:\n%s", got)
	}
	s.empty(t, "ingest with --weaviate-replication")
}
