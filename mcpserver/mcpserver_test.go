package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/mcpserver"
)

// notes is a small campaign: two sessions, an NPC sheet, and a DM-only
// note that a player must never see.
var notes = map[string]string{
	"Sesiones/Sesión 1.md": "# Sesión 1 — El puerto de Valdemar\n\nLos aventureros llegan al puerto de Valdemar en una galera mercante. " +
		"El capitán Orsino les habla del faro apagado y de los contrabandistas que descargan de noche.\n\n" +
		"En la taberna del Ancla Rota conocen a Brisa, una ladrona que vende mapas de las cuevas.\n",
	"Sesiones/Sesión 2.md": "# Sesión 2 — Las cuevas del faro\n\nCon el mapa de Brisa bajan a las cuevas bajo el faro. " +
		"Encuentran cajas con el sello gris de una cofradía y a un contrabandista herido que confiesa que el faro se apagó a propósito.\n\n" +
		"Brisa desaparece con la mitad del botín antes del amanecer.\n",
	"NPCs/Orsino.md": "---\ntitle: Orsino\naliases: [el capitán]\n---\n# Orsino\n\nCapitán de la galera mercante Gaviota. Honrado, desconfía de la cofradía del sello gris.\n",
	"DM/Secretos.md": "# Secretos del máster\n\nEl archimago Zoltan Quimera financia a los contrabandistas del faro con oro robado al templo.\n",
}

// newEngine ingests notes into a fresh index in a temp folder.
func newEngine(t *testing.T) *oraculo.Engine { return newEngineWith(t, notes) }

// newEngineWith ingests these notes into a fresh index in a temp folder.
func newEngineWith(t *testing.T, notes map[string]string) *oraculo.Engine {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	eng, err := oraculo.Open(ctx, filepath.Join(dir, "o.db"))
	if err != nil {
		t.Fatalf("opening the index: %v", err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.Ingest(ctx, []string{writeNotes(t, dir, notes)}, oraculo.IngestOptions{}); err != nil {
		t.Fatalf("ingesting: %v", err)
	}
	return eng
}

// writeNotes writes notes (the package's own when none are given) into
// a folder under dir and returns it.
func writeNotes(t *testing.T, dir string, these ...map[string]string) string {
	t.Helper()
	if len(these) == 0 {
		these = append(these, notes)
	}
	root := filepath.Join(dir, "notas")
	for name, text := range these[0] {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// connect connects a client to srv over in-memory transports; the server
// side's context carries ctx's values (the role).
func connect(t *testing.T, ctx context.Context, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("connecting the server: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatalf("connecting the client: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured content into out; it fails
// the test on a protocol error, and returns the result for its text and
// IsError.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("calling %s(%v): %v", tool, args, err)
	}
	if out != nil && !res.IsError {
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: decoding structured content %s: %v", tool, raw, err)
		}
	}
	return res
}

// text joins a result's text content.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestListTools(t *testing.T) {
	cs := connect(t, context.Background(), mcpserver.NewServer(newEngine(t), "test"))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	// Each tool's required inputs and some of its output fields.
	want := map[string]struct{ required, optional, output []string }{
		"search":     {[]string{"question"}, []string{"k"}, []string{"question", "hits"}},
		"ask":        {[]string{"question"}, []string{"history"}, []string{"answer", "abstained", "citations", "evidence", "query", "memory"}},
		"read_chunk": {[]string{"id"}, nil, []string{"id", "label", "file", "title", "headings", "text"}},
		"read_note":  {[]string{"file"}, nil, []string{"file", "title", "chunks"}},
		"compendium": {nil, []string{"name", "kind"}, []string{"entities"}},
		"timeline":   {[]string{"name"}, nil, []string{"name", "kind", "aliases", "note", "first_session", "last_session", "sessions", "gaps", "notes"}},
		"recap":      {nil, []string{"session"}, []string{"session", "files", "events", "open"}},
		"threads":    {nil, []string{"quiet"}, []string{"quiet_sessions", "last_session", "threads"}},
		"check":      {nil, nil, []string{"contradictions"}},

		"memory_list":      {nil, []string{"scope", "all"}, []string{"entries"}},
		"memory_show":      {[]string{"id"}, nil, []string{"chain"}},
		"memory_add":       {[]string{"scope", "key", "value"}, []string{"note", "verified"}, []string{"id", "scope", "key", "value", "source", "status", "supersedes", "active", "stale"}},
		"memory_verify":    {[]string{"id"}, nil, []string{"id", "status"}},
		"memory_supersede": {[]string{"id", "value"}, []string{"note", "verified"}, []string{"id", "supersedes", "status"}},
		"memory_forget":    {[]string{"id"}, nil, []string{"forgotten"}},
	}
	// The tools that change memory; memory_forget deletes.
	writes := map[string]bool{"memory_add": true, "memory_verify": true, "memory_supersede": true, "memory_forget": true}
	if len(tools) != len(want) {
		t.Errorf("tools = %v, want %d", slices.Collect(mapKeys(tools)), len(want))
	}
	for name, w := range want {
		tool, ok := tools[name]
		if !ok {
			t.Errorf("no tool %q", name)
			continue
		}
		if tool.Description == "" {
			t.Errorf("%s: no description", name)
		}
		switch a := tool.Annotations; {
		case a == nil:
			t.Errorf("%s: no annotations", name)
		case a.ReadOnlyHint == writes[name]:
			t.Errorf("%s: read-only %v, want %v", name, a.ReadOnlyHint, !writes[name])
		case writes[name] && (a.DestructiveHint == nil || *a.DestructiveHint != (name == "memory_forget")):
			t.Errorf("%s: destructive %v, want %v", name, a.DestructiveHint, name == "memory_forget")
		case a.OpenWorldHint == nil || *a.OpenWorldHint:
			t.Errorf("%s: not annotated closed-world", name)
		}
		in := schemaOf(t, tool.InputSchema)
		if got := in.Required; !slices.Equal(sorted(got), sorted(w.required)) {
			t.Errorf("%s: required inputs %v, want %v", name, got, w.required)
		}
		for _, p := range append(slices.Clone(w.required), w.optional...) {
			prop, ok := in.Properties[p]
			if !ok {
				t.Errorf("%s: no input %q", name, p)
			} else if prop.Description == "" {
				t.Errorf("%s: input %q has no description", name, p)
			}
		}
		out := schemaOf(t, tool.OutputSchema)
		for _, p := range w.output {
			if _, ok := out.Properties[p]; !ok {
				t.Errorf("%s: no output %q", name, p)
			}
		}
	}
	k := schemaOf(t, tools["search"].InputSchema).Properties["k"]
	if string(k.Default) != "8" || k.Maximum == nil || *k.Maximum != 50 {
		t.Errorf("search k: default %s, maximum %v; want 8 and 50", k.Default, k.Maximum)
	}
}

// schema is the part of a JSON schema the tests look at.
type schema struct {
	Required   []string `json:"required"`
	Properties map[string]struct {
		Description string          `json:"description"`
		Default     json.RawMessage `json:"default"`
		Maximum     *float64        `json:"maximum"`
	} `json:"properties"`
}

func schemaOf(t *testing.T, v any) schema {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var s schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("decoding schema %s: %v", raw, err)
	}
	return s
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestSearchThenReadChunk(t *testing.T) {
	cs := connect(t, context.Background(), mcpserver.NewServer(newEngine(t), "test"))
	var out mcpserver.SearchOutput
	res := call(t, cs, "search", map[string]any{"question": "¿Quién vende mapas de las cuevas?", "k": 3}, &out)
	if res.IsError {
		t.Fatalf("search failed: %s", text(res))
	}
	if len(out.Hits) == 0 || len(out.Hits) > 3 {
		t.Fatalf("search returned %d hits, want 1 to 3", len(out.Hits))
	}
	top := out.Hits[0]
	if top.Rank != 1 || top.ID == "" || top.Label == "" || top.Excerpt == "" || len(top.Paths) == 0 {
		t.Errorf("top hit incomplete: %+v", top)
	}
	if top.File != "Sesiones/Sesión 1.md" {
		t.Errorf("top hit in %q, want Sesiones/Sesión 1.md", top.File)
	}
	if !strings.Contains(text(res), top.ID) || !strings.Contains(text(res), top.Label) {
		t.Errorf("text content does not name the top hit's id and label:\n%s", text(res))
	}

	var chunk mcpserver.Chunk
	res = call(t, cs, "read_chunk", map[string]any{"id": top.ID}, &chunk)
	if res.IsError {
		t.Fatalf("read_chunk(%q) failed: %s", top.ID, text(res))
	}
	if chunk.ID != top.ID || chunk.File != top.File || chunk.Label != top.Label || !strings.Contains(chunk.Text, "Brisa") {
		t.Errorf("read_chunk(%q) = %+v, not the hit's chunk", top.ID, chunk)
	}
	if !strings.Contains(text(res), "Brisa") {
		t.Errorf("read_chunk's text content lacks the chunk's text:\n%s", text(res))
	}

	var note mcpserver.Note
	res = call(t, cs, "read_note", map[string]any{"file": top.File}, &note)
	if res.IsError || note.File != top.File || len(note.Chunks) == 0 {
		t.Errorf("read_note(%q) = %+v, %s", top.File, note, text(res))
	}
}

func TestSearchDefaultsAndLimits(t *testing.T) {
	cs := connect(t, context.Background(), mcpserver.NewServer(newEngine(t), "test"))
	for _, tc := range []struct {
		name    string
		args    map[string]any
		wantErr bool
	}{
		{"default k", map[string]any{"question": "faro"}, false},
		{"k above the maximum", map[string]any{"question": "faro", "k": 51}, true},
		{"empty question", map[string]any{"question": "  "}, true},
		{"no question", map[string]any{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out mcpserver.SearchOutput
			res := call(t, cs, "search", tc.args, &out)
			if res.IsError != tc.wantErr {
				t.Fatalf("IsError = %v, want %v: %s", res.IsError, tc.wantErr, text(res))
			}
			if !tc.wantErr && (len(out.Hits) == 0 || len(out.Hits) > mcpserver.DefaultK) {
				t.Errorf("%d hits, want 1 to %d", len(out.Hits), mcpserver.DefaultK)
			}
		})
	}
}

func TestAskExtractive(t *testing.T) {
	eng := newEngine(t)
	cs := connect(t, context.Background(), mcpserver.NewServer(eng, "test"))
	var out mcpserver.AskOutput
	res := call(t, cs, "ask", map[string]any{"question": "¿Qué encontraron en las cuevas bajo el faro?"}, &out)
	if res.IsError {
		t.Fatalf("ask failed: %s", text(res))
	}
	if out.Abstained || out.Mode != "extractive" || out.Answer == "" || out.Query == "" {
		t.Fatalf("ask = %+v, want an extractive answer", out)
	}
	if len(out.Citations) == 0 || len(out.Evidence) == 0 {
		t.Fatalf("ask cites nothing: %+v", out)
	}
	evidence := map[string]bool{}
	for _, e := range out.Evidence {
		if e.ID == "" || e.Label == "" || e.File == "" || (e.Kind != "full" && e.Kind != "summary") {
			t.Errorf("incomplete evidence %+v", e)
		}
		evidence[e.ID] = true
	}
	for _, c := range out.Citations {
		if !c.Valid || c.Evidence == nil || !evidence[*c.Evidence] {
			t.Errorf("citation %+v is not valid evidence", c)
			continue
		}
		if !strings.Contains(out.Answer, "["+c.Label+"]") {
			t.Errorf("citation %q not in the answer %q", c.Label, out.Answer)
		}
		var chunk mcpserver.Chunk
		if res := call(t, cs, "read_chunk", map[string]any{"id": *c.Evidence}, &chunk); res.IsError || chunk.Label != c.Label {
			t.Errorf("read_chunk(%q) for citation %q: %+v %s", *c.Evidence, c.Label, chunk, text(res))
		}
	}
	if !strings.Contains(text(res), out.Answer) || !strings.Contains(text(res), "Fuentes:") {
		t.Errorf("text content lacks the answer or its sources:\n%s", text(res))
	}

	// A follow-up with history is answered too.
	var next mcpserver.AskOutput
	res = call(t, cs, "ask", map[string]any{
		"question": "¿Y quién se llevó el botín?",
		"history":  []map[string]any{{"question": "¿Qué encontraron en las cuevas bajo el faro?", "answer": out.Answer}},
	}, &next)
	if res.IsError || next.Answer == "" {
		t.Errorf("follow-up: %+v %s", next, text(res))
	}
}

func TestReadChunkUnknownID(t *testing.T) {
	cs := connect(t, context.Background(), mcpserver.NewServer(newEngine(t), "test"))
	for _, tc := range []struct{ tool, arg, value string }{
		{"read_chunk", "id", "0123456789abcdef"},
		{"read_note", "file", "No/Existe.md"},
		{"compendium", "name", "Nadie Nunca"},
	} {
		res := call(t, cs, tc.tool, map[string]any{tc.arg: tc.value}, nil)
		if !res.IsError {
			t.Errorf("%s(%q) succeeded: %s", tc.tool, tc.value, text(res))
			continue
		}
		msg := text(res)
		if !strings.Contains(msg, "not found") || !strings.Contains(msg, tc.value) {
			t.Errorf("%s(%q) error %q, want one saying not found", tc.tool, tc.value, msg)
		}
		if strings.Contains(msg, "chunk_uid") || strings.Contains(msg, "sql") || strings.Contains(msg, "no such") {
			t.Errorf("%s(%q) error %q names internals", tc.tool, tc.value, msg)
		}
	}
}

func TestCompendium(t *testing.T) {
	cs := connect(t, context.Background(), mcpserver.NewServer(newEngine(t), "test"))
	var all mcpserver.CompendiumOutput
	if res := call(t, cs, "compendium", nil, &all); res.IsError {
		t.Fatalf("compendium failed: %s", text(res))
	}
	var orsino *mcpserver.Entity
	for i, e := range all.Entities {
		if e.Name == "Orsino" {
			orsino = &all.Entities[i]
		}
	}
	if orsino == nil {
		t.Fatalf("compendium lacks Orsino: %+v", all.Entities)
	}
	var one mcpserver.CompendiumOutput
	if res := call(t, cs, "compendium", map[string]any{"name": "el capitán"}, &one); res.IsError || len(one.Entities) != 1 || one.Entities[0].Name != "Orsino" {
		t.Errorf("compendium(el capitán) = %+v, %s", one, text(res))
	}
}

// TestRoleReachesTools checks that a player's session never sees the
// DM-only note, while the DM's does: the role rides in the context the
// session was connected with.
func TestRoleReachesTools(t *testing.T) {
	eng := newEngine(t)
	srv := mcpserver.NewServer(eng, "test")
	dm := connect(t, oraculo.WithRole(context.Background(), oraculo.RoleDM), srv)
	player := connect(t, oraculo.WithRole(context.Background(), oraculo.RolePlayer), srv)
	q := map[string]any{"question": "archimago Zoltan Quimera"}

	var out mcpserver.SearchOutput
	call(t, dm, "search", q, &out)
	secret := ""
	for _, h := range out.Hits {
		if strings.HasPrefix(h.File, "DM/") {
			secret = h.ID
		}
	}
	if secret == "" {
		t.Fatalf("the DM's search does not find the DM-only note: %+v", out.Hits)
	}
	out = mcpserver.SearchOutput{}
	call(t, player, "search", q, &out)
	for _, h := range out.Hits {
		if strings.HasPrefix(h.File, "DM/") {
			t.Errorf("a player's search found the DM-only note: %+v", h)
		}
	}
	if res := call(t, player, "read_chunk", map[string]any{"id": secret}, nil); !res.IsError || !strings.Contains(text(res), "not found") {
		t.Errorf("a player read the DM-only chunk: %s", text(res))
	}
	if res := call(t, player, "read_note", map[string]any{"file": "DM/Secretos.md"}, nil); !res.IsError {
		t.Errorf("a player read the DM-only note: %s", text(res))
	}
}

// TestHTTPHandler serves the tools over streamable HTTP behind a
// middleware that, like the server's authentication, puts a role in each
// request's context, and checks that every call runs with its own
// request's role.
func TestHTTPHandler(t *testing.T) {
	h := mcpserver.HTTPHandler(newEngine(t), "test")
	auth := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		role := r.Header.Get("X-Test-Role")
		if role == "" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r.WithContext(oraculo.WithRole(r.Context(), role)))
	})
	ts := httptest.NewServer(auth)
	defer ts.Close()

	role := oraculo.RoleDM
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("X-Test-Role", role)
		return http.DefaultTransport.RoundTrip(r)
	})}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: client}, nil)
	if err != nil {
		t.Fatalf("connecting over HTTP: %v", err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 15 {
		t.Fatalf("listing tools over HTTP: %v, %v", tools, err)
	}
	var ans mcpserver.AskOutput
	if res := call(t, cs, "ask", map[string]any{"question": "¿Quién es Brisa?"}, &ans); res.IsError || ans.Answer == "" || len(ans.Citations) == 0 {
		t.Fatalf("ask over HTTP: %+v %s", ans, text(res))
	}

	// The session was opened as the DM; later requests as a player must
	// read as a player.
	q := map[string]any{"question": "archimago Zoltan Quimera"}
	for _, tc := range []struct {
		role       string
		wantSecret bool
	}{{oraculo.RoleDM, true}, {oraculo.RolePlayer, false}, {oraculo.RoleDM, true}} {
		role = tc.role
		var out mcpserver.SearchOutput
		if res := call(t, cs, "search", q, &out); res.IsError {
			t.Fatalf("search as %s: %s", tc.role, text(res))
		}
		found := slices.ContainsFunc(out.Hits, func(h mcpserver.SearchHit) bool { return strings.HasPrefix(h.File, "DM/") })
		if found != tc.wantSecret {
			t.Errorf("search as %s: DM-only note found = %v, want %v", tc.role, found, tc.wantSecret)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestSearchFilters(t *testing.T) {
	cs := connect(t, context.Background(), mcpserver.NewServer(newEngine(t), "test"))
	var all, filtered mcpserver.SearchOutput
	if res := call(t, cs, "search", map[string]any{"question": "galera mercante", "k": 10}, &all); res.IsError {
		t.Fatal(text(res))
	}
	res := call(t, cs, "search", map[string]any{"question": "galera mercante", "k": 10, "filters": map[string]any{"folders": []string{"npcs"}}}, &filtered)
	if res.IsError || len(filtered.Hits) == 0 {
		t.Fatalf("filtered search: %s", text(res))
	}
	for _, h := range filtered.Hits {
		if !strings.HasPrefix(h.File, "NPCs/") {
			t.Errorf("search filtered to NPCs returned %s", h.File)
		}
	}
	if len(filtered.Hits) >= len(all.Hits) {
		t.Errorf("the filter left %d of %d hits: the test shows nothing", len(filtered.Hits), len(all.Hits))
	}
	var until mcpserver.SearchOutput
	res = call(t, cs, "search", map[string]any{"question": "galera mercante", "k": 10, "filters": map[string]any{"until_session": 12}}, &until)
	if res.IsError || len(until.Hits) == 0 || len(until.Hits) >= len(all.Hits) {
		t.Fatalf("search until session 12: %d of %d hits, %s", len(until.Hits), len(all.Hits), text(res))
	}
	for _, h := range until.Hits {
		if h.Session == nil || *h.Session > 12 {
			t.Errorf("search until session 12 returned %s (%s)", h.Label, h.File)
		}
	}
}
