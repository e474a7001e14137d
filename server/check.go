package server

import (
	"net/http"

	"github.com/oraculo/oraculo/story"
)

// check answers GET /api/check: the notes' contradictions as the asker may
// see them (a player's never read a DM-only note), judged by the server's
// chat model when it has one.
func (s *Server) check(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	res, err := s.eng.Check(ctx)
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	if res.Contradictions == nil {
		res.Contradictions = []story.Contradiction{}
	}
	writeJSON(w, http.StatusOK, res)
}
