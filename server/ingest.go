package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/oraculo/oraculo"
)

// An ingest without progress for ingestStall is reported as stalled; one
// cancelled (its deadline passed, or the server is closing) has
// ingestStopGrace to return before the server stops waiting for it, so
// that a read that ignores cancellation cannot hold the server's shutdown.
var (
	ingestStall     = 30 * time.Second
	ingestStopGrace = 10 * time.Second
)

// errIngestDeadline is the cause of an ingest's cancellation at its
// deadline.
var errIngestDeadline = errors.New("ingest deadline passed")

// ingestState is the background ingest: one at a time.
type ingestState struct {
	mu       sync.Mutex
	run      int // counts ingests, so that a late report of an old one is ignored
	running  bool
	last     *oraculo.IngestReport
	err      string
	started  time.Time
	finished time.Time
	deadline time.Time
	closed   bool // the server is closing: no new ingest
	// abandoned: a cancelled ingest did not return within ingestStopGrace;
	// no new one starts until it does.
	abandoned bool

	// Progress, as the engine reports it after each file: the latest
	// report, when it came, and the last file the read stage finished
	// (the next one is the file in progress, which the engine does not
	// name).
	progress   oraculo.Progress
	progressAt time.Time
	lastFile   string
	lastRoot   string
}

// ingestSummary is the body of GET /api/ingest.
type ingestSummary struct {
	Running  bool                  `json:"running"`
	Last     *oraculo.IngestReport `json:"last"`
	Error    string                `json:"error,omitempty"`
	Started  *time.Time            `json:"started,omitempty"`
	Finished *time.Time            `json:"finished,omitempty"`
	// Deadline is when the ingest is (or was to be) cancelled.
	Deadline *time.Time      `json:"deadline,omitempty"`
	Progress *ingestProgress `json:"progress,omitempty"`
	// Status says in words how the ingest goes: "no progress for 95 s
	// after \"notes/x.md\" (read 12/40)" when it seems stuck.
	Status string `json:"status,omitempty"`
}

// ingestProgress is the last progress an ingest reported.
type ingestProgress struct {
	// Stage is the engine's: "read", "embed", "graph" or "annotate"; ""
	// before the first report.
	Stage string `json:"stage"`
	Root  string `json:"root,omitempty"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Bytes int64  `json:"bytes,omitempty"`
	// LastFile is the last file read, relative to LastRoot; the file
	// being read now is the one after it.
	LastFile string `json:"last_file,omitempty"`
	LastRoot string `json:"last_root,omitempty"`
	// At is when the last report came (the start before any);
	// IdleSeconds how long ago, or, once the ingest is over, how long
	// before its end.
	At          time.Time `json:"at"`
	IdleSeconds float64   `json:"idle_seconds"`
}

// runIngest is the engine's Ingest, unless a test stands in for it.
func (s *Server) runIngest(ctx context.Context, roots []string, opts oraculo.IngestOptions) (*oraculo.IngestReport, error) {
	if s.ingestFunc != nil {
		return s.ingestFunc(ctx, roots, opts)
	}
	return s.eng.Ingest(ctx, roots, opts)
}

// startIngest re-reads the folders the index was built from, in the
// background, within IngestTimeout: 202 when it starts, 409 when one is
// running, the index names no folder or cannot be written.
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
	if err := s.eng.ReadOnly(); err != nil {
		s.engineError(w, r, err)
		return
	}
	run, err := s.claimIngest()
	switch {
	case errors.Is(err, errServerClosing):
		writeError(w, r, http.StatusServiceUnavailable, err.Error())
		return
	case err != nil:
		writeError(w, r, http.StatusConflict, err.Error())
		return
	}

	id := infoFrom(r.Context()).id
	s.log.Info("ingest started", "request_id", id, "roots", len(roots), "timeout_seconds", s.cfg.IngestTimeout.Seconds())
	go func() {
		defer s.wg.Done()
		s.ingestInBackground(id, run, roots)
	}()
	writeJSON(w, http.StatusAccepted, map[string]string{"status": "started"})
}

// Why an ingest cannot start now.
var (
	errIngestRunning   = errors.New("an ingest is already running")
	errServerClosing   = errors.New("the server is shutting down")
	errIngestAbandoned = errors.New("the last ingest was cancelled but has not stopped yet (see GET /api/ingest)")
)

// claimIngest makes the next ingest the one running and returns its
// number; the caller runs it with ingestInBackground and s.wg.Done.
func (s *Server) claimIngest() (int, error) {
	st := &s.ingest
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.running:
		return 0, errIngestRunning
	case st.closed:
		return 0, errServerClosing
	case st.abandoned:
		return 0, errIngestAbandoned
	}
	now := time.Now()
	st.run++
	st.running, st.err, st.started, st.finished = true, "", now, time.Time{}
	st.deadline = now.Add(s.cfg.IngestTimeout)
	st.progress, st.progressAt, st.lastFile, st.lastRoot = oraculo.Progress{}, now, "", ""
	s.wg.Add(1)
	return st.run, nil
}

// ingestInBackground runs ingest number run to its end, its deadline, or
// the server's Close, and records how it went. It returns at most
// ingestStopGrace after the ingest is cancelled, whether the ingest has
// returned or not.
func (s *Server) ingestInBackground(id string, run int, roots []string) {
	st := &s.ingest
	ctx, cancel := context.WithTimeoutCause(s.ctx, s.cfg.IngestTimeout, errIngestDeadline)
	defer cancel()
	opts := oraculo.IngestOptions{FollowLinksOutside: s.cfg.FollowLinksOutside, PrivateFiles: s.cfg.PrivateFiles, Progress: func(p oraculo.Progress) {
		st.mu.Lock()
		defer st.mu.Unlock()
		// Reports after the cancellation (files read before it) would hide
		// where the ingest was when it was cancelled.
		if st.run != run || ctx.Err() != nil {
			return
		}
		st.progress, st.progressAt = p, time.Now()
		if p.Stage == "read" && p.Path != "" {
			st.lastFile, st.lastRoot = p.Path, p.Root
		}
	}}
	opts.IncludeTemplates, opts.IncludeExcluded = s.cfg.IncludeTemplates, s.cfg.IncludeExcluded
	type result struct {
		rep *oraculo.IngestReport
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- result{err: fmt.Errorf("panic in the ingest: %v", v)}
			}
		}()
		rep, err := s.runIngest(ctx, roots, opts)
		done <- result{rep, err}
	}()

	var res result
	cancelled := "" // where the ingest was when cancelled
	select {
	case res = <-done:
	case <-ctx.Done():
		st.mu.Lock()
		cancelled = s.cancelledMessage(ctx, time.Now())
		st.mu.Unlock()
		select {
		case res = <-done:
		case <-time.After(ingestStopGrace):
			// The ingest ignores its cancellation (a read that never
			// returns): record it as stopped, and keep new ingests out
			// until it does return.
			msg := fmt.Sprintf("%s; it did not stop within %s of being cancelled", cancelled, ingestStopGrace)
			st.mu.Lock()
			st.running, st.finished, st.abandoned, st.err = false, time.Now(), true, msg
			st.mu.Unlock()
			s.log.Error("ingest cancelled but not stopped", "request_id", id, "err", msg)
			go func() {
				<-done
				st.mu.Lock()
				st.abandoned = false
				st.mu.Unlock()
				s.log.Info("the cancelled ingest has stopped", "request_id", id)
			}()
			return
		}
	}

	st.mu.Lock()
	defer st.mu.Unlock()
	end := time.Now()
	st.running, st.finished = false, end
	if res.rep != nil {
		st.last = res.rep
	}
	if res.err != nil {
		if cancelled == "" && ctx.Err() != nil {
			cancelled = s.cancelledMessage(ctx, end)
		}
		if cancelled != "" {
			st.err = fmt.Sprintf("%s: %v", cancelled, res.err)
		} else {
			st.err = res.err.Error()
		}
		s.log.Error("ingest failed", "request_id", id, "err", st.err)
		return
	}
	rep := res.rep
	s.log.Info("ingest finished", "request_id", id, "files", rep.Files, "indexed", rep.Indexed, "deleted", rep.Deleted, "seconds", time.Duration(rep.Elapsed).Seconds())
}

// cancelledMessage says why a cancelled ingest stopped, how long it ran
// and where it was. st.mu must be held.
func (s *Server) cancelledMessage(ctx context.Context, now time.Time) string {
	st := &s.ingest
	why := "ingest cancelled: the server is closing"
	if errors.Is(context.Cause(ctx), errIngestDeadline) {
		why = fmt.Sprintf("ingest stopped at its deadline (%s)", s.cfg.IngestTimeout)
	}
	return fmt.Sprintf("%s after running %s; %s", why, now.Sub(st.started).Round(time.Millisecond), st.where(now))
}

// where says where the ingest is, or was at now: the last file it read or
// its stage, and how long since its last progress. st.mu must be held.
func (st *ingestState) where(now time.Time) string {
	idle := now.Sub(st.progressAt).Seconds()
	p := st.progress
	switch {
	case p.Stage == "":
		return fmt.Sprintf("no progress for %.0f s since the start", idle)
	case p.Stage == "read" && st.lastFile != "":
		return fmt.Sprintf("no progress for %.0f s after %q (read %d/%d)", idle, st.lastFile, p.Done, p.Total)
	default:
		return fmt.Sprintf("no progress for %.0f s in stage %s (%d/%d)", idle, p.Stage, p.Done, p.Total)
	}
}

// ingestStatus says whether an ingest runs, how far it is, and how the
// last one went. DM only: a report names every file, DM-only ones
// included.
func (s *Server) ingestStatus(w http.ResponseWriter, r *http.Request) {
	st := &s.ingest
	st.mu.Lock()
	out := ingestSummary{Running: st.running, Last: st.last, Error: st.err}
	if !st.started.IsZero() {
		now := time.Now()
		if !st.running {
			now = st.finished
		}
		started, deadline := st.started, st.deadline
		out.Started, out.Deadline = &started, &deadline
		p := st.progress
		out.Progress = &ingestProgress{Stage: p.Stage, Root: p.Root, Done: p.Done, Total: p.Total, Bytes: p.Bytes,
			LastFile: st.lastFile, LastRoot: st.lastRoot, At: st.progressAt, IdleSeconds: now.Sub(st.progressAt).Seconds()}
		out.Status = st.status(now)
	}
	if !st.finished.IsZero() {
		t := st.finished
		out.Finished = &t
	}
	st.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// status says in words how the ingest goes or went. st.mu must be held.
func (st *ingestState) status(now time.Time) string {
	ran := now.Sub(st.started).Round(time.Millisecond)
	switch {
	case !st.running && st.err != "":
		return fmt.Sprintf("failed after %s", ran)
	case !st.running:
		return fmt.Sprintf("finished in %s", ran)
	case now.Sub(st.progressAt) >= ingestStall:
		return st.where(now)
	}
	p := st.progress
	switch {
	case p.Stage == "":
		return "starting"
	case p.Stage == "read" && st.lastFile != "":
		return fmt.Sprintf("reading: %d/%d files, last read %q", p.Done, p.Total, st.lastFile)
	default:
		return fmt.Sprintf("%s: %d/%d", p.Stage, p.Done, p.Total)
	}
}
