package ingest

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestGCLimit(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, GCHeadroom},
		{50 << 20, 50<<20 + GCHeadroom},
		{GCHeadroom, 2 * GCHeadroom},
		{1 << 30, 2 << 30},
		{math.MaxUint64 / 2, math.MaxInt64},
	} {
		if got := gcLimit(c.live); got != c.want {
			t.Errorf("gcLimit(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// gcSettings reads the GC percent and the memory limit without changing
// them.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// TestTuneGC checks that an ingest collects under a moving memory limit,
// that the settings found come back after it, and that GOGC or
// GOMEMLIMIT in the environment leave them alone.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent, limit := gcSettings()
	restore := TuneGC()
	p, l := gcSettings()
	if p != -1 || l < GCHeadroom || l == limit {
		t.Errorf("during an ingest: GOGC %d, memory limit %d; want off and at least %d", p, l, GCHeadroom)
	}
	restore()
	if p, l := gcSettings(); p != percent || l != limit {
		t.Errorf("after an ingest: GOGC %d, memory limit %d; want %d and %d back", p, l, percent, limit)
	}
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv(env, map[string]string{"GOGC": "150", "GOMEMLIMIT": "2GiB"}[env])
		restore := TuneGC()
		if p, l := gcSettings(); p != percent || l != limit {
			t.Errorf("%s set: GOGC %d, memory limit %d; want %d and %d untouched", env, p, l, percent, limit)
		}
		restore()
		t.Setenv(env, "")
	}
}
