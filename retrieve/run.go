package retrieve

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/oraculo/oraculo/fuse"
)

// Run is how [RunAll] runs a search's paths.
type Run struct {
	// Depth is how many results each path is asked for.
	Depth int
	// Public is set for a player: the rows of DM-only notes are dropped.
	Public bool
	// Took, when set, is told how long each path ran, in the paths' order.
	Took func(path string, d time.Duration)
	// Warn, when set, is told of a path left out (see [RunAll]).
	Warn func(err error)
}

// Found is what a search's paths found: their lists, ready to fuse, and
// the result of each chunk found (the passage of the path that has one,
// BM25's paragraph).
type Found struct {
	Lists []fuse.List
	ByID  map[int64]Result
}

// RunAll runs every path at once (BM25 in the store while the question
// is embedded and the graph walked), then takes them in their order, so
// that the lists, warnings and timings are what running them one after
// the other gives. A path other than BM25 that fails for a reason
// outside the notes is left out with a warning when there are several;
// any other failure is the search's.
func RunAll(ctx context.Context, question string, paths []Path, r Run) (Found, error) {
	type ran struct {
		results []Result
		err     error
		took    time.Duration
	}
	out := make([]ran, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		run := func() {
			t0 := time.Now()
			out[i].results, out[i].err = p.Retrieve(ctx, question, r.Depth)
			out[i].took = time.Since(t0)
		}
		if i == len(paths)-1 {
			run()
		} else {
			wg.Go(run)
		}
	}
	wg.Wait()
	found := Found{ByID: make(map[int64]Result)}
	for i, p := range paths {
		if r.Took != nil {
			r.Took(p.Name(), out[i].took)
		}
		if err := out[i].err; err != nil {
			if len(paths) > 1 && p.Name() != PathBM25 && ctx.Err() == nil {
				if r.Warn != nil {
					r.Warn(err)
				}
				continue
			}
			return Found{}, err
		}
		found.add(p.Name(), r.visible(out[i].results))
	}
	return found, nil
}

// visible returns the results the caller may see. Every path leaves
// DM-only notes out for a player; this is the last word, taken on the
// rows as they were just read.
func (r Run) visible(results []Result) []Result {
	if !r.Public {
		return results
	}
	return slices.DeleteFunc(results, func(x Result) bool { return x.Chunk.Restricted })
}

// add appends one path's results as a list, keeping for each chunk the
// first result with a passage.
func (f *Found) add(path string, results []Result) {
	l := fuse.List{Path: path, IDs: make([]int64, len(results)), Scores: make([]float64, len(results))}
	for i, r := range results {
		l.IDs[i], l.Scores[i] = r.Chunk.ID, r.Score
		if old, ok := f.ByID[r.Chunk.ID]; !ok || old.Passage == "" {
			f.ByID[r.Chunk.ID] = r
		}
	}
	f.Lists = append(f.Lists, l)
}

// InSession reports whether the chunk id was found in a session's note.
func (f Found) InSession(id int64) bool { return f.ByID[id].Chunk.InSession }

// Session returns the chunk id's session, ok false when it is outside
// sessions.
func (f Found) Session(id int64) (int, bool) {
	c := f.ByID[id].Chunk
	return c.Session, c.InSession
}

// Unit names the chunk id's unit: its session, or its note when it is
// outside sessions.
func (f Found) Unit(id int64) string {
	c := f.ByID[id].Chunk
	if c.InSession {
		return fmt.Sprint("s", c.Session)
	}
	return "f" + c.Path
}
