package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/oraculo/oraculo/story"
)

// timeline answers GET /api/timeline?name=: the timeline of the entity
// whose name or an alias is name, as the caller may see it (a player's
// from the notes players may see); 400 without a name, 404 when no entity
// of the caller's compendium has it (the error offers the nearest names,
// if any).
func (s *Server) timeline(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.URL.Query().Get("name"))
	if name == "" {
		writeError(w, r, http.StatusBadRequest, "name is required: GET /api/timeline?name=NAME")
		return
	}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	t, err := s.eng.Timeline(ctx, name)
	var unknown *story.UnknownEntityError
	if errors.As(err, &unknown) {
		msg := err.Error()
		if len(unknown.Near) > 0 {
			msg += "; did you mean " + strings.Join(unknown.Near, ", ") + "?"
		}
		writeError(w, r, http.StatusNotFound, msg)
		return
	}
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}
