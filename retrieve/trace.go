package retrieve

import (
	"time"

	"github.com/oraculo/oraculo/query"
)

// Trace records the time spent in each stage of one search.
type Trace struct {
	Stages []StageTime
}

// StageTime is one stage's duration. Stage names: "retrieve:<path>" for
// each retrieval path, "fuse" (or "merge" with one path), and "total".
type StageTime struct {
	Stage    string
	Duration time.Duration
}

// Add records the stage as taking the time since since; a nil t records
// nothing.
func (t *Trace) Add(stage string, since time.Time) {
	if t != nil {
		t.Stages = append(t.Stages, StageTime{stage, time.Since(since)})
	}
}

// Took records the retrieval path as taking d (see [Run.Took]).
func (t *Trace) Took(path string, d time.Duration) {
	t.Stages = append(t.Stages, StageTime{"retrieve:" + path, d})
}

// SearchResult is what one search found and how: its hits, what it
// understood of the question (zero when the question could not be read)
// and how long each stage took.
type SearchResult struct {
	Hits     []Hit
	Analysis query.Understanding
	Trace    Trace
}
