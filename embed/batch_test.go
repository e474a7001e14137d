package embed

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// funcEmbedder is an Embedder made of a function.
type funcEmbedder struct {
	id string
	fn func(ctx context.Context, kind Kind, texts []string) ([][]float32, error)
}

func (f funcEmbedder) ID() string { return f.id }
func (f funcEmbedder) Embed(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
	return f.fn(ctx, kind, texts)
}

func TestBatchDone(t *testing.T) {
	h := NewHashing(16)
	in := make([]string, 10)
	for i := range in {
		in[i] = "nota número " + strings.Repeat("x", i+1)
	}
	var mu sync.Mutex
	var starts []int
	var inDone, overlapped atomic.Int32
	got := make([][]float32, len(in))
	err := Batch{Size: 3, Concurrency: 3, Done: func(start int, vecs [][]float32) error {
		if inDone.Add(1) > 1 {
			overlapped.Store(1)
		}
		defer inDone.Add(-1)
		time.Sleep(time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		starts = append(starts, start)
		if want := min(3, len(in)-start); len(vecs) != want {
			t.Errorf("Done(%d) got %d vectors, want %d", start, len(vecs), want)
		}
		copy(got[start:], vecs)
		return nil
	}}.Run(t.Context(), h, Passage, in)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(starts)
	if !slices.Equal(starts, []int{0, 3, 6, 9}) {
		t.Errorf("Done starts = %v, want each of 0, 3, 6, 9 once", starts)
	}
	if overlapped.Load() != 0 {
		t.Error("Done was called concurrently")
	}
	want, _ := h.Embed(t.Context(), Passage, in)
	if !equalVecs(got, want) {
		t.Error("vectors handed to Done differ from the embedder's, or are misplaced")
	}
}

func TestBatchConcurrencyLimit(t *testing.T) {
	const limit = 3
	var inFlight, peak atomic.Int32
	f := newFakeOllama(t)
	f.answer = func(w http.ResponseWriter, r *http.Request, req ollamaRequest, call int) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		// Wait until the limit is reached (or long enough), so that too
		// many requests at once would be seen.
		for deadline := time.Now().Add(300 * time.Millisecond); inFlight.Load() < limit && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(5 * time.Millisecond)
		writeOllama(w, req.Model, vectorsFor(req.Input))
	}
	var batches atomic.Int32
	err := Batch{Size: 2, Concurrency: limit, Done: func(int, [][]float32) error { batches.Add(1); return nil }}.
		Run(t.Context(), NewOllama(OllamaConfig{BaseURL: f.srv.URL}), Passage, texts(20))
	if err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p != limit {
		t.Errorf("peak in-flight requests = %d, want %d", p, limit)
	}
	if batches.Load() != 10 || f.callCount() != 10 {
		t.Errorf("%d batches, %d requests; want 10 and 10", batches.Load(), f.callCount())
	}
}

func TestBatchFirstErrorCancels(t *testing.T) {
	var calls, canceled atomic.Int32
	e := funcEmbedder{"test/fail", func(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
		calls.Add(1)
		if texts[0] == "t0" {
			time.Sleep(10 * time.Millisecond) // let the others start
			return nil, &Error{Provider: "test", Model: "m", Message: "gone", Kind: ErrModel}
		}
		select {
		case <-ctx.Done():
			canceled.Add(1)
			return nil, ctx.Err()
		case <-time.After(5 * time.Second):
			return nil, errors.New("not canceled")
		}
	}}
	began := time.Now()
	var done atomic.Int32
	err := Batch{Size: 1, Concurrency: 4, Done: func(int, [][]float32) error { done.Add(1); return nil }}.
		Run(t.Context(), e, Query, texts(100))
	if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "embedding text 0") {
		t.Fatalf("err = %v, want the first error (ErrModel, text 0)", err)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("took %v: the other batches were not canceled", took)
	}
	if c := calls.Load(); c > 4 {
		t.Errorf("%d calls after the first error, want no new ones (4 workers)", c)
	}
	if canceled.Load() != calls.Load()-1 {
		t.Errorf("%d of %d in-flight calls saw the cancellation", canceled.Load(), calls.Load()-1)
	}
	if done.Load() != 0 {
		t.Errorf("Done called %d times", done.Load())
	}
}

func TestBatchDoneErrorStops(t *testing.T) {
	var calls atomic.Int32
	h := NewHashing(8)
	e := funcEmbedder{h.ID(), func(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
		calls.Add(1)
		return h.Embed(ctx, kind, texts)
	}}
	full := errors.New("disk full")
	var dones atomic.Int32
	err := Batch{Size: 1, Concurrency: 1, Done: func(start int, vecs [][]float32) error {
		if dones.Add(1) == 2 {
			return full
		}
		return nil
	}}.Run(t.Context(), e, Passage, texts(50))
	if !errors.Is(err, full) || !strings.Contains(err.Error(), "text 1") {
		t.Fatalf("err = %v, want the Done error for text 1", err)
	}
	if dones.Load() != 2 {
		t.Errorf("Done called %d times, want 2 (none after it failed)", dones.Load())
	}
	if calls.Load() > 3 {
		t.Errorf("%d Embed calls, want the run to stop", calls.Load())
	}
}

func TestBatchRetries(t *testing.T) {
	unreachable := &Error{Provider: "test", Message: "cannot connect", Kind: ErrUnreachable}
	busy := &Error{Provider: "test", Status: 503, Message: "busy"}
	bad := &Error{Provider: "test", Status: 400, Message: "bad input"}
	for _, tc := range []struct {
		name    string
		retries int
		errs    []error // returned by successive calls, then success
		calls   int
		wantErr error
	}{
		{"unreachable then ok", 0, []error{unreachable, unreachable}, 3, nil},
		{"503 then ok", 0, []error{busy}, 2, nil},
		{"exhausted", 2, []error{busy, busy, busy, busy}, 3, busy},
		{"no retries", -1, []error{busy}, 1, busy},
		{"400 not retried", 0, []error{bad}, 1, bad},
		{"model not retried", 0, []error{ErrModel}, 1, ErrModel},
		{"auth not retried", 0, []error{ErrAuth}, 1, ErrAuth},
		{"response not retried", 0, []error{ErrResponse}, 1, ErrResponse},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls int
			e := funcEmbedder{"test/retry", func(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
				calls++
				if calls <= len(tc.errs) {
					return nil, tc.errs[calls-1]
				}
				return [][]float32{{1, 2}}, nil
			}}
			err := Batch{Retries: tc.retries, Backoff: time.Millisecond}.Run(t.Context(), e, Query, []string{"x"})
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
			if calls != tc.calls {
				t.Errorf("%d calls, want %d", calls, tc.calls)
			}
			if tc.name == "exhausted" && !strings.Contains(err.Error(), "after 3 attempts") {
				t.Errorf("err = %v, want the number of attempts", err)
			}
		})
	}
}

func TestBatchBackoff(t *testing.T) {
	b := Batch{Backoff: 500 * time.Millisecond}.withDefaults()
	for attempt, want := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, MaxBackoff, MaxBackoff, MaxBackoff} {
		for range 20 {
			d := b.backoff(attempt)
			if d < want/2 || d > want {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", attempt, d, want/2, want)
			}
		}
	}
	if d := b.backoff(200); d > MaxBackoff {
		t.Errorf("backoff(200) = %v, over the cap", d)
	}
}

func TestBatchChecksVectors(t *testing.T) {
	for _, tc := range []struct {
		name string
		vecs [][]float32
		dims int
		want string
	}{
		{"count", [][]float32{{1, 0}}, 0, "got 1 vectors for 2 texts"},
		{"zero", [][]float32{{1, 0}, {0, 0}}, 0, "vector 1 is all zeros"},
		{"empty", [][]float32{{1, 0}, {}}, 0, "vector 1 is empty"},
		{"nan", [][]float32{{1, 0}, {float32(nan()), 1}}, 0, "non-finite"},
		{"dims", [][]float32{{1, 0}, {1, 0}}, 3, "vector 0 has 2 dimensions, want 3"},
		{"ragged", [][]float32{{1, 0}, {1, 0, 0}}, 0, "vector 1 has 3 dimensions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := funcEmbedder{"test/bad", func(context.Context, Kind, []string) ([][]float32, error) { return tc.vecs, nil }}
			var done bool
			err := Batch{Dims: tc.dims, Done: func(int, [][]float32) error { done = true; return nil }}.
				Run(t.Context(), e, Passage, []string{"a", "b"})
			if !errors.Is(err, ErrResponse) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "test/bad") {
				t.Errorf("err = %v, want ErrResponse saying %q", err, tc.want)
			}
			if done {
				t.Error("Done got a batch that failed its check")
			}
		})
	}
}

func TestBatchEdges(t *testing.T) {
	var calls int
	e := funcEmbedder{"test/count", func(context.Context, Kind, []string) ([][]float32, error) {
		calls++
		return [][]float32{{1}}, nil
	}}
	if err := (Batch{}).Run(t.Context(), e, Query, nil); err != nil || calls != 0 {
		t.Errorf("no texts: err %v, %d calls", err, calls)
	}
	if err := (Batch{}).Run(t.Context(), nil, Query, []string{"x"}); err == nil {
		t.Error("nil Embedder: no error")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := (Batch{}).Run(ctx, NewHashing(8), Query, texts(100)); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: err = %v", err)
	}
	// The defaults: batches of 32, so 70 texts take 3 calls.
	calls = 0
	e.fn = func(_ context.Context, _ Kind, in []string) ([][]float32, error) {
		calls++
		out := make([][]float32, len(in))
		for i := range out {
			out[i] = []float32{1}
		}
		return out, nil
	}
	if err := (Batch{Concurrency: 1}).Run(t.Context(), e, Query, texts(70)); err != nil || calls != 3 {
		t.Errorf("defaults: err %v, %d calls, want 3", err, calls)
	}
}

func TestBatchRetryWaitCanceled(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	e := funcEmbedder{"test/slow", func(context.Context, Kind, []string) ([][]float32, error) {
		return nil, &Error{Provider: "test", Status: 429, RetryAfter: time.Minute}
	}}
	began := time.Now()
	err := Batch{}.Run(ctx, e, Query, []string{"x"})
	if err == nil || time.Since(began) > time.Second {
		t.Errorf("err = %v after %v, want the 429 as soon as the context ends", err, time.Since(began))
	}
}
