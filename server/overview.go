package server

import "net/http"

// overview says what the caller's role sees of the index (notes,
// sessions, when it last changed) and which model answers: what the chat
// page shows before the first question. Every role may ask; a player's
// counts leave DM-only notes out.
func (s *Server) overview(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	o, err := s.eng.Overview(ctx)
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, o)
}
