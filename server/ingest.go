package server

import (
	"net/http"
	"sync"
	"time"

	"github.com/oraculo/oraculo"
)

// ingestState is the background ingest: one at a time.
type ingestState struct {
	mu       sync.Mutex
	running  bool
	last     *oraculo.IngestReport
	err      string
	started  time.Time
	finished time.Time
	closed   bool // the server is closing: no new ingest
}

// ingestSummary is the body of GET /api/ingest.
type ingestSummary struct {
	Running  bool                  `json:"running"`
	Last     *oraculo.IngestReport `json:"last"`
	Error    string                `json:"error,omitempty"`
	Started  *time.Time            `json:"started,omitempty"`
	Finished *time.Time            `json:"finished,omitempty"`
}

// startIngest re-reads the folders the index was built from, in the
// background: 202 when it starts, 409 when one is running or the index
// names no folder.
func (s *Server) startIngest(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withTimeout(r, requestTimeout)
	defer cancel()
	roots, err := s.eng.Roots(ctx)
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	if len(roots) == 0 {
		writeError(w, r, http.StatusConflict, "the index names no folder to ingest again: run `oraculo ingest DIR` first")
		return
	}
	st := &s.ingest
	st.mu.Lock()
	if st.running {
		st.mu.Unlock()
		writeError(w, r, http.StatusConflict, "an ingest is already running")
		return
	}
	if st.closed {
		st.mu.Unlock()
		writeError(w, r, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	st.running, st.err, st.started, st.finished = true, "", time.Now(), time.Time{}
	s.wg.Add(1)
	st.mu.Unlock()

	id := infoFrom(r.Context()).id
	s.log.Info("ingest started", "request_id", id, "roots", len(roots))
	go func() {
		defer s.wg.Done()
		rep, err := s.eng.Ingest(s.ctx, roots, oraculo.IngestOptions{})
		st.mu.Lock()
		defer st.mu.Unlock()
		st.running, st.finished = false, time.Now()
		if rep != nil {
			st.last = rep
		}
		if err != nil {
			st.err = err.Error()
			s.log.Error("ingest failed", "request_id", id, "err", err)
			return
		}
		s.log.Info("ingest finished", "request_id", id, "files", rep.Files, "indexed", rep.Indexed, "deleted", rep.Deleted, "seconds", time.Duration(rep.Elapsed).Seconds())
	}()
	writeJSON(w, http.StatusAccepted, map[string]string{"status": "started"})
}

// ingestStatus says whether an ingest runs and how the last one went.
// DM only: a report names every file, DM-only ones included.
func (s *Server) ingestStatus(w http.ResponseWriter, r *http.Request) {
	st := &s.ingest
	st.mu.Lock()
	out := ingestSummary{Running: st.running, Last: st.last, Error: st.err}
	if !st.started.IsZero() {
		t := st.started
		out.Started = &t
	}
	if !st.finished.IsZero() {
		t := st.finished
		out.Finished = &t
	}
	st.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}
