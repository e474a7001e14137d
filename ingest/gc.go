package ingest

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// GCHeadroom is how much the heap may grow between two garbage
// collections during an ingest tuned by [TuneGC], at least. 256 MiB
// measured no fewer CPU seconds on a 10k-chunk ingest than Go's default
// (within the noise of a loaded machine) for 2.5 times the resident
// memory (375 MB against 150 MB); 64 MiB keeps the notes stage's
// collections at most a few times fewer than by default, at little memory.
const GCHeadroom = 64 << 20

// gcTick is how often [TuneGC] moves the memory limit.
const gcTick = 100 * time.Millisecond

// TuneGC sets the garbage collector of this process for an ingest and
// returns the function that gives back the settings it found; call it
// once the ingest ends. The environment wins: when GOGC or GOMEMLIMIT is
// set, nothing changes.
//
// Otherwise collections are driven by a memory limit (debug.SetMemoryLimit,
// GOGC off), moved every 100 ms to what was live after the last
// collection plus as much again or [GCHeadroom], whichever is more. By
// default (GOGC=100) the collector runs whenever the heap doubles: a fresh
// ingest holds tens of megabytes while it writes the notes and allocates
// gigabytes, so it collected every few megabytes, stopping every goroutine
// each time. The heap stays bounded: at most twice what is live, as by
// default, plus the headroom.
func TuneGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	oldLimit := debug.SetMemoryLimit(gcLimit(liveHeap()))
	oldPercent := debug.SetGCPercent(-1)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(gcTick)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				debug.SetMemoryLimit(gcLimit(liveHeap()))
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}
}

// gcLimit is the memory limit for a live heap of live bytes: twice it,
// or it and [GCHeadroom].
func gcLimit(live uint64) int64 {
	limit := live + max(live, GCHeadroom)
	if limit > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(limit)
}

// liveHeap is the heap found live by the last garbage collection.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
