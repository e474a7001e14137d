package snapshot

import (
	"context"
	"strconv"
	"time"

	"github.com/oraculo/oraculo/store"
)

// generationKey is the index setting that names the index's generation.
const generationKey = "generation"

// Generation reads the index's generation, the one a search of it now
// opens a snapshot of: "" for an index no ingest has finished in.
func Generation(ctx context.Context, m store.Settings) (string, error) {
	return m.Meta(ctx, generationKey)
}

// NewGeneration records that the index changed (an ingest finished, or
// notes were decided again): every engine serving it, in this process or
// another, opens a snapshot of the new generation before its next search.
// A generation names the time it was recorded.
func NewGeneration(ctx context.Context, m store.Settings) error {
	return m.SetMeta(ctx, generationKey, strconv.FormatInt(time.Now().UnixNano(), 36))
}

// GenerationTime is when the snapshot's generation was recorded (see
// [NewGeneration]); false for an index no ingest has finished in.
func (v *Snapshot) GenerationTime() (time.Time, bool) {
	n, err := strconv.ParseInt(v.Generation, 36, 64)
	if v.Generation == "" || err != nil || n <= 0 {
		return time.Time{}, false
	}
	return time.Unix(0, n), true
}
