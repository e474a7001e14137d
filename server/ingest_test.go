package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
)

// ingestStatusBody is GET /api/ingest's body, as far as these tests read it.
type ingestStatusBody struct {
	Running  bool       `json:"running"`
	Error    string     `json:"error"`
	Started  *time.Time `json:"started"`
	Finished *time.Time `json:"finished"`
	Deadline *time.Time `json:"deadline"`
	Status   string     `json:"status"`
	Progress *struct {
		Stage       string    `json:"stage"`
		Done        int       `json:"done"`
		Total       int       `json:"total"`
		LastFile    string    `json:"last_file"`
		LastRoot    string    `json:"last_root"`
		At          time.Time `json:"at"`
		IdleSeconds float64   `json:"idle_seconds"`
	} `json:"progress"`
}

// slowIngest serves eng with the engine's real Ingest, except that the
// first ingest, once it has read its first file, calls hold before going
// on: a slow next file. held receives the file read; returned is closed
// when that ingest has returned.
func slowIngest(t *testing.T, eng *oraculo.Engine, cfg Config, hold func(ctx context.Context)) (h *Server, ts *httptest.Server, held chan string, returned chan struct{}) {
	t.Helper()
	cfg.Engine = eng
	h = New(cfg)
	held, returned = make(chan string, 1), make(chan struct{})
	var first sync.Once
	h.ingestFunc = func(ctx context.Context, roots []string, opts oraculo.IngestOptions) (*oraculo.IngestReport, error) {
		isFirst := false
		first.Do(func() { isFirst = true })
		if !isFirst {
			return eng.Ingest(ctx, roots, opts)
		}
		defer close(returned)
		report, once := opts.Progress, sync.Once{}
		opts.Progress = func(p oraculo.Progress) {
			report(p)
			if p.Stage == "read" {
				once.Do(func() {
					held <- p.Path
					hold(ctx)
				})
			}
		}
		return eng.Ingest(ctx, roots, opts)
	}
	ts = httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		h.Close()
	})
	return h, ts, held, returned
}

// ingestStatusUntil polls GET /api/ingest until done says so.
func ingestStatusUntil(t *testing.T, ts *httptest.Server, done func(ingestStatusBody) bool) ingestStatusBody {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, data := call(t, ts, "GET", "/api/ingest", "", nil)
		wantStatus(t, resp, data, 200)
		st := decodeJSON[ingestStatusBody](t, data)
		if done(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ingest status does not change: %s", data)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func restoreIngestVars(t *testing.T) {
	stall, grace := ingestStall, ingestStopGrace
	t.Cleanup(func() { ingestStall, ingestStopGrace = stall, grace })
}

// TestIngestDeadline: an ingest whose next file takes longer than its
// deadline is reported stalled after that file, then cancelled, with an
// error saying how long it ran and where it stopped.
func TestIngestDeadline(t *testing.T) {
	restoreIngestVars(t)
	ingestStall = 50 * time.Millisecond
	eng := testEngine(t)
	timeout := 1500 * time.Millisecond
	_, ts, held, returned := slowIngest(t, eng, Config{IngestTimeout: timeout}, func(ctx context.Context) { <-ctx.Done() })

	resp, data := call(t, ts, "POST", "/api/ingest", "", nil)
	wantStatus(t, resp, data, 202)
	file := <-held
	st := ingestStatusUntil(t, ts, func(st ingestStatusBody) bool {
		return !st.Running || strings.HasPrefix(st.Status, "no progress for")
	})
	if !st.Running || !strings.Contains(st.Status, `after "`+file+`" (read 1/`) {
		t.Errorf("a stalled ingest's status: %+v", st)
	}
	if st.Progress == nil || st.Progress.Stage != "read" || st.Progress.LastFile != file || st.Progress.Done != 1 || st.Progress.IdleSeconds <= 0 || st.Deadline == nil {
		t.Errorf("a stalled ingest's progress: %+v", st.Progress)
	}

	st = ingestStatusUntil(t, ts, func(st ingestStatusBody) bool { return !st.Running })
	<-returned
	for _, want := range []string{"ingest stopped at its deadline (1.5s) after running ", `after "` + file + `" (read 1/`, "context deadline exceeded"} {
		if !strings.Contains(st.Error, want) {
			t.Errorf("error %q does not say %q", st.Error, want)
		}
	}
	if ran := st.Finished.Sub(*st.Started); ran < timeout || ran > timeout+5*time.Second {
		t.Errorf("the ingest ran %s, its deadline is %s", ran, timeout)
	}
	if !strings.HasPrefix(st.Status, "failed after ") || st.Progress == nil || st.Progress.LastFile != file {
		t.Errorf("status after the deadline: %+v", st)
	}

	// The next ingest runs to its end.
	resp, data = call(t, ts, "POST", "/api/ingest", "", nil)
	wantStatus(t, resp, data, 202)
	st = ingestStatusUntil(t, ts, func(st ingestStatusBody) bool { return !st.Running })
	if st.Error != "" || !strings.HasPrefix(st.Status, "finished in ") || st.Progress.Stage == "" {
		t.Errorf("status after an ingest: %+v", st)
	}
}

// TestIngestIgnoringCancellation: an ingest stuck in a read that ignores
// cancellation (a FIFO, say) is reported stopped ingestStopGrace after
// its deadline, and no other ingest starts until it returns.
func TestIngestIgnoringCancellation(t *testing.T) {
	restoreIngestVars(t)
	ingestStopGrace = 200 * time.Millisecond
	eng := testEngine(t)
	release := make(chan struct{})
	_, ts, held, returned := slowIngest(t, eng, Config{IngestTimeout: 300 * time.Millisecond}, func(context.Context) { <-release })
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
		<-returned
	}()

	resp, data := call(t, ts, "POST", "/api/ingest", "", nil)
	wantStatus(t, resp, data, 202)
	file := <-held
	st := ingestStatusUntil(t, ts, func(st ingestStatusBody) bool { return !st.Running })
	for _, want := range []string{"ingest stopped at its deadline (300ms)", `after "` + file + `"`, "did not stop within 200ms of being cancelled"} {
		if !strings.Contains(st.Error, want) {
			t.Errorf("error %q does not say %q", st.Error, want)
		}
	}
	resp, data = call(t, ts, "POST", "/api/ingest", "", nil)
	wantStatus(t, resp, data, http.StatusConflict)

	close(release)
	<-returned
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, data = call(t, ts, "POST", "/api/ingest", "", nil)
		if resp.StatusCode == http.StatusAccepted {
			break
		}
		wantStatus(t, resp, data, http.StatusConflict)
		if time.Now().After(deadline) {
			t.Fatalf("no ingest starts after the stuck one returned: %s", data)
		}
		time.Sleep(10 * time.Millisecond)
	}
	st = ingestStatusUntil(t, ts, func(st ingestStatusBody) bool { return !st.Running })
	if st.Error != "" {
		t.Errorf("the ingest after the stuck one: %+v", st)
	}
}

// TestCloseWithStuckIngest: Close returns within ingestStopGrace even when
// the ingest ignores its cancellation, and says where it was.
func TestCloseWithStuckIngest(t *testing.T) {
	restoreIngestVars(t)
	ingestStopGrace = 200 * time.Millisecond
	eng := testEngine(t)
	release := make(chan struct{})
	h, ts, held, returned := slowIngest(t, eng, Config{}, func(context.Context) { <-release })
	defer func() {
		close(release)
		<-returned // before the engine closes
	}()
	resp, data := call(t, ts, "POST", "/api/ingest", "", nil)
	wantStatus(t, resp, data, 202)
	file := <-held
	start := time.Now()
	err := h.Close()
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Close took %s", took)
	}
	if err == nil || !strings.Contains(err.Error(), "the server is closing") || !strings.Contains(err.Error(), `after "`+file+`"`) {
		t.Errorf("Close: %v", err)
	}
	resp, data = call(t, ts, "POST", "/api/ingest", "", nil)
	wantStatus(t, resp, data, http.StatusServiceUnavailable)
}

// TestCloseCancelsIngest: Close cancels an ingest that heeds it, waits for
// it and returns no error.
func TestCloseCancelsIngest(t *testing.T) {
	eng := testEngine(t)
	h, ts, held, returned := slowIngest(t, eng, Config{}, func(ctx context.Context) { <-ctx.Done() })
	resp, data := call(t, ts, "POST", "/api/ingest", "", nil)
	wantStatus(t, resp, data, 202)
	<-held
	if err := h.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case <-returned:
	default:
		t.Error("Close returned before the ingest")
	}
	st := ingestStatusUntil(t, ts, func(st ingestStatusBody) bool { return !st.Running })
	if !strings.Contains(st.Error, "ingest cancelled: the server is closing after running ") {
		t.Errorf("error after Close: %q", st.Error)
	}
}
