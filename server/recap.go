package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/oraculo/oraculo/story"
)

// recap answers GET /api/recap?session=N: the recap of session N, of the
// last session the caller may see without one; 404 for a session the
// caller's notes do not hold.
func (s *Server) recap(w http.ResponseWriter, r *http.Request) {
	n, ok := positiveParam(w, r, "session", 0)
	if !ok {
		return
	}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	rc, err := s.eng.Recap(ctx, n)
	if errors.Is(err, story.ErrNoSession) {
		writeError(w, r, http.StatusNotFound, "no such session")
		return
	}
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rc)
}

// threads answers GET /api/threads?quiet=N: the threads the caller's
// notes left open, entities quiet for the last N sessions (default 5).
func (s *Server) threads(w http.ResponseWriter, r *http.Request) {
	quiet, ok := positiveParam(w, r, "quiet", story.DefaultQuiet)
	if !ok {
		return
	}
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	th, err := s.eng.Threads(ctx, quiet)
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, th)
}

// positiveParam reads a query parameter that must be a whole number of 1
// or more, def when absent; a bad one answers 400 and false.
func positiveParam(w http.ResponseWriter, r *http.Request, name string, def int) (int, bool) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		writeError(w, r, http.StatusBadRequest, name+" must be a whole number of 1 or more")
		return 0, false
	}
	return n, true
}
