package server

import (
	"net/http"
	"strings"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
)

// maxK bounds how many hits a search may ask for.
const maxK = 200

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	info := infoFrom(r.Context())
	writeJSON(w, http.StatusOK, map[string]any{
		"status":  "ok",
		"version": s.cfg.Version,
		"auth":    s.cfg.Tokens != nil,
		"role":    info.role,
		"watch":   s.watchStatus(info.authed && info.role == oraculo.RoleDM),
	})
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	st, err := s.eng.Stats(ctx)
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// searchRequest is the body of POST /api/search.
type searchRequest struct {
	Question string   `json:"question"`
	K        int      `json:"k"`
	Paths    []string `json:"paths"`
	// Filters restricts the search before ranking (sessions, folders,
	// tags), as search --session/--folder/--tag do.
	Filters oraculo.Filter `json:"filters"`
}

// searchResponse has the shape of `oraculo search --json`.
type searchResponse struct {
	Question string                `json:"question"`
	Hits     []oraculo.Hit         `json:"hits"`
	Analysis oraculo.QueryAnalysis `json:"analysis"`
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	var req searchRequest
	if !decode(w, r, &req, true) {
		return
	}
	req.Question = strings.TrimSpace(req.Question)
	switch {
	case req.Question == "":
		writeError(w, r, http.StatusBadRequest, `"question" is required`)
		return
	case req.K < 0 || req.K > maxK:
		writeError(w, r, http.StatusBadRequest, `"k" must be between 1 and 200`)
		return
	}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	var an oraculo.QueryAnalysis
	hits, err := s.eng.Search(ctx, req.Question, oraculo.SearchOptions{K: req.K, Paths: req.Paths, Filter: req.Filters, Analysis: &an})
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	if hits == nil {
		hits = []oraculo.Hit{}
	}
	writeJSON(w, http.StatusOK, searchResponse{Question: req.Question, Hits: hits, Analysis: an})
}

// askRequest is the body of POST /api/ask.
type askRequest struct {
	Question   string         `json:"question"`
	History    []oraculo.Turn `json:"history"`
	Lang       string         `json:"lang"`
	Extractive bool           `json:"extractive"`
	Stream     bool           `json:"stream"`
	Filters    oraculo.Filter `json:"filters"`
}

// ask answers a question: the Answer as JSON (the shape of `ask --json`),
// or, when streamed, server-sent events: "delta" events with the verified
// text as it grows ({"text": ...}), a sentence at a time once its
// citations are checked, unsupported sentences marked (see
// oraculo.AskOptions.OnVerified), then one "answer" event with the
// verified Answer, or one "error" event ({"error": ...}). A "thinking"
// event ({}) says that the model has started reasoning, which may take a
// while: until the next delta, clients can say so. The reasoning itself is
// never sent, nor the raw generation. The deltas join to the answer's
// text, unless the chat model failed midway and the answer was extracted
// from the notes: clients show the answer event's text in the end.
func (s *Server) ask(w http.ResponseWriter, r *http.Request) {
	var req askRequest
	if !decode(w, r, &req, true) {
		return
	}
	req.Question = strings.TrimSpace(req.Question)
	switch {
	case req.Question == "":
		writeError(w, r, http.StatusBadRequest, `"question" is required`)
		return
	case req.Lang != "" && req.Lang != "es" && req.Lang != "en":
		writeError(w, r, http.StatusBadRequest, `"lang" must be "es" or "en"`)
		return
	}
	opts := oraculo.AskOptions{History: req.History, Lang: req.Lang, Extractive: req.Extractive, Filter: req.Filters}
	ctx, cancel := withTimeout(r, s.cfg.AskTimeout)
	defer cancel()
	if !req.Stream && !acceptsEventStream(r) {
		a, err := s.eng.Ask(ctx, req.Question, opts)
		if err != nil {
			s.engineError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, s.askReply(r, a))
		return
	}
	st := startStream(w)
	// The deltas are the verified text as it grows (see
	// oraculo.AskOptions.OnVerified); sent is what the client has.
	sent := ""
	delta := func(text string) {
		if rest, ok := strings.CutPrefix(text, sent); ok && rest != "" {
			st.event("delta", map[string]string{"text": rest})
			sent = text
		}
	}
	a, err := s.runAsk(ctx, req.Question, opts, relay{
		verified: func(segs []oraculo.Segment) { delta(oraculo.SegmentsText(segs)) },
		thinking: func() { st.event("thinking", struct{}{}) },
		ping:     func() { st.comment("ping") },
	})
	if err != nil {
		st.event("error", map[string]string{"error": s.streamError(r, err)})
		return
	}
	if sent != "" {
		delta(a.Answer)
	}
	st.event("answer", s.askReply(r, a))
}

// acceptsEventStream reports whether the client asked for server-sent
// events in its Accept header.
func acceptsEventStream(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(mt), "text/event-stream") {
				return true
			}
		}
	}
	return false
}

func (s *Server) chunk(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	c, err := s.eng.Chunk(ctx, r.PathValue("id"))
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	links := s.wikilinkURLs(r, c.Text)
	claim := r.URL.Query().Get("claim")
	if claim == "" {
		writeJSON(w, http.StatusOK, linkedChunk{ChunkInfo: c, NoteLinks: links})
		return
	}
	writeJSON(w, http.StatusOK, citedChunk{linkedChunk: linkedChunk{ChunkInfo: c, NoteLinks: links}, Cited: citedSentence(c.Text, claim)})
}

// linkedChunk is a chunk with the links of its wikilinks: NoteLinks
// maps the target of each wikilink that names one note the caller may
// see (as written, without "#heading" or shown text: "NPCs/Harbin") to
// the page of that note.
type linkedChunk struct {
	oraculo.ChunkInfo
	NoteLinks map[string]string `json:"note_links"`
}

// citedChunk is a chunk asked for with ?claim=: Cited is its sentence
// that best supports the claim (the text before a citation), as the
// passage page marks it; "" when none shares a word with it.
type citedChunk struct {
	linkedChunk
	Cited string `json:"cited"`
}

// citedSentence is the sentence of text that /c/{id} would mark for the
// claim: the one sharing most words with the claim's last sentence.
func citedSentence(text, claim string) string {
	for _, p := range sentencesOf(text, link.LastSentence(claim)) {
		for _, s := range p {
			if s.Mark {
				return s.Text
			}
		}
	}
	return ""
}

func (s *Server) note(w http.ResponseWriter, r *http.Request) {
	file := r.URL.Query().Get("file")
	if strings.TrimSpace(file) == "" {
		writeError(w, r, http.StatusBadRequest, `the "file" parameter is required`)
		return
	}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	n, err := s.eng.Note(ctx, file)
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	texts := make([]string, len(n.Chunks))
	for i, c := range n.Chunks {
		texts[i] = c.Text
	}
	writeJSON(w, http.StatusOK, linkedNote{NoteInfo: n, NoteLinks: s.wikilinkURLs(r, texts...)})
}

// linkedNote is a note with the links of its wikilinks (see
// [linkedChunk]).
type linkedNote struct {
	oraculo.NoteInfo
	NoteLinks map[string]string `json:"note_links"`
}

func (s *Server) compendium(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	all, err := s.eng.Compendium(ctx)
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	if all == nil {
		all = []oraculo.CompendiumEntry{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"entities": all})
}

func (s *Server) entity(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.PathValue("name"))
	if name == "" {
		writeError(w, r, http.StatusNotFound, "not found")
		return
	}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	en, found, err := s.eng.FindEntity(ctx, name)
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	if !found {
		writeError(w, r, http.StatusNotFound, "not found")
		return
	}
	writeJSON(w, http.StatusOK, en)
}
