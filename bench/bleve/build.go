package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/cpuclock"
	"github.com/oraculo/oraculo/internal/synth"
)

// build is what one engine's index cost to make; zero when it was not
// made in this run.
type build struct {
	Wall    float64 `json:"wall_s"`
	CPU     float64 `json:"cpu_s"`
	Made    bool    `json:"made"`
	Bytes   int64   `json:"bytes"`
	Docs    int     `json:"docs"`
	Segment int     `json:"segments,omitempty"`
}

// clock measures a stretch of work in wall and process CPU seconds.
type clock struct {
	wall time.Time
	cpu  time.Duration
}

func startClock() clock { return clock{time.Now(), cpuclock.Process()} }

// stop returns the wall and CPU seconds since c started.
func (c clock) stop() (wall, cpu float64) {
	return time.Since(c.wall).Seconds(), (cpuclock.Process() - c.cpu).Seconds()
}

// synthIndex writes size synthetic sessions under dir and ingests them
// into dir/oraculo.db, timed; as BenchmarkBM25's indexes (synth.Write
// with 50 sessions a file, 120 words a session).
func synthIndex(ctx context.Context, dir string, size int) (string, build, error) {
	notes := filepath.Join(dir, "notes")
	if _, err := synth.Write(notes, size, 50, 120); err != nil {
		return "", build{}, fmt.Errorf("writing %d synthetic sessions: %w", size, err)
	}
	db := filepath.Join(dir, "oraculo.db")
	eng, err := oraculo.Open(ctx, db)
	if err != nil {
		return "", build{}, err
	}
	defer eng.Close()
	c := startClock()
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		return "", build{}, fmt.Errorf("ingesting %q: %w", notes, err)
	}
	b := build{Made: true}
	b.Wall, b.CPU = c.stop()
	return db, b, nil
}

// bleveDoc is one chunk as Bleve indexes it: its note's title and
// headings, then its text, in one field (Oráculo's keyword index holds
// both too).
type bleveDoc struct {
	Text string `json:"text"`
}

// docOf is the chunk as Bleve indexes it.
func docOf(ch oraculo.ChunkInfo) bleveDoc {
	heads := strings.Join(append([]string{ch.Title}, ch.Headings...), " ")
	return bleveDoc{Text: heads + "\n\n" + ch.Text}
}

// bleveMapping indexes a chunk's one field with the Spanish analyser,
// scored by scoring, lean: no term vectors (they serve highlighting),
// no doc values (sorting), no composite "_all" field (a second copy of
// the postings); the text is stored only when store is set (--load-text).
func bleveMapping(scoring string, store bool) *mapping.IndexMappingImpl {
	im := bleve.NewIndexMapping()
	im.DefaultAnalyzer = es.AnalyzerName
	im.DefaultField = "text"
	im.ScoringModel = bleveindex.BM25Scoring
	if scoring == "tfidf" {
		im.ScoringModel = bleveindex.TFIDFScoring
	}
	doc := bleve.NewDocumentMapping()
	f := bleve.NewTextFieldMapping()
	f.Analyzer = es.AnalyzerName
	f.Store, f.IncludeTermVectors, f.DocValues, f.IncludeInAll = store, false, false, false
	doc.AddFieldMappingsAt("text", f)
	doc.Dynamic = false
	im.DefaultMapping = doc
	return im
}

// bleveBatch is how many chunks go into one of Bleve's batches.
const bleveBatch = 1000

// buildBleve indexes the chunks (id, text and headings of each) in a new
// Bleve index at dir, timed, and merges it into one segment.
func buildBleve(ctx context.Context, dir, scoring string, store bool, chunks []oraculo.ChunkInfo) (bleve.Index, build, error) {
	c := startClock()
	idx, err := bleve.New(dir, bleveMapping(scoring, store))
	if err != nil {
		return nil, build{}, fmt.Errorf("creating the Bleve index %q: %w", dir, err)
	}
	batch := idx.NewBatch()
	for i, ch := range chunks {
		if err := batch.Index(ch.ID, docOf(ch)); err != nil {
			idx.Close()
			return nil, build{}, fmt.Errorf("indexing chunk %q: %w", ch.ID, err)
		}
		if batch.Size() == bleveBatch || i == len(chunks)-1 {
			if err := idx.Batch(batch); err != nil {
				idx.Close()
				return nil, build{}, fmt.Errorf("indexing in Bleve: %w", err)
			}
			batch.Reset()
		}
	}
	if err := oneSegment(ctx, idx); err != nil {
		idx.Close()
		return nil, build{}, err
	}
	b := build{Made: true, Docs: len(chunks)}
	b.Wall, b.CPU = c.stop()
	return idx, b, nil
}

// oneSegment merges the index into one segment: Bleve 2.6's BM25 takes
// the average field length from each segment, so that its scores move
// with the batching unless there is one.
func oneSegment(ctx context.Context, idx bleve.Index) error {
	adv, err := idx.Advanced()
	if err != nil {
		return fmt.Errorf("merging the Bleve index: %w", err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return fmt.Errorf("merging the Bleve index: not a scorch index (%T)", adv)
	}
	if err := s.ForceMerge(ctx, nil); err != nil {
		return fmt.Errorf("merging the Bleve index: %w", err)
	}
	return nil
}

// segments is how many file segments the index's root holds (0 when
// Bleve does not say).
func segments(idx bleve.Index) int {
	adv, err := idx.Advanced()
	if err != nil {
		return 0
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return 0
	}
	n, _ := s.StatsMap()["num_root_filesegments"].(uint64)
	return int(n)
}

// openOrBuildBleve opens the Bleve index at dir when it exists (built
// with the same scoring and the same number of chunks), else builds it
// from the chunks.
func openOrBuildBleve(ctx context.Context, dir, scoring string, store bool, chunks []oraculo.ChunkInfo) (bleve.Index, build, error) {
	if _, err := os.Stat(dir); err == nil {
		idx, err := bleve.Open(dir)
		if err != nil {
			return nil, build{}, fmt.Errorf("opening the Bleve index %q: %w", dir, err)
		}
		n, err := idx.DocCount()
		m, ok := idx.Mapping().(*mapping.IndexMappingImpl)
		if err != nil || int(n) != len(chunks) || !ok || (m.ScoringModel == bleveindex.BM25Scoring) != (scoring == "bm25") {
			idx.Close()
			return nil, build{}, fmt.Errorf("the Bleve index %q (%d documents) is not one of the Oráculo index's %d chunks scored by %s: remove it", dir, n, len(chunks), scoring)
		}
		return idx, build{Docs: int(n)}, nil
	}
	return buildBleve(ctx, dir, scoring, store, chunks)
}

// dirBytes is the size of the files under dir.
func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
