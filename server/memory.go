package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/oraculo/oraculo"
)

// The long-term memory API (/api/memory): every handler calls the engine
// with the request's context, whose role and player name (identify) decide
// what the caller may see and change; the server adds no rules of its own.

// memoryRequest is the body of POST /api/memory.
type memoryRequest struct {
	Scope string `json:"scope"`
	Key   string `json:"key"`
	Value string `json:"value"`
	// Note is the path of a note in the index (a hit's "file"); empty:
	// stated by the caller today.
	Note string `json:"note"`
	// Chunk is the id of the chunk it comes from (a hit's or a
	// citation's "id"): its note is the source.
	Chunk    string `json:"chunk"`
	Verified bool   `json:"verified"`
}

// supersedeRequest is the body of POST /api/memory/{id}/supersede.
type supersedeRequest struct {
	Value    string `json:"value"`
	Note     string `json:"note"`
	Chunk    string `json:"chunk"`
	Verified bool   `json:"verified"`
}

// memories answers GET /api/memory?scope=S&all=1: {"entries": [...]}, the
// entries of scope (every scope when none) the caller may see, only the
// active ones unless all.
func (s *Server) memories(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	all := false
	if v := q.Get("all"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			writeError(w, r, http.StatusBadRequest, `the "all" parameter must be 1 or 0 (true or false)`)
			return
		}
		all = b
	}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	entries, err := s.eng.Memories(ctx, q.Get("scope"), all)
	if err != nil {
		s.memoryError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"entries": entries})
}

// memoryChain answers GET /api/memory/{id}: {"chain": [...]}, the entry
// and those it replaced, newest first.
func (s *Server) memoryChain(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	chain, err := s.eng.MemoryChain(ctx, r.PathValue("id"))
	if err != nil {
		s.memoryError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"chain": chain})
}

// addMemory answers POST /api/memory with the new entry (201).
func (s *Server) addMemory(w http.ResponseWriter, r *http.Request) {
	var req memoryRequest
	if !decode(w, r, &req, true) {
		return
	}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	m, err := s.eng.AddMemory(ctx, oraculo.MemoryInput{Scope: req.Scope, Key: req.Key, Value: req.Value, Note: req.Note, Chunk: req.Chunk, Verified: req.Verified, Author: infoFrom(r.Context()).user})
	if err != nil {
		s.memoryError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, m)
}

// verifyMemory answers POST /api/memory/{id}/verify with the entry, now
// verified (the DM only).
func (s *Server) verifyMemory(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	m, err := s.eng.VerifyMemory(ctx, r.PathValue("id"))
	if err != nil {
		s.memoryError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// supersedeMemory answers POST /api/memory/{id}/supersede with the new
// entry (201), which replaces id.
func (s *Server) supersedeMemory(w http.ResponseWriter, r *http.Request) {
	var req supersedeRequest
	if !decode(w, r, &req, true) {
		return
	}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	m, err := s.eng.SupersedeMemory(ctx, r.PathValue("id"), oraculo.MemoryInput{Value: req.Value, Note: req.Note, Chunk: req.Chunk, Verified: req.Verified, Author: infoFrom(r.Context()).user})
	if err != nil {
		s.memoryError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, m)
}

// forgetMemory answers DELETE /api/memory/{id}: {"forgotten": id}.
func (s *Server) forgetMemory(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	if err := s.eng.ForgetMemory(ctx, id); err != nil {
		s.memoryError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"forgotten": id})
}

// intentRequest is the body of POST /api/memory/intent.
type intentRequest struct {
	Text string `json:"text"`
}

// memoryProposal is the entry a "remember" line proposes: nothing is
// saved until the caller posts it to /api/memory.
type memoryProposal struct {
	Scope string `json:"scope"`
	Key   string `json:"key"`
	Value string `json:"value"`
}

// intentResponse is the answer of POST /api/memory/intent.
type intentResponse struct {
	// Intent is "remember", "forget" or "" (a question like any other).
	Intent string `json:"intent"`
	// Proposal is a remember line's entry, in the caller's own scope.
	Proposal *memoryProposal `json:"proposal,omitempty"`
	// Candidates are a forget line's matches the caller may forget:
	// always an array for a forget line (nil, left out, for the others).
	Candidates []oraculo.Memory `json:"candidates,omitzero"`
	// Error says why a remember line proposes nothing.
	Error string `json:"error,omitempty"`
}

// noOwnScope is why a player without a name may not remember anything.
const noOwnScope = "a player without a name has no memory of their own: sign in with a token of your own to remember something"

// memoryIntent answers POST /api/memory/intent: what a chat line asks of
// memory, saving nothing. A "remember" line gets a proposal in the
// caller's own scope (the campaign for the DM, player:NAME for a named
// player; an error for a player without a name), a "forget" line the
// active entries matching it that the caller may forget (at most 9), and
// any other line {"intent": ""}.
func (s *Server) memoryIntent(w http.ResponseWriter, r *http.Request) {
	var req intentRequest
	if !decode(w, r, &req, true) {
		return
	}
	intent, text := oraculo.MemoryIntent(req.Text)
	out := intentResponse{Intent: intent}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	switch intent {
	case oraculo.IntentRemember:
		scope, ok := oraculo.RememberScope(ctx)
		if !ok {
			out.Error = noOwnScope
			break
		}
		key, value := oraculo.MemoryKey(text)
		out.Proposal = &memoryProposal{Scope: scope, Key: key, Value: value}
	case oraculo.IntentForget:
		found, err := s.eng.Forgettable(ctx, text)
		if err != nil {
			s.memoryError(w, r, err)
			return
		}
		out.Candidates = found
	}
	writeJSON(w, http.StatusOK, out)
}

// memoryError answers a memory operation's failure. The caller's mistakes
// (403, 400, 409) say what is wrong: they are about the entries the caller
// may see, or the request itself. An entry the caller may not see is the
// plain "not found" of a missing one, so that no id tells what exists.
// Anything else is [Server.engineError]'s.
func (s *Server) memoryError(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, oraculo.ErrNoMemory):
		writeError(w, r, http.StatusNotFound, "not found")
	case errors.Is(err, oraculo.ErrMemoryForbidden):
		writeError(w, r, http.StatusForbidden, err.Error())
	case errors.Is(err, oraculo.ErrInvalidMemory):
		writeError(w, r, http.StatusBadRequest, err.Error())
	case errors.Is(err, oraculo.ErrMemoryConflict):
		writeError(w, r, http.StatusConflict, err.Error())
	default:
		s.engineError(w, r, err)
	}
}
