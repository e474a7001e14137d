package server

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/mcpserver"
)

// memoryTokens makes a tokens file with the DM (dm) and two players, ana
// and bruno.
func memoryTokens(t *testing.T) (tokens *Tokens, dm, ana, bruno string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tokens.yaml")
	var err error
	for _, tok := range []struct {
		name, role string
		out        *string
	}{{"dm", oraculo.RoleDM, &dm}, {"ana", oraculo.RolePlayer, &ana}, {"bruno", oraculo.RolePlayer, &bruno}} {
		if *tok.out, err = AddToken(path, tok.name, tok.role); err != nil {
			t.Fatal(err)
		}
	}
	if tokens, err = LoadTokens(path); err != nil {
		t.Fatal(err)
	}
	return tokens, dm, ana, bruno
}

// memoryServer serves an engine over testNotes with memoryTokens' tokens.
func memoryServer(t *testing.T) (ts *httptest.Server, dm, ana, bruno string) {
	t.Helper()
	tokens, dm, ana, bruno := memoryTokens(t)
	ts, _ = testServer(t, Config{Engine: testEngine(t), Tokens: tokens})
	return ts, dm, ana, bruno
}

// addMemory posts an entry as token and wants status; it returns the
// entry when one was made.
func addMemory(t *testing.T, ts *httptest.Server, token string, body map[string]any, status int) oraculo.Memory {
	t.Helper()
	resp, data := call(t, ts, "POST", "/api/memory", token, body)
	wantStatus(t, resp, data, status)
	if status != 201 {
		return oraculo.Memory{}
	}
	m := decodeJSON[oraculo.Memory](t, data)
	if m.ID == "" || !m.Active || m.Scope != body["scope"] || m.Key != body["key"] {
		t.Fatalf("POST /api/memory %v: made %+v", body, m)
	}
	return m
}

// listMemory returns the entries GET /api/memory?query shows token.
func listMemory(t *testing.T, ts *httptest.Server, token, query string) []oraculo.Memory {
	t.Helper()
	resp, data := call(t, ts, "GET", "/api/memory"+query, token, nil)
	wantStatus(t, resp, data, 200)
	if !bytes.Contains(data, []byte(`"entries":[`)) {
		t.Fatalf("GET /api/memory%s: entries is not an array: %s", query, data)
	}
	return decodeJSON[struct {
		Entries []oraculo.Memory `json:"entries"`
	}](t, data).Entries
}

func ids(ms []oraculo.Memory) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// chainOf returns GET /api/memory/{id}'s chain as token.
func chainOf(t *testing.T, ts *httptest.Server, token, id string) []oraculo.Memory {
	t.Helper()
	resp, data := call(t, ts, "GET", "/api/memory/"+id, token, nil)
	wantStatus(t, resp, data, 200)
	return decodeJSON[struct {
		Chain []oraculo.Memory `json:"chain"`
	}](t, data).Chain
}

// TestMemoryAPI drives /api/memory as the DM and two players: who adds
// what, who sees what (lists and ids), verify, supersede and forget.
func TestMemoryAPI(t *testing.T) {
	ts, dm, ana, bruno := memoryServer(t)

	// The DM adds in every scope, hypotheses and verified entries.
	hypo := addMemory(t, ts, dm, map[string]any{"scope": "campaign", "key": "puente", "value": "quizá lo quemaron los trolls"}, 201)
	settled := addMemory(t, ts, dm, map[string]any{"scope": "campaign", "key": "archiduque", "value": "vende mapas falsos", "verified": true}, 201)
	dmOnly := addMemory(t, ts, dm, map[string]any{"scope": "dm", "key": "trama", "value": "el archiduque es un dragón", "verified": true}, 201)
	session := addMemory(t, ts, dm, map[string]any{"scope": "session:1", "key": "caído", "value": "Norkiel", "verified": true}, 201)
	fromNote := addMemory(t, ts, dm, map[string]any{"scope": "campaign", "key": "tabernero", "value": "Harbin Wester", "note": "NPCs/Harbin Wester.md", "verified": true}, 201)
	if hypo.Status != "hypothesis" || settled.Status != "verified" || hypo.Author != "dm" || !strings.HasPrefix(hypo.Source, "stated:dm:dm@") {
		t.Errorf("DM entries: %+v, %+v", hypo, settled)
	}
	if !strings.HasPrefix(fromNote.Source, "note:NPCs/Harbin Wester.md@") || fromNote.Stale {
		t.Errorf("entry from a note: %+v", fromNote)
	}

	// A player adds hypotheses in their own scope, and nothing else.
	mine := addMemory(t, ts, ana, map[string]any{"scope": "player:ana", "key": "sospecha", "value": "Harbin miente"}, 201)
	if mine.Status != "hypothesis" || mine.Author != "ana" || !strings.HasPrefix(mine.Source, "stated:player:ana@") {
		t.Errorf("ana's entry: %+v", mine)
	}
	brunos := addMemory(t, ts, bruno, map[string]any{"scope": "player:bruno", "key": "plan", "value": "robar el mapa"}, 201)
	addMemory(t, ts, ana, map[string]any{"scope": "campaign", "key": "x", "value": "y"}, 403)
	addMemory(t, ts, ana, map[string]any{"scope": "player:bruno", "key": "x", "value": "y"}, 403)
	addMemory(t, ts, ana, map[string]any{"scope": "dm", "key": "x", "value": "y"}, 403)
	addMemory(t, ts, ana, map[string]any{"scope": "player:ana", "key": "x", "value": "y", "verified": true}, 403)
	resp, data := call(t, ts, "POST", "/api/memory/"+mine.ID+"/verify", ana, nil)
	wantStatus(t, resp, data, 403)

	// ana sees her own entries and the verified ones of the campaign and
	// of public sessions; never bruno's, the DM's hypotheses or dm scope.
	got := ids(listMemory(t, ts, ana, ""))
	for _, id := range []string{mine.ID, settled.ID, session.ID, fromNote.ID} {
		if !slices.Contains(got, id) {
			t.Errorf("ana's list %v lacks %s", got, id)
		}
	}
	for _, id := range []string{brunos.ID, hypo.ID, dmOnly.ID} {
		if slices.Contains(got, id) {
			t.Errorf("ana's list %v shows %s", got, id)
		}
	}
	for _, scope := range []string{"dm", "player:bruno"} {
		if got := listMemory(t, ts, ana, "?scope="+scope); len(got) != 0 {
			t.Errorf("ana's list of %s: %v", scope, ids(got))
		}
	}
	if got := ids(listMemory(t, ts, bruno, "?all=1")); slices.Contains(got, mine.ID) || !slices.Contains(got, brunos.ID) {
		t.Errorf("bruno's list %v (ana's entry %s, his %s)", got, mine.ID, brunos.ID)
	}
	if got := listMemory(t, ts, dm, "?all=true"); len(got) != 7 {
		t.Errorf("the DM's list has %d entries, want all 7: %v", len(got), ids(got))
	}

	// An entry a player may not see is exactly a missing one.
	resp, missing := call(t, ts, "GET", "/api/memory/m999", bruno, nil)
	wantStatus(t, resp, missing, 404)
	for _, id := range []string{mine.ID, hypo.ID, dmOnly.ID} {
		resp, data := call(t, ts, "GET", "/api/memory/"+id, bruno, nil)
		wantStatus(t, resp, data, 404)
		if !bytes.Equal(data, missing) {
			t.Errorf("bruno's GET %s: %s; a missing id: %s", id, data, missing)
		}
		for _, path := range []string{"/verify", "/supersede"} {
			resp, data := call(t, ts, "POST", "/api/memory/"+id+path, bruno, map[string]any{"value": "otra"})
			if resp.StatusCode != 404 || !bytes.Equal(data, missing) {
				t.Errorf("bruno's POST %s%s: %d %s", id, path, resp.StatusCode, data)
			}
		}
		resp, data = call(t, ts, "DELETE", "/api/memory/"+id, bruno, nil)
		if resp.StatusCode != 404 || !bytes.Equal(data, missing) {
			t.Errorf("bruno's DELETE %s: %d %s", id, resp.StatusCode, data)
		}
	}
	if c := chainOf(t, ts, ana, mine.ID); len(c) != 1 || c[0].ID != mine.ID {
		t.Errorf("ana's chain of her entry: %+v", c)
	}

	// Only the DM verifies; a verified campaign entry reaches players.
	resp, data = call(t, ts, "POST", "/api/memory/"+hypo.ID+"/verify", dm, nil)
	wantStatus(t, resp, data, 200)
	if m := decodeJSON[oraculo.Memory](t, data); m.ID != hypo.ID || m.Status != "verified" {
		t.Errorf("verified: %+v", m)
	}
	if got := ids(listMemory(t, ts, ana, "?scope=campaign")); !slices.Contains(got, hypo.ID) {
		t.Errorf("ana's campaign list %v lacks the entry verified since, %s", got, hypo.ID)
	}

	// A second active value for a (scope, key) is a conflict: supersede.
	addMemory(t, ts, dm, map[string]any{"scope": "campaign", "key": "archiduque", "value": "otra cosa"}, 409)
	resp, data = call(t, ts, "POST", "/api/memory/"+settled.ID+"/supersede", dm, map[string]any{"value": "vende mapas auténticos", "verified": true})
	wantStatus(t, resp, data, 201)
	next := decodeJSON[oraculo.Memory](t, data)
	if next.Supersedes != settled.ID || next.Key != settled.Key || next.Scope != settled.Scope || next.Status != "verified" || !next.Active {
		t.Errorf("superseding %s: %+v", settled.ID, next)
	}
	resp, data = call(t, ts, "POST", "/api/memory/"+settled.ID+"/supersede", dm, map[string]any{"value": "una tercera"})
	wantStatus(t, resp, data, 409) // no longer active
	for _, token := range []string{dm, ana} {
		if c := chainOf(t, ts, token, next.ID); len(c) != 2 || c[0].ID != next.ID || c[1].ID != settled.ID || c[1].Active {
			t.Errorf("the chain of %s: %+v", next.ID, c)
		}
		active := 0
		for _, m := range listMemory(t, ts, token, "?scope=campaign&all=1") {
			if m.Key == "archiduque" && m.Active {
				active++
			}
		}
		if active != 1 {
			t.Errorf("%d active entries for archiduque", active)
		}
	}

	// A player supersedes their own entries, as hypotheses only.
	resp, data = call(t, ts, "POST", "/api/memory/"+mine.ID+"/supersede", ana, map[string]any{"value": "Harbin dice la verdad", "verified": true})
	wantStatus(t, resp, data, 403)
	resp, data = call(t, ts, "POST", "/api/memory/"+next.ID+"/supersede", ana, map[string]any{"value": "mía"})
	wantStatus(t, resp, data, 403) // seen, not hers
	resp, data = call(t, ts, "POST", "/api/memory/"+mine.ID+"/supersede", ana, map[string]any{"value": "Harbin dice la verdad"})
	wantStatus(t, resp, data, 201)
	mine2 := decodeJSON[oraculo.Memory](t, data)
	if mine2.Status != "hypothesis" || mine2.Supersedes != mine.ID || mine2.Author != "ana" {
		t.Errorf("ana's supersede: %+v", mine2)
	}

	// Forget: gone for good, from every list.
	resp, data = call(t, ts, "DELETE", "/api/memory/"+next.ID, ana, nil)
	wantStatus(t, resp, data, 403)
	resp, data = call(t, ts, "DELETE", "/api/memory/"+mine2.ID, ana, nil)
	wantStatus(t, resp, data, 200)
	if got := decodeJSON[map[string]string](t, data); len(got) != 1 || got["forgotten"] != mine2.ID {
		t.Errorf("forget: %s", data)
	}
	for _, token := range []string{ana, dm} {
		resp, data := call(t, ts, "GET", "/api/memory/"+mine2.ID, token, nil)
		wantStatus(t, resp, data, 404)
		if got := ids(listMemory(t, ts, token, "?all=1")); slices.Contains(got, mine2.ID) {
			t.Errorf("the forgotten %s is still listed: %v", mine2.ID, got)
		}
	}
	resp, data = call(t, ts, "DELETE", "/api/memory/"+mine2.ID, ana, nil)
	wantStatus(t, resp, data, 404)
	resp, data = call(t, ts, "DELETE", "/api/memory/"+dmOnly.ID, dm, nil)
	wantStatus(t, resp, data, 200)
}

// TestMemoryDMOnlyNote checks that an entry taken from a DM-only note is
// the DM's alone, even verified in the campaign scope, and that a player
// cannot name such a note as a source.
func TestMemoryDMOnlyNote(t *testing.T) {
	ts, dm, ana, _ := memoryServer(t)
	secret := addMemory(t, ts, dm, map[string]any{"scope": "campaign", "key": "archiduque", "value": "un dragón", "note": secretFile, "verified": true}, 201)
	if !strings.HasPrefix(secret.Source, "note:"+secretFile+"@") {
		t.Fatalf("source %q", secret.Source)
	}
	if got := ids(listMemory(t, ts, dm, "?scope=campaign")); !slices.Contains(got, secret.ID) {
		t.Errorf("the DM's list %v lacks %s", got, secret.ID)
	}
	for _, query := range []string{"", "?scope=campaign", "?all=1"} {
		resp, data := call(t, ts, "GET", "/api/memory"+query, ana, nil)
		wantStatus(t, resp, data, 200)
		if bytes.Contains(data, []byte(secret.ID)) || bytes.Contains(data, []byte(secretFile)) || bytes.Contains(data, []byte("dragón")) {
			t.Errorf("ana's list%s shows the DM-only entry: %s", query, data)
		}
	}
	_, missing := call(t, ts, "GET", "/api/memory/m999", ana, nil)
	resp, data := call(t, ts, "GET", "/api/memory/"+secret.ID, ana, nil)
	wantStatus(t, resp, data, 404)
	if !bytes.Equal(data, missing) {
		t.Errorf("ana's GET of the DM-only entry: %s; a missing id: %s", data, missing)
	}
	// Naming a DM-only note reads as naming one that is not there.
	resp, hidden := call(t, ts, "POST", "/api/memory", ana, map[string]any{"scope": "player:ana", "key": "k", "value": "v", "note": secretFile})
	wantStatus(t, resp, hidden, 400)
	resp, absent := call(t, ts, "POST", "/api/memory", ana, map[string]any{"scope": "player:ana", "key": "k", "value": "v", "note": "DM/Nada.md"})
	wantStatus(t, resp, absent, 400)
	if got, want := string(bytes.ReplaceAll(hidden, []byte(secretFile), []byte("DM/Nada.md"))), string(absent); got != want {
		t.Errorf("a DM-only note %s; a missing one %s", hidden, absent)
	}
	if bytes.Contains(hidden, []byte("Vermitrax")) {
		t.Errorf("the error shows the note: %s", hidden)
	}
}

// TestMemoryBadRequests checks the 400s, 401s, 413 and 405 of
// /api/memory, all in the JSON error shape.
func TestMemoryBadRequests(t *testing.T) {
	tokens, dm, ana, _ := memoryTokens(t)
	ts, _ := testServer(t, Config{Engine: testEngine(t), Tokens: tokens, MaxBodyBytes: 512})
	m := addMemory(t, ts, dm, map[string]any{"scope": "campaign", "key": "k", "value": "v"}, 201)
	for _, c := range []struct {
		method, path, token string
		body                any
		status              int
	}{
		{"POST", "/api/memory", dm, map[string]any{"scope": "everyone", "key": "k", "value": "v"}, 400},
		{"POST", "/api/memory", ana, map[string]any{"scope": "player:", "key": "k", "value": "v"}, 400},
		{"POST", "/api/memory", dm, map[string]any{"scope": "session:0", "key": "k", "value": "v"}, 400},
		{"POST", "/api/memory", dm, map[string]any{"scope": "campaign", "key": " ", "value": "v"}, 400},
		{"POST", "/api/memory", ana, map[string]any{"scope": "player:ana", "key": "", "value": "v"}, 400},
		{"POST", "/api/memory", dm, map[string]any{"scope": "campaign", "key": "k2", "value": ""}, 400},
		{"POST", "/api/memory", dm, map[string]any{"scope": "campaign", "key": "k2", "value": "v", "author": "otro"}, 400},
		{"POST", "/api/memory", dm, `{"scope": "campaign", "key": "k2", "value": "v"`, 400},
		{"POST", "/api/memory", dm, `{"scope": "campaign"} {}`, 400},
		{"POST", "/api/memory", dm, map[string]any{"scope": "campaign", "key": "k2", "value": "v", "note": "No/Existe.md"}, 400},
		{"POST", "/api/memory", dm, map[string]any{"scope": "campaign", "key": "k2", "value": strings.Repeat("v", 600)}, 413},
		{"POST", "/api/memory/" + m.ID + "/supersede", dm, map[string]any{"value": "w", "why": "x"}, 400},
		{"POST", "/api/memory/" + m.ID + "/supersede", dm, map[string]any{"value": " "}, 400},
		{"GET", "/api/memory?all=maybe", dm, nil, 400},
		{"GET", "/api/memory?scope=nobody", dm, nil, 400},
		{"PUT", "/api/memory/" + m.ID, dm, nil, 405},
		{"GET", "/api/memory", "", nil, 401},
		{"GET", "/api/memory/" + m.ID, "", nil, 401},
		{"POST", "/api/memory", "", map[string]any{"scope": "campaign", "key": "k3", "value": "v"}, 401},
		{"POST", "/api/memory/" + m.ID + "/verify", "orc_x", nil, 401},
		{"POST", "/api/memory/" + m.ID + "/supersede", "", map[string]any{"value": "w"}, 401},
		{"DELETE", "/api/memory/" + m.ID, "", nil, 401},
	} {
		resp, data := call(t, ts, c.method, c.path, c.token, c.body)
		wantStatus(t, resp, data, c.status)
		if c.status == 401 && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s %s: 401 without WWW-Authenticate", c.method, c.path)
		}
	}
	// Nothing of that changed the entry.
	if c := chainOf(t, ts, dm, m.ID); len(c) != 1 || c[0].Value != "v" || !c[0].Active || c[0].Status != "hypothesis" {
		t.Errorf("after the bad requests: %+v", c)
	}
	if got := listMemory(t, ts, dm, ""); len(got) != 1 {
		t.Errorf("after the bad requests the DM lists %v", ids(got))
	}
}

// TestMemoryLocal checks /api/memory without tokens: the local user is
// the DM, or a player without a name of their own (no scope to write in).
func TestMemoryLocal(t *testing.T) {
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng})
	m := addMemory(t, ts, "", map[string]any{"scope": "campaign", "key": "k", "value": "v", "verified": true}, 201)
	player, _ := testServer(t, Config{Engine: eng, LocalRole: oraculo.RolePlayer})
	if got := ids(listMemory(t, player, "", "")); !slices.Equal(got, []string{m.ID}) {
		t.Errorf("the local player lists %v, want [%s]", got, m.ID)
	}
	addMemory(t, player, "", map[string]any{"scope": "player:ana", "key": "k", "value": "v"}, 403)
}

// TestMemoryOverMCP checks that /mcp's memory tools act as the token's
// holder: ana's token adds in player:ana, and bruno's does not see it.
func TestMemoryOverMCP(t *testing.T) {
	tokens, dm, ana, bruno := memoryTokens(t)
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens, MCP: mcpserver.HTTPHandler(eng, "test")})
	session := func(token string) *mcp.ClientSession {
		t.Helper()
		client := &http.Client{Transport: bearerTransport(token)}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: client}, nil)
		if err != nil {
			t.Fatalf("connecting to /mcp: %v", err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	tool := func(cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, string) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			msg := ""
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					msg += tc.Text
				}
			}
			return nil, msg
		}
		out, _ := res.StructuredContent.(map[string]any)
		return out, ""
	}
	m, msg := tool(session(ana), "memory_add", map[string]any{"scope": "player:ana", "key": "sospecha", "value": "Harbin miente"})
	if msg != "" || m["scope"] != "player:ana" || m["author"] != "ana" {
		t.Fatalf("ana's memory_add over /mcp: %v %s", m, msg)
	}
	id, _ := m["id"].(string)
	if _, msg := tool(session(ana), "memory_add", map[string]any{"scope": "campaign", "key": "k", "value": "v"}); !strings.Contains(msg, "not allowed") {
		t.Errorf("ana's memory_add in the campaign over /mcp: %q", msg)
	}
	if _, msg := tool(session(bruno), "memory_show", map[string]any{"id": id}); !strings.Contains(msg, "no such entry") {
		t.Errorf("bruno's memory_show of ana's entry over /mcp: %q", msg)
	}
	if out, msg := tool(session(dm), "memory_show", map[string]any{"id": id}); msg != "" || len(out["chain"].([]any)) != 1 {
		t.Errorf("the DM's memory_show over /mcp: %v %q", out, msg)
	}
}

// bearerTransport sends every request with token.
type bearerTransport string

func (tok bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(tok))
	return http.DefaultTransport.RoundTrip(r)
}

// intentOf posts text to /api/memory/intent as token and returns the raw
// answer (200 wanted) and its decoded shape.
func intentOf(t *testing.T, ts *httptest.Server, token, text string) ([]byte, intentAnswer) {
	t.Helper()
	resp, data := call(t, ts, "POST", "/api/memory/intent", token, map[string]any{"text": text})
	wantStatus(t, resp, data, 200)
	return data, decodeJSON[intentAnswer](t, data)
}

type intentAnswer struct {
	Intent   string `json:"intent"`
	Proposal *struct {
		Scope, Key, Value string
	} `json:"proposal"`
	Candidates []oraculo.Memory `json:"candidates"`
	Error      string           `json:"error"`
}

// TestMemoryIntent drives POST /api/memory/intent as the DM, the player
// ana and a local player without a name: a remember line proposes an
// entry in the asker's own scope and saves nothing; a forget line lists
// only the entries the asker may forget; any other line is no intent.
func TestMemoryIntent(t *testing.T) {
	tokens, dm, ana, bruno := memoryTokens(t)
	eng := testEngine(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	nameless, _ := testServer(t, Config{Engine: eng, LocalRole: oraculo.RolePlayer})

	// Not about memory: the page asks it as usual.
	for _, line := range []string{"¿Qué pasó con el archiduque?", "recuerda", "Olvida", "¿quién recuerda al archiduque?"} {
		if data, got := intentOf(t, ts, dm, line); got.Intent != "" || got.Proposal != nil || got.Candidates != nil || got.Error != "" {
			t.Errorf("intent of %q: %s", line, data)
		}
	}

	// Remember: a proposal in the asker's scope, nothing saved.
	for _, c := range []struct {
		who, token, line, scope, key, value string
	}{
		{"the DM", dm, "Recuerda que críticos: un 20 natural dobla el daño.", "campaign", "críticos", "un 20 natural dobla el daño"},
		{"the DM", dm, "¡remember that the bridge burned down!", "campaign", "the bridge burned down", "the bridge burned down"},
		{"ana", ana, "recuerda que sospecho de Harbin", "player:ana", "sospecho de harbin", "sospecho de Harbin"},
		{"bruno", bruno, "Apunta que plan: robar el mapa", "player:bruno", "plan", "robar el mapa"},
	} {
		data, got := intentOf(t, ts, c.token, c.line)
		if got.Intent != "remember" || got.Proposal == nil || got.Proposal.Scope != c.scope || got.Proposal.Key != c.key || got.Proposal.Value != c.value || got.Error != "" || got.Candidates != nil {
			t.Errorf("%s's %q: %s; want a proposal %s, %q, %q", c.who, c.line, data, c.scope, c.key, c.value)
		}
	}
	data, got := intentOf(t, nameless, "", "recuerda que críticos: dobla")
	if got.Intent != "remember" || got.Proposal != nil || !strings.Contains(got.Error, "without a name") {
		t.Errorf("a nameless player's remember: %s; want an error and no proposal", data)
	}
	if got := listMemory(t, ts, dm, "?all=1"); len(got) != 0 {
		t.Fatalf("the intent calls saved %v", ids(got))
	}

	// Forget: only what the asker may change, among what they may see.
	campaign := addMemory(t, ts, dm, map[string]any{"scope": "campaign", "key": "críticos", "value": "un 20 natural dobla el daño", "verified": true}, 201)
	dmOnly := addMemory(t, ts, dm, map[string]any{"scope": "dm", "key": "críticos del dragón", "value": "el dragón no sufre críticos", "verified": true}, 201)
	anas := addMemory(t, ts, ana, map[string]any{"scope": "player:ana", "key": "críticos", "value": "los críticos de Ana son suerte"}, 201)
	brunos := addMemory(t, ts, bruno, map[string]any{"scope": "player:bruno", "key": "críticos", "value": "Bruno cuenta sus críticos"}, 201)
	addMemory(t, ts, dm, map[string]any{"scope": "campaign", "key": "puente", "value": "lo quemaron los trolls"}, 201)
	const line = "olvida lo de los críticos"
	for _, c := range []struct {
		who   string
		ts    *httptest.Server
		token string
		want  []string
	}{
		{"the DM", ts, dm, []string{campaign.ID, dmOnly.ID, anas.ID, brunos.ID}},
		{"ana", ts, ana, []string{anas.ID}},
		{"bruno", ts, bruno, []string{brunos.ID}},
		{"a nameless player", nameless, "", []string{}},
	} {
		data, got := intentOf(t, c.ts, c.token, line)
		if got.Intent != "forget" || !bytes.Contains(data, []byte(`"candidates":[`)) || got.Proposal != nil {
			t.Errorf("%s's %q: %s; want a forget with an array of candidates", c.who, line, data)
			continue
		}
		gotIDs := ids(got.Candidates)
		slices.Sort(gotIDs)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(gotIDs, want) {
			t.Errorf("%s's candidates for %q: %v, want %v", c.who, line, gotIDs, want)
		}
		if c.who != "the DM" && (bytes.Contains(data, []byte("dragón")) || bytes.Contains(data, []byte(campaign.ID+`"`))) {
			t.Errorf("%s's candidates show what they may not change: %s", c.who, data)
		}
	}
	if data, got := intentOf(t, ts, dm, "forget about the wizard's tower"); got.Intent != "forget" || got.Candidates == nil || len(got.Candidates) != 0 {
		t.Errorf("a forget that matches nothing: %s", data)
	}

	// At most 9 candidates.
	for i := range 12 {
		addMemory(t, ts, dm, map[string]any{"scope": "session:1", "key": "tirada " + strconv.Itoa(i), "value": "una tirada de dados"}, 201)
	}
	if data, got := intentOf(t, ts, dm, "olvida las tiradas de dados"); got.Intent != "forget" || len(got.Candidates) != 9 {
		t.Errorf("a forget matching 12 entries lists %d: %s", len(got.Candidates), data)
	}
	// Still nothing forgotten by asking.
	if got := listMemory(t, ts, dm, "?all=1"); len(got) != 17 {
		t.Errorf("after the intents the DM lists %d entries, want 17", len(got))
	}

	// Bad requests, in the JSON error shape.
	for _, c := range []struct {
		token  string
		body   any
		status int
	}{
		{dm, map[string]any{"text": "olvida", "scope": "campaign"}, 400},
		{dm, `{"text": "olvida"`, 400},
		{dm, `{"text": "a"} {}`, 400},
		{"", map[string]any{"text": "recuerda que x"}, 401},
	} {
		resp, data := call(t, ts, "POST", "/api/memory/intent", c.token, c.body)
		wantStatus(t, resp, data, c.status)
	}
	resp, data := call(t, ts, "GET", "/api/memory/intent", dm, nil)
	wantStatus(t, resp, data, 404) // "intent" is no entry's id
}
