package oraculo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/visibility"
)

// IngestOptions tune one ingest run. Zero values keep the index's stored
// settings (or the defaults for a new index).
type IngestOptions struct {
	// Lang is the notes' language ("es" or "en"). Changing it re-analyses
	// every note.
	Lang string
	// MaxWords and OverlapWords are the chunking cap and window overlap.
	// Changing them re-chunks every note.
	MaxWords     int
	OverlapWords int
	// OverlapSet makes OverlapWords count even when it is zero.
	OverlapSet bool
	// MaxFileBytes is the largest file read (default ingest.DefaultMaxBytes).
	MaxFileBytes int64
	// Workers is how many files are read and chunked at once (default: CPUs).
	Workers int
	// Progress, when set, is called after each file.
	Progress func(Progress)
	// AnnotateWorkers is how many chunks the chat model annotates at once
	// (default 2).
	AnnotateWorkers int
	// SecretFolders are the folders whose notes are DM-only, matched at
	// any depth whatever the case and accents (see package visibility for
	// the other ways a note is DM-only). Nil keeps the index's
	// (DefaultSecretFolders for a new one); SecretFoldersSet makes an empty
	// list count (no folder). A new list re-decides every stored note, in
	// one transaction, before the ingest writes anything else.
	SecretFolders    []string
	SecretFoldersSet bool
}

// Progress reports an ingest's advance.
type Progress struct {
	// Stage is "read" while notes are read and indexed, "embed" while the
	// dense path's vectors are computed, "graph" while the vector graph is
	// built, "annotate" while the chat model describes chunks.
	Stage string
	Root  string
	Done  int
	Total int
	Bytes int64
	Path  string
}

// Problem is a file that was skipped, repaired or ingested with a warning.
type Problem struct {
	Root   string `json:"root"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// IngestReport summarises an ingest run.
type IngestReport struct {
	Roots []string `json:"roots"`
	// Files is how many note files were found.
	Files int `json:"files"`
	// Indexed were new or changed and were (re)written.
	Indexed int `json:"indexed"`
	// Unchanged were found identical to the stored version and not touched.
	Unchanged int `json:"unchanged"`
	// Deleted left the index because their files are gone.
	Deleted int `json:"deleted"`
	// Bytes is the size of the files read.
	Bytes int64 `json:"bytes"`
	// Skipped files, with the reason; Repaired and Warnings did get in.
	Skipped  []Problem `json:"skipped"`
	Repaired []Problem `json:"repaired"`
	Warnings []Problem `json:"warnings"`
	// NewChunks is how many chunks this run wrote.
	NewChunks int `json:"new_chunks"`
	// Entities is how many entities the rebuilt compendium holds.
	Entities int `json:"entities"`
	// Embed says what was done for the dense path (nil without embedder).
	Embed *EmbedReport `json:"embed,omitempty"`
	// Annotate says what was done for annotations (nil without a chat
	// model).
	Annotate *AnnotateReport `json:"annotate,omitempty"`
	// SecretFolders are the folders whose notes are DM-only.
	SecretFolders []string `json:"secret_folders"`
	// Totals in the index after the run.
	Stats    index.Stats `json:"stats"`
	Settings Settings    `json:"settings"`
	Elapsed  Duration    `json:"elapsed_seconds"`
}

// Duration marshals as seconds.
type Duration time.Duration

// MarshalJSON implements json.Marshaler.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(strconv.FormatFloat(time.Duration(d).Seconds(), 'f', 3, 64)), nil
}

// ValidateIngestOptions checks the explicit choices in opts without touching
// an index, so that a typo fails before any file is created.
func ValidateIngestOptions(opts IngestOptions) error {
	if opts.Lang != "" {
		if _, err := analysis.New(opts.Lang); err != nil {
			return err
		}
	}
	if opts.MaxWords < 0 {
		return fmt.Errorf("max words must be at least 1, got %d", opts.MaxWords)
	}
	if opts.OverlapWords < 0 {
		return fmt.Errorf("overlap words cannot be negative, got %d", opts.OverlapWords)
	}
	if opts.MaxWords > 0 && (opts.OverlapWords != 0 || opts.OverlapSet) && opts.OverlapWords >= opts.MaxWords {
		return fmt.Errorf("overlap words must be between 0 and max words - 1 (%d), got %d", opts.MaxWords-1, opts.OverlapWords)
	}
	return nil
}

// Ingest reads every note under the folders and brings the index up to
// date: new and changed notes are (re)written, each in its own transaction,
// unchanged ones are left alone, and notes whose files are gone are removed.
// An interrupted run leaves a consistent index that the next run completes.
func (e *Engine) Ingest(ctx context.Context, dirs []string, opts IngestOptions) (*IngestReport, error) {
	start := time.Now()
	if len(dirs) == 0 {
		return nil, fmt.Errorf("ingest: no folder given")
	}
	// Who may see what is settled first: a new list of secret folders
	// applies to every stored note before any note is written.
	folders, err := e.secretFolders(ctx, opts)
	if err != nil {
		return nil, err
	}
	rules, err := e.settleVisibility(ctx, folders)
	if err != nil {
		return nil, err
	}
	// The settings stored now (another process may have changed them),
	// then those the options change.
	s, _, err := e.readSettings(ctx)
	if err != nil {
		return nil, err
	}
	if opts.Lang != "" {
		s.Lang = opts.Lang
	}
	if opts.MaxWords != 0 {
		s.MaxWords = opts.MaxWords
	}
	switch {
	case opts.OverlapWords != 0 || opts.OverlapSet:
		s.OverlapWords = opts.OverlapWords
	case opts.MaxWords != 0:
		// A new cap without an overlap: keep the seed's ratio (120 of 1200).
		s.OverlapWords = opts.MaxWords / 10
	}
	// Searches read their own view's settings, never these.
	if err := e.apply(s); err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	if err := e.saveSettings(ctx); err != nil {
		return nil, err
	}
	roots := make([]string, len(dirs))
	for i, d := range dirs {
		r, err := absRoot(d)
		if err != nil {
			return nil, err
		}
		roots[i] = r
	}
	known, err := e.idx.Roots(ctx)
	if err != nil {
		return nil, err
	}
	overlaps, err := overlappingRoots(roots, known)
	if err != nil {
		return nil, err
	}
	rep := &IngestReport{Roots: roots, Settings: e.settings, SecretFolders: folders}
	for _, w := range overlaps {
		rep.Warnings = append(rep.Warnings, Problem{Root: w[0], Reason: "warning", Detail: fmt.Sprintf(
			"%q and %q, ingested earlier, overlap: the notes they share are indexed once per folder; ingest one folder that holds all your notes into a fresh index", w[0], w[1])})
	}
	for _, root := range roots {
		if err := e.ingestRoot(ctx, root, rules, opts, rep); err != nil {
			return rep, err
		}
	}
	// The notes' visibility and sessions changed: searches load them again.
	e.invalidate()
	if err := e.buildCompendium(ctx, roots, rep); err != nil {
		return rep, err
	}
	if e.Embedder() != nil {
		if err := e.ingestEmbeddings(ctx, opts, rep); err != nil {
			return rep, err
		}
	}
	if e.ChatModel() != nil {
		if err := e.ingestAnnotations(ctx, opts, rep); err != nil {
			return rep, err
		}
	}
	// An ingest told "none" remembers it: later commands run without the
	// model until an ingest names one again.
	e.mu.Lock()
	embedCfg, chatCfg := e.embedCfg, e.chatCfg
	e.mu.Unlock()
	if embedCfg.Provider == ProviderNone {
		if err := e.saveEmbedderConfig(ctx, embedCfg); err != nil {
			return rep, err
		}
	}
	if chatCfg.Provider == ProviderNone {
		if err := e.saveChatConfig(ctx, chatCfg); err != nil {
			return rep, err
		}
	}
	st, err := e.idx.Stats(ctx)
	if err != nil {
		return rep, err
	}
	rep.Stats = st
	// Other processes serving this index (oraculo serve) see the new
	// generation and drop their caches.
	if err := e.bumpGeneration(ctx); err != nil {
		return rep, err
	}
	rep.Elapsed = Duration(time.Since(start))
	return rep, nil
}

// ingestEmbeddings brings the dense path's vectors up to date. A server
// that fails is a warning, not an error: the notes are in, BM25 works, and
// the next run embeds what is left.
func (e *Engine) ingestEmbeddings(ctx context.Context, opts IngestOptions, rep *IngestReport) error {
	if err := e.saveEmbedderConfig(ctx, e.embedCfg); err != nil {
		return err
	}
	var progress func(done, total int)
	if opts.Progress != nil {
		progress = func(done, total int) { opts.Progress(Progress{Stage: "embed", Done: done, Total: total}) }
	}
	er, err := e.embedPending(ctx, progress)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		er.Error = err.Error()
		rep.Warnings = append(rep.Warnings, Problem{Reason: "embed", Detail: fmt.Sprintf(
			"%v; %d chunks have no vector yet: keyword search works, and the next ingest embeds them", err, er.Pending)})
	}
	if er.Pruned, err = e.idx.PruneEmbeddings(ctx); err != nil {
		return err
	}
	var graphProgress func(done, total int)
	if opts.Progress != nil {
		graphProgress = func(done, total int) { opts.Progress(Progress{Stage: "graph", Done: done, Total: total}) }
	}
	if err := e.buildGraph(ctx, graphProgress); err != nil {
		return err
	}
	rep.Embed = &er
	return nil
}

// prepared is one file read and cut, ready to be written.
type prepared struct {
	seq       int // position in the listing: notes are written in path order
	file      ingest.File
	note      *ingest.Note
	skip      *ingest.Skip
	unchanged bool
	record    *index.DocumentRecord
	err       error
}

func (e *Engine) ingestRoot(ctx context.Context, root string, rules visibility.Rules, opts IngestOptions, rep *IngestReport) error {
	listing, err := ingest.Walk(root)
	if err != nil {
		return err
	}
	states, err := e.idx.DocumentStates(ctx, root)
	if err != nil {
		return err
	}
	for _, sk := range listing.Skipped {
		rep.Skipped = append(rep.Skipped, Problem{Root: root, Path: sk.Path, Reason: string(sk.Reason), Detail: sk.Detail})
	}
	rep.Files += len(listing.Files)
	stamp := e.stamp()

	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		seq  int
		file ingest.File
	}
	jobs := make(chan job)
	results := make(chan prepared)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				p := e.prepare(root, j.file, rules, states, stamp, opts.MaxFileBytes)
				p.seq = j.seq
				results <- p
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i, f := range listing.Files {
			select {
			case jobs <- job{i, f}:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	seen := make(map[string]bool, len(listing.Files))
	keep := make(map[string]bool)
	done := 0
	var firstErr error
	// Notes are prepared in parallel but written in path order, so that the
	// same notes always get the same row ids (and ties rank the same).
	pending := map[int]prepared{}
	next := 0
	ordered := make(chan prepared)
	go func() {
		defer close(ordered)
		for p := range results {
			pending[p.seq] = p
			for {
				q, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				ordered <- q
			}
		}
	}()
	for p := range ordered {
		done++
		seen[p.file.Path] = true
		if firstErr != nil {
			continue // drain the workers
		}
		rep.Bytes += p.file.Size
		switch {
		case p.err != nil:
			firstErr = p.err
		case p.skip != nil:
			rep.Skipped = append(rep.Skipped, Problem{Root: root, Path: p.skip.Path, Reason: string(p.skip.Reason), Detail: p.skip.Detail})
			if p.skip.Reason == ingest.ReasonUnreadable {
				keep[p.file.Path] = true // maybe passing: keep what we had
			} else {
				seen[p.file.Path] = false
			}
		case p.unchanged:
			rep.Unchanged++
		default:
			if err := e.idx.ReplaceDocument(ctx, p.record); err != nil {
				firstErr = err
				continue
			}
			rep.Indexed++
			rep.NewChunks += len(p.record.Chunks)
		}
		if p.note != nil {
			if p.note.Repairs != "" {
				rep.Repaired = append(rep.Repaired, Problem{Root: root, Path: p.file.Path, Reason: "repaired", Detail: p.note.Repairs})
			}
			for _, w := range p.note.Warnings {
				rep.Warnings = append(rep.Warnings, Problem{Root: root, Path: p.file.Path, Reason: "warning", Detail: w})
			}
		}
		if opts.Progress != nil {
			opts.Progress(Progress{Stage: "read", Root: root, Done: done, Total: len(listing.Files), Bytes: rep.Bytes, Path: p.file.Path})
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// Only a complete walk may conclude that a note is gone.
	var gone []string
	for path := range states {
		if !seen[path] && !keep[path] && !listing.Covers(path) {
			gone = append(gone, path)
		}
	}
	sort.Strings(gone)
	for _, path := range gone {
		if err := e.idx.DeleteDocument(ctx, root, path); err != nil {
			return err
		}
		rep.Deleted++
	}
	return nil
}

// prepare reads, hashes and, when it changed, cuts and analyses one file,
// and decides who may see it.
func (e *Engine) prepare(root string, f ingest.File, rules visibility.Rules, states map[string]index.DocumentState, stamp string, maxBytes int64) prepared {
	p := prepared{file: f}
	note, skip := ingest.Read(f, maxBytes)
	if skip != nil {
		p.skip = skip
		return p
	}
	p.note = note
	vis := index.VisibilityRecord{Root: root, Path: f.Path, Metadata: note.Metadata}
	if f.Target != "" {
		vis.Link = visibility.LinkPath(root, f.Target)
	}
	if note.FrontMatterUnparsed {
		vis.FrontRaw = note.FrontMatterRaw
	}
	decision := decideStored(rules, vis)
	note.Warnings = append(note.Warnings, decision.Warnings...)
	if st, ok := states[f.Path]; ok && st.SHA256 == note.SHA256 && st.Stamp == stamp {
		p.unchanged = true
		return p
	}
	doc := chunk.Document{Path: f.Path, Title: note.Title, Text: note.Body}
	doc.Title = chunk.DocTitle(doc)
	chunks, err := chunk.Split(doc, chunk.Options{MaxWords: e.settings.MaxWords, OverlapWords: e.settings.OverlapWords, Lang: e.settings.Lang})
	if err != nil {
		p.err = fmt.Errorf("chunking %q: %w", f.Path, err)
		return p
	}
	rec := &index.DocumentRecord{
		Root: root, Path: f.Path, SHA256: note.SHA256, Size: note.Size, Title: doc.Title,
		Metadata: note.Metadata, Visibility: note.Visibility, Stamp: stamp,
		DMOnly: decision.DMOnly, DMReason: decision.Reason, DMDetail: decision.Detail, Link: vis.Link, FrontRaw: vis.FrontRaw,
		Chunks: make([]index.ChunkRecord, 0, len(chunks)),
	}
	for _, c := range chunks {
		cr := index.ChunkRecord{
			ChunkData: index.ChunkData{
				UID: chunkUID(root, f.Path, c.Ordinal, c.Text), Hash: textHash(c.Text),
				Ordinal: c.Ordinal, Session: c.Session, InSession: c.InSession,
				Headings: c.Headings, Label: c.Label,
				WordStart: c.WordStart, WordEnd: c.WordEnd, ByteStart: c.ByteStart, ByteEnd: c.ByteEnd,
				Text: c.Text,
			},
			HeadingTerms: strings.Join(e.analyzer.Terms(strings.Join(c.Headings, "\n")), " "),
			EmbedHash:    textHash(index.EmbedText(c.Headings, c.Text)),
		}
		for _, ch := range c.Children {
			cr.Children = append(cr.Children, index.ChildRecord{
				Ordinal: ch.Ordinal, ByteStart: ch.ByteStart, ByteEnd: ch.ByteEnd,
				Terms: strings.Join(e.analyzer.Terms(ch.Text), " "),
			})
		}
		rec.Chunks = append(rec.Chunks, cr)
	}
	p.record = rec
	return p
}

// chunkUID is a chunk's public id: stable while its note's path and text
// stay the same, different as soon as the text changes.
func chunkUID(root, path string, ordinal int, text string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00", root, path, ordinal)
	h.Write([]byte(text))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func textHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// overlappingRoots refuses folders of one ingest that lie inside one
// another (their shared notes would be indexed twice), and returns the
// pairs (new, earlier) where a folder overlaps one ingested before.
func overlappingRoots(roots, known []string) ([][2]string, error) {
	inside := func(a, b string) bool { // a is b or lies under b
		return a == b || strings.HasPrefix(a, strings.TrimSuffix(b, string(filepath.Separator))+string(filepath.Separator))
	}
	for _, a := range roots {
		for _, b := range roots {
			if a != b && inside(a, b) {
				return nil, fmt.Errorf("ingest: %q lies inside %q: its notes would be indexed twice; give only %q", a, b, b)
			}
		}
	}
	var out [][2]string
	for _, a := range roots {
		for _, b := range known {
			if a != b && (inside(a, b) || inside(b, a)) {
				out = append(out, [2]string{a, b})
			}
		}
	}
	return out, nil
}
