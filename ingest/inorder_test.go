package ingest

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// TestInOrderKeepsOrder: results prepared in any order are written in
// item order, one at a time, while the preparing runs in parallel.
func TestInOrderKeepsOrder(t *testing.T) {
	for _, workers := range []int{-1, 0, 1, 3, 16} {
		const n = 200
		var inFlight, most atomic.Int32
		var writing atomic.Bool
		var got []int
		err := inOrder(context.Background(), n, workers, func(i int) int {
			now := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
			return i * i
		}, func(i, v int) error {
			if !writing.CompareAndSwap(false, true) {
				t.Error("two writes at once")
			}
			defer writing.Store(false)
			if v != i*i {
				t.Errorf("item %d written with the result %d of another", i, v)
			}
			got = append(got, i)
			return nil
		})
		if err != nil {
			t.Fatalf("workers %d: %v", workers, err)
		}
		if len(got) != n {
			t.Fatalf("workers %d: %d items written, want %d", workers, len(got), n)
		}
		for i, v := range got {
			if v != i {
				t.Fatalf("workers %d: item %d written in place %d", workers, v, i)
			}
		}
		if workers >= 3 && most.Load() < 2 {
			t.Errorf("workers %d: at most %d items prepared at once", workers, most.Load())
		}
	}
}

// TestInOrderCancelled: once the context ends no item is handed out, and
// every item handed out is written: a prefix of the items.
func TestInOrderCancelled(t *testing.T) {
	const n = 1000
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var prepared atomic.Int32
	var got []int
	err := inOrder(ctx, n, 4, func(i int) int {
		prepared.Add(1)
		return i
	}, func(i, _ int) error {
		if i == 10 {
			cancel()
		}
		got = append(got, i)
		return nil
	})
	if err != nil {
		t.Fatalf("inOrder = %v; cancelling is the caller's to report", err)
	}
	if len(got) < 11 || len(got) == n {
		t.Fatalf("%d items written after cancelling at item 10", len(got))
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("item %d written in place %d: not a prefix", v, i)
		}
	}
	if int(prepared.Load()) != len(got) {
		t.Errorf("%d items prepared, %d written: every item handed out must be written", prepared.Load(), len(got))
	}
}

// TestInOrderStopsAtAWriteError: the first write error ends the run, no
// later item is written, and the error is returned.
func TestInOrderStopsAtAWriteError(t *testing.T) {
	const n = 1000
	bad := errors.New("disk full")
	var prepared atomic.Int32
	last := -1
	err := inOrder(context.Background(), n, 4, func(i int) int {
		prepared.Add(1)
		return i
	}, func(i, _ int) error {
		last = i
		if i == 5 {
			return bad
		}
		return nil
	})
	if !errors.Is(err, bad) {
		t.Fatalf("inOrder = %v, want %v", err, bad)
	}
	if last != 5 {
		t.Errorf("last item written %d, want 5", last)
	}
	if prepared.Load() == n {
		t.Errorf("every item was prepared after the write error")
	}
}

func TestInOrderNoItems(t *testing.T) {
	err := inOrder(context.Background(), 0, 4, func(int) int {
		t.Error("prepared an item of none")
		return 0
	}, func(int, int) error {
		t.Error("wrote an item of none")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
