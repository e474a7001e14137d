package ingest

import (
	"context"
	"sync"
)

// inOrder calls prepare for the items 0, 1, …, n-1, on up to workers
// goroutines at once, and write with each result in item order, on the
// calling goroutine, as soon as every earlier item has been written. The
// results that arrive early wait in a reorder buffer, so that the workers
// never wait for a write.
//
// When ctx ends no further item is handed out, and write still receives
// every item handed out: always a prefix 0, …, k-1 of the items. When write
// returns an error, no further item is handed out nor written, the items
// being prepared are dropped, and inOrder returns that error.
func inOrder[T any](ctx context.Context, n, workers int, prepare func(i int) T, write func(i int, v T) error) error {
	type result struct {
		i int
		v T
	}
	feedCtx, stop := context.WithCancel(ctx)
	defer stop()
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results <- result{i, prepare(i)}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range n {
			select {
			case jobs <- i:
			case <-feedCtx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	ordered := make(chan result)
	go func() {
		defer close(ordered)
		pending := map[int]T{}
		next := 0
		for r := range results {
			pending[r.i] = r.v
			for v, ok := pending[next]; ok; v, ok = pending[next] {
				delete(pending, next)
				ordered <- result{next, v}
				next++
			}
		}
	}()
	var firstErr error
	for r := range ordered {
		if firstErr != nil {
			continue // drain the workers
		}
		if err := write(r.i, r.v); err != nil {
			firstErr = err
			stop()
		}
	}
	return firstErr
}
