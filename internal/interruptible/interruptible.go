// Package interruptible runs a long computation that has no I/O and cannot
// stop half-way (building a compendium, a vector graph) so that its caller
// can: when the context ends, the caller returns at once and the
// computation's result is dropped.
package interruptible

import "context"

// Run runs f and returns its result, or ctx's error as soon as ctx ends:
// f then finishes unobserved and its result is dropped, so that a
// cancelled ingest stops at once without writing it.
func Run[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
