package server

import (
	"context"
	"crypto/rand"
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
)

// Citations that leave the server (the OpenAI endpoint's text) are links
// to a page of the cited passage, /c/{id}, rendered here: its text is in
// the HTML itself, so it opens in any browser, chat front end or link
// preview, without JavaScript, with the cited sentence marked. A browser
// following a link sends no token, so a link carries its own: the role it
// was made for and an HMAC of it with the passage's id, under the server's
// link key. It opens that passage for that role and nothing else; a
// request with a valid token reads as its token's role instead. A player's
// link to a DM-only passage finds nothing, as the API does.

// newLinkKey returns the key links are signed with: the configured one, or
// one drawn for this process (links then last as long as it).
func newLinkKey(configured []byte) []byte {
	if len(configured) > 0 {
		return configured
	}
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}

// baseURL is the address the request came to: where links point unless
// --public-url says otherwise (the link.Maker's Base, which wins).
func (s *Server) baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// linkCtx is r's context with the base its links point to.
func (s *Server) linkCtx(r *http.Request) context.Context {
	return link.WithBase(r.Context(), s.baseURL(r))
}

// linkContext is the context a /c or /n request reads in: its token's
// role, or the role of a validly signed link; false when it has neither.
func (s *Server) linkContext(r *http.Request, kind, subject string) (context.Context, bool) {
	if infoFrom(r.Context()).authed {
		return r.Context(), true
	}
	q := r.URL.Query()
	role := q.Get("r")
	if !s.links.Valid(kind, role, subject, q.Get("k")) {
		return nil, false
	}
	return oraculo.WithRole(r.Context(), role), true
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<meta property="og:title" content="{{.Title}}">
<meta property="og:description" content="{{.Description}}">
<style>
body{font:17px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}
header p{color:#666;margin:.2rem 0} mark{background:#ffe58a;padding:0 .1rem} .p{margin:1rem 0}
a{color:#1a5fb4}
</style></head><body>
<header><h1>{{.Title}}</h1>{{range .Meta}}<p>{{.}}</p>{{end}}</header>
<main>{{range .Paragraphs}}<div class="p">{{range .}}{{if .Mark}}<mark id="cited">{{template "pieces" .}}</mark> {{else}}{{template "pieces" .}} {{end}}{{end}}</div>{{end}}</main>
{{if .NoteURL}}<p><a href="{{.NoteURL}}">{{.NoteLink}}</a></p>{{end}}
{{if .ObsidianURL}}<p><a href="{{.ObsidianURL}}">Abrir en Obsidian · open in Obsidian</a></p>{{end}}
</body></html>
{{define "pieces"}}{{if .Pieces}}{{range .Pieces}}{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}{{else}}{{.Text}}{{end}}{{end}}`))

type pageSentence struct {
	Text string
	Mark bool
	// Pieces, when set, are Text cut where it links to notes.
	Pieces []pagePiece
}

// pagePiece is a piece of a sentence: a name linked to its note's page
// (Href), or plain text.
type pagePiece struct {
	Text, Href string
}

type pageData struct {
	Lang, Title, Description string
	Meta                     []string
	Paragraphs               [][]pageSentence
	NoteURL, NoteLink        string
	ObsidianURL              template.URL // obsidian://, which html/template would not let through
}

// passagePage serves /c/{id}: the passage, its cited sentence marked.
func (s *Server) passagePage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ctx, ok := s.linkContext(r, "c", id)
	if !ok {
		s.pageError(w, http.StatusUnauthorized, "This link is not valid (or was made by another server): open the passage from Oráculo.")
		return
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	c, err := s.eng.Chunk(ctx, id)
	if err != nil {
		s.pageFailed(w, r, err)
		return
	}
	text, hrefs := s.pageText(ctx, c.Text)
	paras := linkPieces(sentencesOf(text, r.URL.Query().Get("q")), hrefs)
	data := pageData{Lang: "es", Title: c.Label, Description: link.Render(c.FirstLine), Meta: []string{c.File}, Paragraphs: paras}
	if len(c.Headings) > 0 {
		data.Meta = append(data.Meta, link.Render(strings.Join(c.Headings, " › ")))
	}
	role := oraculo.RoleFrom(ctx) // the token's, or the link's
	data.NoteURL, data.NoteLink = s.links.NotePath(role, c.File), "La nota entera · the whole note"
	data.ObsidianURL = template.URL(s.links.Obsidian(c.File))
	s.renderPage(w, data)
}

// notePage serves /n?file=: every passage of a note.
func (s *Server) notePage(w http.ResponseWriter, r *http.Request) {
	file := r.URL.Query().Get("file")
	ctx, ok := s.linkContext(r, "n", file)
	if !ok || file == "" {
		s.pageError(w, http.StatusUnauthorized, "This link is not valid (or was made by another server): open the note from Oráculo.")
		return
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	n, err := s.eng.Note(ctx, file)
	if err != nil {
		s.pageFailed(w, r, err)
		return
	}
	data := pageData{Lang: "es", Title: n.Title, Description: file, Meta: []string{file}, ObsidianURL: template.URL(s.links.Obsidian(file))}
	for _, c := range n.Chunks {
		text, hrefs := s.pageText(ctx, c.Text)
		data.Paragraphs = append(data.Paragraphs, linkPieces(sentencesOf(text, ""), hrefs)...)
	}
	s.renderPage(w, data)
}

// Marks around the shown text of a wikilink that links to a note, while
// a page's text is cut into sentences (see [Server.pageText]).
const (
	linkOpen  = "\uE001"
	linkClose = "\uE002"
)

// pageText renders md for a page (see [link.Render]), the shown text
// of each wikilink that names one note the reader (the role in ctx) may
// see between linkOpen and linkClose, and returns the paths of the pages
// of those notes, in order. Any other wikilink is its shown text alone,
// as a note that does not exist.
func (s *Server) pageText(ctx context.Context, md string) (string, []string) {
	var hrefs []string
	role := oraculo.RoleFrom(ctx)
	text := link.RenderResolved(ctx, md, s.eng.ResolveNote, func(shown, file string) string {
		if strings.ContainsAny(shown, linkOpen+linkClose) {
			return shown
		}
		hrefs = append(hrefs, s.links.NotePath(role, file))
		return linkOpen + shown + linkClose
	})
	return text, hrefs
}

// linkPieces cuts the sentences of paras at the marks of
// [Server.pageText] into pieces, the n-th linked text with hrefs[n], and
// returns paras.
func linkPieces(paras [][]pageSentence, hrefs []string) [][]pageSentence {
	n, open := 0, false
	for _, p := range paras {
		for i := range p {
			rest := p[i].Text
			if !strings.ContainsAny(rest, linkOpen+linkClose) && !open {
				continue
			}
			var plain strings.Builder
			for rest != "" {
				k := strings.IndexAny(rest, linkOpen+linkClose)
				piece := rest
				if k >= 0 {
					piece = rest[:k]
				}
				if piece != "" {
					pc := pagePiece{Text: piece}
					if open && n < len(hrefs) {
						pc.Href = hrefs[n]
					}
					p[i].Pieces = append(p[i].Pieces, pc)
					plain.WriteString(piece)
				}
				if k < 0 {
					break
				}
				if strings.HasPrefix(rest[k:], linkOpen) {
					open, rest = true, rest[k+len(linkOpen):]
				} else {
					open, n, rest = false, n+1, rest[k+len(linkClose):]
				}
			}
			p[i].Text = plain.String()
		}
	}
	return paras
}

func (s *Server) renderPage(w http.ResponseWriter, data pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("Referrer-Policy", "no-referrer") // the link's key stays here
	if err := pageTemplate.Execute(w, data); err != nil {
		s.log.Error("rendering a page", "err", err)
	}
}

func (s *Server) pageError(w http.ResponseWriter, status int, msg string) {
	w.WriteHeader(status)
	s.renderPage(w, pageData{Lang: "es", Title: http.StatusText(status), Paragraphs: [][]pageSentence{{{Text: msg}}}})
}

func (s *Server) pageFailed(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, oraculo.ErrNoChunk) || errors.Is(err, oraculo.ErrNoNote) {
		s.pageError(w, http.StatusNotFound, "No such passage, or not one you may read.")
		return
	}
	s.log.Error("a page failed", "path", r.URL.Path, "err", err)
	s.pageError(w, http.StatusInternalServerError, "Something failed on the server.")
}

// sentencesOf cuts text into paragraphs of sentences, marking the one
// the claim rests on ([link.Cited]; none when claim is empty or shares
// nothing).
func sentencesOf(text, claim string) (paras [][]pageSentence) {
	sents := link.Sentences(text)
	marked := link.Cited(sents, []string{claim})
	for i, s := range sents {
		if s.Para == len(paras) {
			paras = append(paras, nil)
		}
		paras[s.Para] = append(paras[s.Para], pageSentence{Text: s.Text, Mark: marked[i]})
	}
	return paras
}

// noteLinks returns the names in a's text that link to notes the caller
// may see (see [oraculo.Engine.NoteLinks]): none when they cannot be
// read, which costs only the links.
func (s *Server) noteLinks(r *http.Request, a *oraculo.Answer) []oraculo.NoteLink {
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	notes, err := s.eng.NoteLinks(ctx, a)
	if err != nil {
		s.log.Warn("reading the links of an answer to its notes", "err", err)
		return nil
	}
	return notes
}

// noteLinkURL is a name of an answer linked to its note: the page of the
// note, signed for the caller's role.
type noteLinkURL struct {
	oraculo.NoteLink
	URL string `json:"url"`
}

// answerSource is one source an answer cites, as its Markdown lists it:
// numbered in the order of its first citation, with the page of its
// passage (or of the note an entry of memory came from), or none.
type answerSource struct {
	Index int `json:"index"`
	oraculo.Evidence
	URL string `json:"url"`
}

// askReply is what POST /api/ask answers: the Answer (the shape of `ask
// --json`), its Markdown (its text with citations and names of notes as
// links, and its sources), the sources that Markdown lists, and the names
// of notes its text links, each with its link, for a page that renders
// the answer itself.
type askReply struct {
	*oraculo.Answer
	Markdown  string         `json:"markdown"`
	Sources   []answerSource `json:"sources"`
	NoteLinks []noteLinkURL  `json:"note_links"`
}

// askReply is a as POST /api/ask answers it.
func (s *Server) askReply(r *http.Request, a *oraculo.Answer) askReply {
	ctx := s.linkCtx(r)
	notes := s.noteLinks(r, a)
	sources := s.links.Sources(ctx, a)
	out := askReply{Answer: a, Markdown: s.links.AnswerNotes(ctx, a, sources, notes), Sources: []answerSource{}, NoteLinks: []noteLinkURL{}}
	for _, src := range sources {
		out.Sources = append(out.Sources, answerSource{Index: src.Index, Evidence: src.Evidence, URL: src.URL})
	}
	for _, n := range notes {
		out.NoteLinks = append(out.NoteLinks, noteLinkURL{NoteLink: n, URL: s.links.Note(ctx, n.File)})
	}
	return out
}

// wikilinkURLs maps the target of each wikilink of texts that names one
// note the caller may see to the page of that note, signed for the
// caller's role: what a page that renders the texts links. A target that
// names no such note is left out, whatever the reason.
func (s *Server) wikilinkURLs(r *http.Request, texts ...string) map[string]string {
	ctx := s.linkCtx(r)
	files, err := link.WikilinkFiles(ctx, s.eng.ResolveNote, texts...)
	if err != nil {
		s.log.Warn("resolving the wikilinks of a passage", "err", err)
		return map[string]string{}
	}
	out := make(map[string]string, len(files))
	for target, file := range files {
		out[target] = s.links.Note(ctx, file)
	}
	return out
}
