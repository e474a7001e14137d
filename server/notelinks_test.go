package server

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// linkedNotes are notes whose session links to a note players see
// (Harbin, by file name), to one they see by its alias (Ser Morcant), to
// a DM-only one (Vermitrax, under DM/), to two notes of one name
// (Phandalin) and to none (Kleb).
var linkedNotes = map[string]string{
	"Sesiones/Sesion 3.md":           "# Sesión 3\n\n[[harbin|Harbin]] y [[Ser Morcant]] vieron a [[Vermitrax]] sobre [[Phandalin]] con [[Kleb]].\n",
	"NPCs/Harbin.md":                 "# Harbin\n\nHarbin Wester es el alcalde de la villa.\n",
	"NPCs/Ser Morcant the Gloomy.md": "---\naliases: [Ser Morcant]\n---\n# Ser Morcant the Gloomy\n\nUn caballero de la cadena.\n",
	"DM/Vermitrax.md":                "# Vermitrax\n\nEl dragón rojo que se hace pasar por archiduque.\n",
	"Lugares/Phandalin.md":           "# Phandalin\n\nUna villa minera.\n",
	"Mapas/Phandalin.md":             "# Phandalin\n\nEl mapa de la villa.\n",
}

func linkedEngine(t *testing.T) *oraculo.Engine {
	t.Helper()
	eng, _ := ingested(t, linkedNotes)
	return eng
}

// noteURL matches a Markdown link to a note's page: the name, the URL.
var noteURL = regexp.MustCompile(`\[([^\]\n]+)\]\((http://[^)\s]*/n\?[^)\s]*)\)`)

// TestAnswerLinksNotes: a player's answer, on /api/ask (its "markdown"
// and "note_links") and on the OpenAI endpoint, links a name its notes
// write as a wikilink to the note the player may see, by file name and
// by alias, each link opening that note's page; a name whose note is
// DM-only reads exactly as one whose note does not exist, or is
// ambiguous: plain text, with nothing that tells them apart. The DM's
// answer links the DM-only note too. The shown text and the answer's
// plain text stay as they were.
func TestAnswerLinksNotes(t *testing.T) {
	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: linkedEngine(t), Tokens: tokens})
	const q = "¿Quién vio a Vermitrax sobre Phandalin con Kleb?"
	const sentence = "Harbin y Ser Morcant vieron a Vermitrax sobre Phandalin con Kleb."

	ask := func(token string) askReply {
		t.Helper()
		resp, data := call(t, ts, "POST", "/api/ask", token, map[string]any{"question": q, "extractive": true})
		wantStatus(t, resp, data, 200)
		a := decodeJSON[askReply](t, data)
		if a.Answer == nil || !strings.Contains(a.Answer.Answer, sentence) {
			t.Fatalf("/api/ask: want the sentence quoted: %s", data)
		}
		if strings.Contains(a.Answer.Answer, "](") {
			t.Errorf("the answer's plain text has links: %q", a.Answer.Answer)
		}
		return a
	}
	links := func(markdown string) map[string]string {
		out := map[string]string{}
		for _, m := range noteURL.FindAllStringSubmatch(markdown, -1) {
			out[m[1]] = m[2]
		}
		return out
	}

	a := ask(player)
	got := links(a.Markdown)
	for name, file := range map[string]string{"Harbin": "NPCs/Harbin.md", "Ser Morcant": "NPCs/Ser Morcant the Gloomy.md"} {
		u, ok := got[name]
		if !ok {
			t.Errorf("the player's markdown does not link %q:\n%s", name, a.Markdown)
			continue
		}
		parsed, err := url.Parse(u)
		if err != nil || parsed.Query().Get("file") != file || parsed.Query().Get("r") != oraculo.RolePlayer {
			t.Errorf("%q links to %s, want %s for a player", name, u, file)
		}
		status, page := getPage(t, u)
		if status != 200 || !strings.Contains(page, strings.Split(linkedNotes[file], "\n\n")[1][:12]) {
			t.Errorf("%q's link: %d %.300s", name, status, page)
		}
	}
	for _, plain := range []string{"Vermitrax", "Phandalin", "Kleb"} {
		if _, ok := got[plain]; ok {
			t.Errorf("the player's markdown links %q:\n%s", plain, a.Markdown)
		}
	}
	if len(a.NoteLinks) != 2 {
		t.Errorf("note_links = %+v, want Harbin's and Ser Morcant's", a.NoteLinks)
	}
	// The names that are not links read alike, and nothing names the
	// DM-only note.
	if !strings.Contains(a.Markdown, " vieron a Vermitrax sobre Phandalin con Kleb.") {
		t.Errorf("the player's markdown does not show the plain names as they were:\n%s", a.Markdown)
	}
	_, data := call(t, ts, "POST", "/api/ask", player, map[string]any{"question": q, "extractive": true})
	for _, leak := range []string{"DM/", "DM%2F", "Vermitrax.md", "archiduque", "dragón"} {
		if strings.Contains(string(data), leak) {
			t.Errorf("the player's answer shows %q: %s", leak, data)
		}
	}

	// The passage page the citation links to, and its whole note's page,
	// link the same names, for the link's role.
	cited := regexp.MustCompile(`\]\((http://[^)\s]*/c/[^)\s]*)\)`).FindStringSubmatch(a.Markdown)
	if cited == nil {
		t.Fatalf("no citation link in %s", a.Markdown)
	}
	status, page := getPage(t, cited[1])
	pageLinks := func(what, page string) {
		t.Helper()
		names := map[string]string{}
		for _, m := range regexp.MustCompile(`<a href="(/n\?[^"]+)">([^<]+)</a>`).FindAllStringSubmatch(page, -1) {
			names[m[2]] = html.UnescapeString(m[1])
		}
		if names["Harbin"] == "" || names["Ser Morcant"] == "" || names["Vermitrax"] != "" || names["Phandalin"] != "" || names["Kleb"] != "" || !strings.Contains(page, " vieron a Vermitrax sobre Phandalin con Kleb.") {
			t.Errorf("%s links %v, want Harbin and Ser Morcant:\n%s", what, names, page)
			return
		}
		if status, note := getPage(t, ts.URL+names["Harbin"]); status != 200 || !strings.Contains(note, "Harbin Wester es el alcalde") {
			t.Errorf("%s's link to Harbin: %d %.300s", what, status, note)
		}
		if strings.Contains(page, "DM%2F") || strings.Contains(page, "dragón") {
			t.Errorf("%s names the DM-only note:\n%s", what, page)
		}
	}
	if status != 200 {
		t.Fatalf("the passage page: %d %s", status, page)
	}
	pageLinks("the passage page", page)
	if m := regexp.MustCompile(`<a href="(/n\?[^"]*Sesion[^"]*)">`).FindStringSubmatch(page); m == nil {
		t.Errorf("no link to the whole note in %s", page)
	} else if status, page := getPage(t, ts.URL+html.UnescapeString(m[1])); status != 200 {
		t.Errorf("the note page: %d", status)
	} else {
		pageLinks("the note page", page)
	}

	body := map[string]any{"model": ModelIDExtractive, "messages": []map[string]any{{"role": "user", "content": q}}}
	resp, data := call(t, ts, "POST", "/v1/chat/completions", player, body)
	wantStatus(t, resp, data, 200)
	c := decodeJSON[completionBody](t, data)
	content := c.Choices[0].Message.Content
	if got := links(content); got["Harbin"] == "" || got["Vermitrax"] != "" {
		t.Errorf("the completion for a player links %v:\n%s", got, content)
	}
	if strings.Contains(content, "Vermitrax.md") || strings.Contains(content, "DM%2F") {
		t.Errorf("the completion names the DM-only note:\n%s", content)
	}

	// Streamed, the content is whole once, its names linked or not.
	body["stream"] = true
	resp, data = call(t, ts, "POST", "/v1/chat/completions", player, body)
	wantStatus(t, resp, data, 200)
	chunks, errs, done := readChunks(t, data)
	if !done || len(errs) > 0 {
		t.Fatalf("stream: %s", data)
	}
	var streamed strings.Builder
	for _, c := range chunks {
		if d := c.Choices[0].Delta; d != nil && d.Content != nil {
			streamed.WriteString(*d.Content)
		}
	}
	if got := noteURL.ReplaceAllString(streamed.String(), "$1"); strings.Count(got, "vieron a Vermitrax") != 1 || links(streamed.String())["Vermitrax"] != "" {
		t.Errorf("the streamed completion for a player:\n%s", streamed.String())
	}

	// The DM sees the DM-only note: its name is a link for them.
	if got := links(ask(dm).Markdown); got["Vermitrax"] == "" || got["Harbin"] == "" || got["Phandalin"] != "" {
		t.Errorf("the DM's markdown links %v", got)
	}
}

// A conversation given back to the OpenAI endpoint reads the names its
// earlier answer linked as the names they were.
func TestStripSourcesUnlinksNotes(t *testing.T) {
	in := "[Harbin](http://h/n?file=NPCs%2FHarbin.md&k=x&r=player) habló [Sesión 3](http://h/c/abc?k=y&r=player).\n\n**Fuentes:**\n1. [Sesión 3](http://h/c/abc)"
	if got, want := stripSources(in), "Harbin habló [Sesión 3]."; got != want {
		t.Errorf("stripSources = %q, want %q", got, want)
	}
}
