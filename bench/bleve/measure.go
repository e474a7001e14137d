package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/benchrun"
	"github.com/oraculo/oraculo/internal/cpuclock"
	"github.com/oraculo/oraculo/internal/synth"
)

// search runs one question on one engine and says how many hits it had.
type search func(ctx context.Context, question string) (int, error)

// timing is one engine's passes over the questions.
type timing struct {
	durs   []time.Duration
	cpu    time.Duration
	noHits int
}

// measure builds what it must and times both engines on the questions.
func measure(ctx context.Context, c config, stderr io.Writer) (report, error) {
	rep := report{K: c.k, Rounds: c.rounds, Scoring: c.scoring, LoadBefore: loadAvg()}
	db := c.db
	if c.size > 0 {
		dir, done, err := workDir(c.work, "oraculo-bleve-")
		if err != nil {
			return rep, err
		}
		defer done()
		fmt.Fprintf(stderr, "writing and ingesting %d synthetic sessions under %s\n", c.size, dir)
		if db, rep.Oraculo.Build, err = synthIndex(ctx, dir, c.size); err != nil {
			return rep, err
		}
	}
	eng, err := oraculo.Open(ctx, db)
	if err != nil {
		return rep, err
	}
	defer eng.Close()
	chunks, err := eng.Chunks(ctx, nil)
	if err != nil {
		return rep, err
	}
	rep.Index, rep.Oraculo.Build.Docs = db, len(chunks)
	bdir, done, err := bleveDir(c.bleveDir)
	if err != nil {
		return rep, err
	}
	defer done()
	fmt.Fprintf(stderr, "indexing %d chunks in Bleve at %s\n", len(chunks), bdir)
	idx, bb, err := openOrBuildBleve(ctx, bdir, c.scoring, c.loadText, chunks)
	if err != nil {
		return rep, err
	}
	defer idx.Close()
	rep.Bleve.Build, rep.Bleve.Build.Bytes, rep.Bleve.Build.Segment = bb, dirBytes(bdir), segments(idx)
	qs, err := questions(ctx, c, eng)
	if err != nil {
		return rep, err
	}
	rep.Questions, rep.Distinct = len(qs), len(slices.Compact(slices.Sorted(slices.Values(qs))))
	ot, bt, err := alternate(ctx, qs, c.rounds, oraculoSearch(eng, c), bleveSearch(idx, c))
	if err != nil {
		return rep, err
	}
	rep.Oraculo.set(ot)
	rep.Bleve.set(bt)
	st, err := eng.Stats(ctx)
	if err != nil {
		return rep, err
	}
	rep.Oraculo.Build.Bytes = st.Bytes
	rep.LoadAfter = loadAvg()
	return rep, nil
}

// workDir is dir, made if need be, or a new temporary folder that done
// removes.
func workDir(dir, pattern string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, os.MkdirAll(dir, 0o755)
	}
	tmp, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", nil, err
	}
	return tmp, func() { os.RemoveAll(tmp) }, nil
}

// bleveDir is where Bleve's index goes: dir (kept), or a folder in a
// new temporary one that done removes.
func bleveDir(dir string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "bleve-")
	if err != nil {
		return "", nil, err
	}
	return tmp + "/index", func() { os.RemoveAll(tmp) }, nil
}

// questions are the c.n questions both engines answer (see --questions).
func questions(ctx context.Context, c config, eng *oraculo.Engine) ([]string, error) {
	var qs []string
	var err error
	switch c.questions {
	case "":
		return benchrun.FromIndex(ctx, eng, c.n, c.seed)
	case "tail":
		an, err := analysis.New("es")
		if err != nil {
			return nil, err
		}
		qs = synth.TailQuestions(func(q string) bool { return index.MatchQuery(an.Terms(q)) != "" })
	default:
		if qs, err = benchrun.Load(c.questions); err != nil {
			return nil, err
		}
	}
	out := make([]string, c.n)
	for i := range out {
		out[i] = qs[i%len(qs)]
	}
	return out, nil
}

// oraculoSearch is Oráculo's search of k chunks along c's paths, as the
// DM.
func oraculoSearch(eng *oraculo.Engine, c config) search {
	opts := oraculo.SearchOptions{K: c.k}
	if c.paths != "" {
		opts.Paths = strings.Split(c.paths, ",")
	}
	return func(ctx context.Context, q string) (int, error) {
		hits, err := eng.Search(ctx, q, opts)
		return len(hits), err
	}
}

// bleveSearch is Bleve's match query of the question (its text and
// headings, analysed in Spanish), k hits.
func bleveSearch(idx bleve.Index, c config) search {
	return func(ctx context.Context, q string) (int, error) {
		req := bleve.NewSearchRequestOptions(bleve.NewMatchQuery(q), c.k, 0, false)
		if c.loadText {
			req.Fields = []string{"text"}
		}
		res, err := idx.SearchInContext(ctx, req)
		if err != nil {
			return 0, err
		}
		return len(res.Hits), nil
	}
}

// alternate warms both engines with one pass over the distinct
// questions, then runs rounds timed passes of each, one engine after the
// other, so that both meet the same load.
func alternate(ctx context.Context, qs []string, rounds int, a, b search) (timing, timing, error) {
	distinct := slices.Compact(slices.Sorted(slices.Values(qs)))
	for _, s := range []search{a, b} {
		if _, err := pass(ctx, distinct, s); err != nil {
			return timing{}, timing{}, err
		}
	}
	var ta, tb timing
	for range rounds {
		for _, x := range []struct {
			s search
			t *timing
		}{{a, &ta}, {b, &tb}} {
			t, err := pass(ctx, qs, x.s)
			if err != nil {
				return timing{}, timing{}, err
			}
			x.t.durs = append(x.t.durs, t.durs...)
			x.t.cpu += t.cpu
			x.t.noHits += t.noHits
		}
	}
	return ta, tb, nil
}

// pass runs every question once on s, timed.
func pass(ctx context.Context, qs []string, s search) (timing, error) {
	t := timing{durs: make([]time.Duration, len(qs))}
	cpu := cpuclock.Process()
	for i, q := range qs {
		start := time.Now()
		n, err := s(ctx, q)
		t.durs[i] = time.Since(start)
		if err != nil {
			return t, fmt.Errorf("searching %q: %w", q, err)
		}
		if n == 0 {
			t.noHits++
		}
	}
	t.cpu = cpuclock.Process() - cpu
	return t, nil
}

// loadAvg is the first three fields of /proc/loadavg ("" where there is
// none).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}
