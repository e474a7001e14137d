package embed

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// Batch defaults and limits.
const (
	DefaultBatchSize   = 32
	DefaultConcurrency = 2
	DefaultRetries     = 3
	DefaultBackoff     = 500 * time.Millisecond
	// MaxBackoff caps the exponential backoff between retries. A server's
	// own Retry-After is honoured up to a minute.
	MaxBackoff = 10 * time.Second
)

// Batch runs Embed over many texts: batches of Size texts, at most
// Concurrency requests at once, retries of retryable failures (see
// Retryable: unreachable server, timeouts, 408, 429, 5xx) with exponential
// backoff and jitter starting at Backoff (capped at MaxBackoff, or the
// server's Retry-After when longer), never retrying ErrModel, ErrAuth or
// ErrResponse.
//
// Every vector is checked: non-empty, finite, non-zero norm, and of the
// same dimensions as the first vector of the run (or Dims when Dims > 0);
// a failed check is an ErrResponse. Each finished batch is handed to Done
// (in any order, with the index of its first text) before the worker that
// embedded it starts another, so a caller can store batches as they come
// and resume an interrupted ingest. Done is never called concurrently.
//
// The first error (an Embed failure after its retries, a failed check, or
// an error from Done) cancels the rest and is returned after in-flight
// batches finish; batches that finish meanwhile are still handed to Done,
// unless it is Done that failed.
type Batch struct {
	// Size is the number of texts per request; default 32.
	Size int
	// Concurrency is the number of requests at once; default 2.
	Concurrency int
	// Retries is the number of retries of a failed request; default 3,
	// negative for none.
	Retries int
	// Backoff is the wait before the first retry, doubled for each next
	// one; default 500ms.
	Backoff time.Duration
	// Dims, when > 0, is the number of dimensions every vector must have.
	Dims int
	// Done receives each batch's vectors with the index of its first text;
	// nil discards them. An error from Done stops the run.
	Done func(start int, vecs [][]float32) error
}

// withDefaults fills in the zero fields.
func (b Batch) withDefaults() Batch {
	if b.Size <= 0 {
		b.Size = DefaultBatchSize
	}
	if b.Concurrency <= 0 {
		b.Concurrency = DefaultConcurrency
	}
	switch {
	case b.Retries == 0:
		b.Retries = DefaultRetries
	case b.Retries < 0:
		b.Retries = 0
	}
	if b.Backoff <= 0 {
		b.Backoff = DefaultBackoff
	}
	return b
}

// Run embeds texts as kind with e, handing the vectors to Done batch by
// batch. It returns nil when every batch was embedded and accepted.
func (b Batch) Run(ctx context.Context, e Embedder, kind Kind, texts []string) error {
	if len(texts) == 0 {
		return ctx.Err()
	}
	if e == nil {
		return errors.New("embed: Batch.Run with a nil Embedder")
	}
	b = b.withDefaults()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()

	var (
		mu         sync.Mutex // guards firstErr, dims, doneFailed
		firstErr   error
		dims       = b.Dims
		doneFailed bool
		doneMu     sync.Mutex // serialises Done
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	// check verifies a batch's vectors, fixing the run's dimensions on the
	// first batch to finish.
	check := func(vecs [][]float32, n int) error {
		mu.Lock()
		defer mu.Unlock()
		d, err := checkVectors(vecs, n, dims)
		if err == nil && dims <= 0 {
			dims = d
		}
		return err
	}
	handle := func(start int, vecs [][]float32) error {
		mu.Lock()
		skip := doneFailed
		mu.Unlock()
		if b.Done == nil || skip {
			return nil
		}
		doneMu.Lock()
		defer doneMu.Unlock()
		if err := b.Done(start, vecs); err != nil {
			mu.Lock()
			doneFailed = true
			mu.Unlock()
			return err
		}
		return nil
	}

	starts := make(chan int)
	nBatches := (len(texts) + b.Size - 1) / b.Size
	var wg sync.WaitGroup
	for range min(b.Concurrency, nBatches) {
		wg.Go(func() {
			for start := range starts {
				end := min(start+b.Size, len(texts))
				vecs, err := b.embed(runCtx, e, kind, texts[start:end])
				if err == nil {
					if cerr := check(vecs, end-start); cerr != nil {
						err = fmt.Errorf("%s: %v: %w", e.ID(), cerr, ErrResponse)
					}
				}
				if err != nil {
					fail(fmt.Errorf("embedding %s: %w", span(start, end), err))
					return
				}
				if err := handle(start, vecs); err != nil {
					fail(fmt.Errorf("handing over the vectors of %s: %w", span(start, end), err))
					return
				}
			}
		})
	}
feed:
	for start := 0; start < len(texts); start += b.Size {
		select {
		case starts <- start:
		case <-runCtx.Done():
			break feed
		}
	}
	close(starts)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// embed calls e.Embed, retrying retryable failures.
func (b Batch) embed(ctx context.Context, e Embedder, kind Kind, texts []string) ([][]float32, error) {
	for attempt := 0; ; attempt++ {
		vecs, err := e.Embed(ctx, kind, texts)
		if err == nil {
			return vecs, nil
		}
		if ctx.Err() != nil || !Retryable(err) {
			return nil, err
		}
		if attempt >= b.Retries {
			if attempt == 0 {
				return nil, err
			}
			return nil, fmt.Errorf("after %d attempts: %w", attempt+1, err)
		}
		wait := b.backoff(attempt)
		var ee *Error
		if errors.As(err, &ee) && ee.RetryAfter > wait {
			wait = ee.RetryAfter
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
	}
}

// backoff is the wait before retry number attempt+1: Backoff doubled
// attempt times, capped at MaxBackoff, with "equal jitter" (a random
// value between half of it and all of it) so that workers spread out.
func (b Batch) backoff(attempt int) time.Duration {
	d := b.Backoff
	for range attempt {
		if d >= MaxBackoff/2 {
			d = MaxBackoff
			break
		}
		d *= 2
	}
	d = min(d, MaxBackoff)
	half := d / 2
	return half + rand.N(d-half+1)
}

// span names texts[start:end] for messages.
func span(start, end int) string {
	if end-start == 1 {
		return fmt.Sprintf("text %d", start)
	}
	return fmt.Sprintf("texts %d to %d", start, end-1)
}
