package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo/mcpserver"
)

// redactNotes: a public note that links a DM-only note by its path,
// shown by another name, in its title (a heading of its chunks) and in
// its text, and links a note players see.
var redactNotes = map[string]string{
	"Lugares/Posada del Poni.md": "# Reunión con [[DM/Plan secreto|el viejo]] en la posada\n\n" +
		"El grupo habló con [[DM/Plan secreto|el viejo]] en la posada del Poni, y luego visitó a [[NPCs/Harbin|Harbin]] en la villa. ![[DM/Plan secreto#Fase 2|la segunda fase]] quedó en el aire.\n",
	"NPCs/Harbin.md":     "# Harbin\n\nHarbin Wester es el alcalde de la villa.\n",
	"DM/Plan secreto.md": "# Plan secreto\n\nEl archiduque es un dragón rojo.\n\n## Fase 2\n\nQuemar la villa.\n",
}

// TestPlayerTextNamesNoHiddenNote: the stored text a player gets from
// every JSON surface (a chunk, a note, search hits, an answer's
// candidates, the OpenAI endpoint's detail, the MCP tools) writes a wikilink to a DM-only note as the
// text it shows, so that nothing names that note: neither its path nor
// its file name. A link to a note the player sees stays as written; the
// DM gets the text as written.
func TestPlayerTextNamesNoHiddenNote(t *testing.T) {
	checkPlayerTextNamesNoHiddenNote(t, redactCase{notes: redactNotes, visible: "[[NPCs/Harbin|Harbin]]",
		chunk:     "El grupo habló con el viejo en la posada del Poni, y luego visitó a [[NPCs/Harbin|Harbin]] en la villa. la segunda fase quedó en el aire.",
		noteLinks: 1, dm: "DM/Plan secreto"})
}

// redactMarkdownNotes: redactNotes with Markdown links (and an image)
// instead of wikilinks, by every spelling of a path Obsidian resolves.
var redactMarkdownNotes = map[string]string{
	"Lugares/Posada del Poni.md": "# Reunión con [el viejo](DM/Plan%20secreto.md) en la posada\n\n" +
		"El grupo habló con [el viejo](<DM/Plan secreto.md>) en la posada del Poni, y luego visitó a [Harbin](../NPCs/Harbin.md) en la villa. [La segunda fase](../DM/Plan%20secreto.md#Fase%202 \"fase\") quedó en el aire. ![mapa del plan](DM/mapa%20del%20plan.png) [web](https://example.com/villa)\n",
	"NPCs/Harbin.md":     redactNotes["NPCs/Harbin.md"],
	"DM/Plan secreto.md": redactNotes["DM/Plan secreto.md"],
}

// TestPlayerTextNamesNoHiddenNoteByMarkdownLink is
// [TestPlayerTextNamesNoHiddenNote] with Markdown links: a link or image
// whose path is no note the player sees is its text (an attachment's
// image nothing), on every surface, the extractive answer included.
func TestPlayerTextNamesNoHiddenNoteByMarkdownLink(t *testing.T) {
	checkPlayerTextNamesNoHiddenNote(t, redactCase{notes: redactMarkdownNotes, visible: "[Harbin](../NPCs/Harbin.md)",
		chunk:  "El grupo habló con el viejo en la posada del Poni, y luego visitó a [Harbin](../NPCs/Harbin.md) en la villa. La segunda fase quedó en el aire.  [web](https://example.com/villa)",
		hidden: []string{"mapa"}, dm: "DM/Plan"})
}

// redactCase is one set of notes for checkPlayerTextNamesNoHiddenNote:
// visible is a link to a note the player sees, kept in the /api bodies;
// chunk is in the player's chunk text; noteLinks is how many note links
// the chunk has; hidden adds words no player body may hold; dm is in
// every body of the DM's.
type redactCase struct {
	notes          map[string]string
	visible, chunk string
	noteLinks      int
	hidden         []string
	dm             string
}

// checkPlayerTextNamesNoHiddenNote: the stored text a player gets from
// every JSON surface names no DM-only note; the DM's is as written.
func checkPlayerTextNamesNoHiddenNote(t *testing.T, rc redactCase) {
	t.Helper()
	ctx := context.Background()
	eng, _ := ingested(t, rc.notes)
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens, MCP: mcpserver.HTTPHandler(eng, "test")})

	const file = "Lugares/Posada del Poni.md"
	const q = "¿Con quién habló el grupo en la posada del Poni?"
	hidden := append([]string{"DM/Plan", "DM%2F", "Plan secreto", "Plan%20secreto", "Plan+secreto", "Fase 2", "Fase%202"}, rc.hidden...)
	visible := rc.visible

	// bodies returns what each surface sends the token's holder.
	bodies := func(token string) map[string]string {
		t.Helper()
		out := map[string]string{}
		get := func(what, method, path string, body any) []byte {
			t.Helper()
			resp, data := call(t, ts, method, path, token, body)
			wantStatus(t, resp, data, 200)
			out[what] = string(data)
			return data
		}
		hits := decodeJSON[searchResponse](t, get("/api/search", "POST", "/api/search", map[string]any{"question": q}))
		id := ""
		for _, h := range hits.Hits {
			if h.File == file {
				id = h.ID
			}
		}
		if id == "" {
			t.Fatalf("/api/search does not find %s: %s", file, out["/api/search"])
		}
		get("/api/chunks", "GET", "/api/chunks/"+url.PathEscape(id)+"?claim="+url.QueryEscape("el grupo habló con el viejo"), nil)
		get("/api/note", "GET", "/api/note?file="+url.QueryEscape(file), nil)
		a := get("/api/ask", "POST", "/api/ask", map[string]any{"question": q, "extractive": true})
		if !strings.Contains(string(a), "habló con el viejo en la posada") {
			t.Errorf("/api/ask does not quote the note: %s", a)
		}
		get("/v1/chat/completions", "POST", "/v1/chat/completions", map[string]any{"model": ModelIDExtractive,
			"messages": []map[string]any{{"role": "user", "content": q}}, "oraculo": map[string]any{"detail": true}})

		client := &http.Client{Transport: bearerTransport(token)}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: client}, nil)
		if err != nil {
			t.Fatalf("connecting to /mcp: %v", err)
		}
		defer cs.Close()
		for name, args := range map[string]map[string]any{
			"read_chunk": {"id": id},
			"read_note":  {"file": file},
			"search":     {"question": q},
		} {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			if err != nil || res.IsError {
				t.Fatalf("%s over /mcp: %v %+v", name, err, res)
			}
			data, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			out["mcp "+name] = string(data)
		}
		return out
	}

	seen := bodies(player)
	for what, body := range seen {
		for _, leak := range hidden {
			if strings.Contains(body, leak) {
				t.Errorf("the player's %s names the DM-only note (%q): %s", what, leak, body)
			}
		}
		if strings.HasPrefix(what, "/api/") && !strings.Contains(body, visible) {
			t.Errorf("the player's %s does not keep the link to a note they see, %s: %s", what, visible, body)
		}
	}
	var chunk struct {
		Text      string            `json:"text"`
		Headings  []string          `json:"headings"`
		NoteLinks map[string]string `json:"note_links"`
	}
	if err := json.Unmarshal([]byte(seen["/api/chunks"]), &chunk); err != nil {
		t.Fatal(err)
	}
	if want := rc.chunk; !strings.Contains(chunk.Text, want) {
		t.Errorf("the player's chunk reads %q, want %q in it", chunk.Text, want)
	}
	if !strings.Contains(strings.Join(chunk.Headings, "|"), "Reunión con el viejo en la posada") || len(chunk.NoteLinks) != rc.noteLinks || rc.noteLinks > 0 && chunk.NoteLinks["NPCs/Harbin"] == "" {
		t.Errorf("the player's chunk: headings %q, note_links %v", chunk.Headings, chunk.NoteLinks)
	}

	for what, body := range bodies(dm) {
		if !strings.Contains(body, rc.dm) {
			t.Errorf("the DM's %s does not have the text as written: %s", what, body)
		}
	}
}
