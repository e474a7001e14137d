package oraculo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/retrieve"
)

// DefaultK is how many hits a search returns by default.
const DefaultK = 10

// SearchOptions tune one search.
type SearchOptions struct {
	// K is how many hits to return (default DefaultK).
	K int
	// Paths names the retrieval paths to use; empty means every available one.
	Paths []string
	// Trace, when set, receives how long each stage took.
	Trace *Trace
}

// Trace records the time spent in each stage of one search.
type Trace struct {
	Stages []StageTime
}

// StageTime is one stage's duration. Stage names: "retrieve:<path>" for
// each retrieval path, "merge", and "total".
type StageTime struct {
	Stage    string
	Duration time.Duration
}

func (t *Trace) add(stage string, since time.Time) {
	if t != nil {
		t.Stages = append(t.Stages, StageTime{stage, time.Since(since)})
	}
}

// Hit is one chunk returned by a search. Its JSON shape is public.
type Hit struct {
	Rank     int      `json:"rank"`
	ID       string   `json:"id"`
	File     string   `json:"file"`
	Label    string   `json:"label"`
	Headings []string `json:"headings"`
	Session  *int     `json:"session"`
	Words    int      `json:"words"`
	Text     string   `json:"text"`
	Score    float64  `json:"score"`
	// Paths maps each retrieval path that found the chunk to its rank there.
	Paths map[string]int `json:"paths"`
	// Title is the note's title; Passage the paragraph that matched best.
	Title   string `json:"title"`
	Passage string `json:"passage,omitempty"`
}

// Paths returns the retrieval paths available on this engine, in order.
func (e *Engine) Paths() []retrieve.Path {
	return []retrieve.Path{retrieve.BM25{Index: e.idx, Analyzer: e.analyzer}}
}

// selectPaths resolves requested path names against the available ones.
func (e *Engine) selectPaths(names []string) ([]retrieve.Path, error) {
	avail := e.Paths()
	if len(names) == 0 {
		return avail, nil
	}
	var out []retrieve.Path
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		var found retrieve.Path
		for _, p := range avail {
			if p.Name() == n {
				found = p
			}
		}
		if found == nil {
			known := false
			for _, k := range retrieve.KnownPaths {
				known = known || k == n
			}
			if known {
				return nil, fmt.Errorf("%w: %q is not built into this version yet (available: %s)", retrieve.ErrPathUnavailable, n, pathNames(avail))
			}
			return nil, fmt.Errorf("%w: %q (known: %s)", retrieve.ErrUnknownPath, n, strings.Join(retrieve.KnownPaths, ", "))
		}
		dup := false
		for _, p := range out {
			dup = dup || p.Name() == n
		}
		if !dup {
			out = append(out, found)
		}
	}
	if len(out) == 0 {
		return avail, nil
	}
	return out, nil
}

// Ablations lists the path combinations this engine can search with, for
// the evaluation harness: every available path alone, and every larger
// combination once fusion exists.
func (e *Engine) Ablations() [][]string {
	var out [][]string
	for _, p := range e.Paths() {
		out = append(out, []string{p.Name()})
	}
	return out
}

func pathNames(ps []retrieve.Path) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name()
	}
	return strings.Join(names, ", ")
}

// Search answers a question with the best chunks, each once.
func (e *Engine) Search(ctx context.Context, question string, opts SearchOptions) ([]Hit, error) {
	start := time.Now()
	defer opts.Trace.add("total", start)
	k := opts.K
	if k <= 0 {
		k = DefaultK
	}
	paths, err := e.selectPaths(opts.Paths)
	if err != nil {
		return nil, err
	}
	if len(paths) > 1 {
		return nil, fmt.Errorf("searching with %d paths at once needs fusion, which this version does not have yet", len(paths))
	}
	depth := retrieve.Depth(k)
	type entry struct {
		chunk   index.StoredChunk
		score   float64
		passage string
		paths   map[string]int
	}
	var order []int64
	byID := make(map[int64]*entry)
	for _, p := range paths {
		t0 := time.Now()
		results, err := p.Retrieve(ctx, question, depth)
		opts.Trace.add("retrieve:"+p.Name(), t0)
		if err != nil {
			return nil, err
		}
		for rank, r := range results {
			en, ok := byID[r.Chunk.ID]
			if !ok {
				en = &entry{chunk: r.Chunk, score: r.Score, passage: r.Passage, paths: map[string]int{}}
				byID[r.Chunk.ID] = en
				order = append(order, r.Chunk.ID)
			}
			en.paths[p.Name()] = rank + 1
		}
	}
	t0 := time.Now()
	if len(order) > k {
		order = order[:k]
	}
	hits := make([]Hit, len(order))
	for i, id := range order {
		en := byID[id]
		hits[i] = hitFrom(en.chunk, i+1, en.score, en.paths)
		hits[i].Passage = en.passage
	}
	opts.Trace.add("merge", t0)
	return hits, nil
}

func hitFrom(c index.StoredChunk, rank int, score float64, paths map[string]int) Hit {
	h := Hit{
		Rank: rank, ID: c.UID, File: c.Path, Label: c.Label, Headings: c.Headings,
		Words: c.Words(), Text: c.Text, Score: score, Paths: paths, Title: c.DocTitle,
	}
	if h.Headings == nil {
		h.Headings = []string{}
	}
	if c.InSession {
		s := c.Session
		h.Session = &s
	}
	return h
}

// ChunkInfo is one chunk as listed by `oraculo chunks`.
type ChunkInfo struct {
	ID        string   `json:"id"`
	File      string   `json:"file"`
	Label     string   `json:"label"`
	Session   *int     `json:"session"`
	Headings  []string `json:"headings"`
	Words     int      `json:"words"`
	WordStart int      `json:"word_start"`
	WordEnd   int      `json:"word_end"`
	ByteStart int      `json:"byte_start"`
	ByteEnd   int      `json:"byte_end"`
	FirstLine string   `json:"first_line"`
	Text      string   `json:"text"`
}

// Chunks lists every chunk in document order, optionally only those of the
// given files or folders (paths relative to the ingested folder).
func (e *Engine) Chunks(ctx context.Context, paths []string) ([]ChunkInfo, error) {
	stored, err := e.idx.ListChunks(ctx, paths)
	if err != nil {
		return nil, err
	}
	out := make([]ChunkInfo, len(stored))
	for i, c := range stored {
		h := hitFrom(c, 0, 0, nil)
		out[i] = ChunkInfo{
			ID: c.UID, File: c.Path, Label: c.Label, Session: h.Session, Headings: h.Headings,
			Words: c.Words(), WordStart: c.WordStart, WordEnd: c.WordEnd, ByteStart: c.ByteStart, ByteEnd: c.ByteEnd,
			FirstLine: FirstLine(c.Text), Text: c.Text,
		}
	}
	return out, nil
}

// FirstLine returns the first non-blank line of a text, trimmed.
func FirstLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// Stats describes the index.
type Stats struct {
	index.Stats
	Path     string   `json:"path"`
	Settings Settings `json:"settings"`
}

// Stats counts what the index holds.
func (e *Engine) Stats(ctx context.Context) (Stats, error) {
	s, err := e.idx.Stats(ctx)
	if err != nil {
		return Stats{}, err
	}
	return Stats{Stats: s, Path: e.idx.Path(), Settings: e.settings}, nil
}
