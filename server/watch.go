package server

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/watch"
)

// ingestWaitEvery is how often an update of the watcher looks whether
// the ingest that holds the index (POST /api/ingest) has finished.
var ingestWaitEvery = 100 * time.Millisecond

// watchState is the server's watcher, when it has one.
type watchState struct {
	w atomic.Pointer[watch.Watcher]
}

// Watch keeps the index in step with its folders until the server
// closes: changes under them, once quiet for cfg.Debounce, start an
// ingest as POST /api/ingest does (one at a time: an update that finds
// one running waits for it, and the changes that arrive meanwhile make
// the next). With no cfg.Roots it watches the folders the index
// remembers. The index's own files are never reacted to. Call it once,
// before serving.
func (s *Server) Watch(ctx context.Context, cfg watch.Config) error {
	if s.watch.w.Load() != nil {
		return errors.New("watching: the server already watches")
	}
	if len(cfg.Roots) == 0 {
		roots, err := s.eng.Roots(ctx)
		if err != nil {
			return fmt.Errorf("watching: reading the index's folders: %w", err)
		}
		if len(roots) == 0 {
			return errors.New("watching: the index names no folder: run `oraculo ingest DIR` first")
		}
		cfg.Roots = roots
	}
	cfg.Ignore = append(cfg.Ignore, s.eng.DBPath())
	// The watcher leaves out what the ingests it asks for leave out.
	cfg.Vault = ingest.VaultOptions{IncludeTemplates: s.cfg.IncludeTemplates, IncludeExcluded: s.cfg.IncludeExcluded}
	roots := cfg.Roots
	cfg.Update = func(ctx context.Context, b watch.Batch) error { return s.watchUpdate(ctx, roots, b) }
	if cfg.OnPolling == nil {
		cfg.OnPolling = func(reason error) {
			s.log.Warn("watching: changes cannot be watched; rescanning the folders instead", "err", reason.Error())
		}
	}
	w, err := watch.New(cfg)
	if err != nil {
		return err
	}
	s.watch.w.Store(w)
	s.wg.Add(1)
	stopped := make(chan error, 1)
	go func() {
		defer s.wg.Done()
		err := w.Run(s.ctx)
		if err != nil {
			s.log.Error("watching stopped", "err", err.Error())
		}
		stopped <- err
	}()
	// Watch returns once the folders are watched, so that a change made
	// after it (the server says it watches) is not missed.
	select {
	case <-w.Started():
	case err := <-stopped:
		if err != nil {
			return fmt.Errorf("watching: %w", err)
		}
	case <-ctx.Done():
		return ctx.Err()
	}
	s.log.Info("watching", "roots", len(roots), "debounce_seconds", cfg.Debounce.Seconds())
	return nil
}

// watchUpdate runs one ingest of roots for a batch of changes, through
// the same path as POST /api/ingest, and returns its error.
func (s *Server) watchUpdate(ctx context.Context, roots []string, b watch.Batch) error {
	var run int
	for {
		var err error
		run, err = s.claimIngest()
		if err == nil {
			break
		}
		if errors.Is(err, errServerClosing) {
			return err
		}
		// Another ingest holds the index: this one follows it, since it
		// may have read the folders before these changes.
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(ingestWaitEvery):
		}
	}
	defer s.wg.Done()
	s.log.Info("watching: changes", "paths", len(b.Paths), "rescan", b.Rescan)
	s.ingestInBackground("watch", run, roots)
	st := &s.ingest
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.run == run && st.err != "" {
		return errors.New(st.err)
	}
	return nil
}

// watchStatus is the watcher's part of GET /api/health: its state, and
// for the DM, the folders watched.
func (s *Server) watchStatus(dm bool) watch.Status {
	w := s.watch.w.Load()
	if w == nil {
		return watch.Status{State: watch.StateOff}
	}
	st := w.Status()
	if !dm {
		st.Roots, st.Error, st.Warning = nil, "", ""
	}
	return st
}
