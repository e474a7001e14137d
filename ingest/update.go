package ingest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/visibility"
)

// Config says how [Update] reads, cuts, analyses and decides the notes.
type Config struct {
	// Stamp names the chunking and analysis settings below: a stored note
	// with the same content and stamp is left alone, any other is redone.
	Stamp string
	// Chunking are the options notes are cut with.
	Chunking chunk.Options
	// Terms analyses a text into the terms the keyword index stores.
	Terms func(text string) []string
	// AppendTerms, when set, appends the terms of a text, separated by
	// spaces, to a buffer, as strings.Join(Terms(text), " ") gives them
	// (see [analysis.Analyzer.AppendTerms]): the paragraphs are analysed
	// with it, without a string per term.
	AppendTerms func(dst []byte, text string) []byte
	// Detect, when set with Langs, recognises each note's language from
	// its title and text: the note is then cut (its labels), analysed and stamped as
	// Langs says for that language, and stored with it; Stamp and Terms
	// serve a language Langs lacks. Without it every note is in
	// Chunking.Lang.
	Detect func(text string) string
	// Langs are the analyses by language, for Detect.
	Langs map[string]LangAnalysis
	// Decide decides who may see a note, from what the store keeps of it
	// (so that a later decision from the store agrees with this one).
	Decide func(store.VisibilityRecord) visibility.Decision
	// Fence bounds what is read as a note: links followed only into the
	// ingested folders (unless it follows them outside), and never the
	// index's own files. Nil: the folder updated, and no file of its own.
	Fence *Fence
	// Workers is how many files are read and cut at once (default: CPUs).
	Workers int
	// MaxBytes is the largest file read (default DefaultMaxBytes).
	MaxBytes int64
	// BatchNotes, BatchBytes and BatchTime bound one write to the store:
	// the files handled are written together once BatchNotes of them
	// have gathered, BatchBytes of new or changed notes, or BatchTime
	// after the first of them (defaults DefaultBatchNotes,
	// DefaultBatchBytes, DefaultBatchTime).
	BatchNotes int
	BatchBytes int64
	BatchTime  time.Duration
	// Vault says which of the Obsidian vault's own exclusions (its
	// templates folder, its "Excluded files") to override; the folder's
	// vault settings are read at each update (see [ReadVault]).
	Vault VaultOptions
	// Progress, when set, is called after each file, once its note is
	// stored (so in bursts, one a write), on the goroutine that called
	// Update.
	Progress func(Progress)
}

// LangAnalysis is how the notes of one language are analysed.
type LangAnalysis struct {
	// Stamp names the chunking and analysis settings of the language's
	// notes, as [Config.Stamp] does.
	Stamp string
	// Terms analyses a text in the language, and AppendTerms, when set,
	// appends its terms as [Config.AppendTerms] does.
	Terms       func(text string) []string
	AppendTerms func(dst []byte, text string) []byte
}

// analysis returns the language of a note's text and how it is analysed.
func (c *Config) analysis(text string) (string, LangAnalysis) {
	if c.Detect != nil && len(c.Langs) > 0 {
		lang := c.Detect(text)
		if la, ok := c.Langs[lang]; ok {
			return lang, la
		}
	}
	return c.Chunking.Lang, LangAnalysis{Stamp: c.Stamp, Terms: c.Terms, AppendTerms: c.AppendTerms}
}

// current reports whether a note stored with stamp was cut and analysed
// as it would be now (its content unchanged): the stamp is that of one of
// the languages, and a note's language is recognised from its content
// alone.
func (c *Config) current(stamp string) bool {
	if stamp == c.Stamp && c.Terms != nil {
		return true
	}
	if c.Detect == nil {
		return false
	}
	for _, la := range c.Langs {
		if stamp == la.Stamp {
			return true
		}
	}
	return false
}

// The bounds of one write to the store. Writing many notes in one
// transaction spares a commit and an FTS5 segment per note; the bounds
// keep the memory an ingest holds, and the work a crash or an
// interruption loses, small.
const (
	DefaultBatchNotes = 1000
	DefaultBatchBytes = 4 << 20
	DefaultBatchTime  = time.Second
)

// Progress reports how far [Update] is in one folder.
type Progress struct {
	// Done of Total files were handled, Bytes of them so far.
	Done, Total int
	Bytes       int64
	// Path is the last file handled.
	Path string
	// Pages is how many pages of paged documents (PDF) were read so far.
	Pages int
}

// Problem is a file that was skipped, repaired or ingested with a warning.
type Problem struct {
	Root   string `json:"root"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// Result is what [Update] did in one folder.
type Result struct {
	// Files is how many note files were found.
	Files int
	// Indexed were new or changed and were (re)written; Unchanged were
	// identical to the stored version and not touched; Deleted left the
	// store because their files are gone.
	Indexed, Unchanged, Deleted int
	// Unread of the Unchanged were not read: their files' stamps (size,
	// times, identity) had not changed since their notes were read (see
	// [store.FileStamper]).
	Unread int
	// Bytes is the size of the files handled: those read and those whose
	// stamps told they had not changed (Unread).
	Bytes int64
	// NewChunks is how many chunks were written.
	NewChunks int
	// Skipped files, with the reason; Repaired and Warnings did get in.
	Skipped, Repaired, Warnings []Problem
	// Documents counts the documents that are not notes read (new or
	// changed) by format ("pdf", "docx", ...), and Pages their pages.
	Documents map[string]int
	Pages     int
	// Excluded counts the notes the folder's Obsidian settings left out,
	// by rule (see [ReadVault]); notes stored before from those files are
	// removed, as Deleted.
	Excluded []Exclusion
}

// Update brings the notes of root in w up to date: every note file under
// root is read and, when new or changed, cut, analysed and decided (who may
// see it), and written with its decision in one write; unchanged notes are
// left alone, and notes whose files are gone are removed. A file whose
// stamp (size, times, device and inode) the store keeps unchanged since
// its note was read is not read again (see [store.FileStamper]); any
// other is, and its content hash says whether it changed. Files are read
// and cut in parallel but written in path order, so that the same notes
// always get the same row ids (and ties rank the same); they are written in
// batches (see [Config.BatchNotes]), each note whole.
//
// An interrupted or failed run leaves every note either as it was or as
// it is now, and reports what it did so far: the files whose notes were
// stored (a file that failed does not undo the notes before it); only a
// complete walk removes notes. The error of a file names it.
func Update(ctx context.Context, w store.DocumentWriter, root string, cfg Config) (*Result, error) {
	if (cfg.Terms == nil && (cfg.Detect == nil || len(cfg.Langs) == 0)) || cfg.Decide == nil {
		return nil, errors.New("ingest: updating a folder needs Terms (or Detect and Langs) and Decide")
	}
	fence := cfg.Fence
	if fence == nil {
		fence = NewFence(Bounds{Roots: []string{root}})
	}
	started := time.Now() // before any file's stamp is taken
	listing, err := fence.Walk(root)
	if err != nil {
		return nil, err
	}
	vault := ReadVault(root, cfg.Vault)
	excluded := vault.filter(root, listing)
	states, err := w.DocumentStates(ctx, root)
	if err != nil {
		return nil, err
	}
	stamps, err := loadStamps(ctx, w, root, started)
	if err != nil {
		return nil, err
	}
	u := &update{w: w, root: root, cfg: cfg, fence: fence, states: states, stamps: stamps, total: len(listing.Files), gathering: &batch{},
		seen: make(map[string]bool, len(listing.Files)), keep: map[string]bool{},
		res: &Result{Files: len(listing.Files), Excluded: excluded}}
	for _, w := range vault.Warnings {
		w.Root = root
		u.res.Warnings = append(u.res.Warnings, w)
	}
	for _, sk := range listing.Skipped {
		u.res.Skipped = append(u.res.Skipped, Problem{Root: root, Path: sk.Path, Reason: string(sk.Reason), Detail: sk.Detail})
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if u.cfg.BatchNotes <= 0 {
		u.cfg.BatchNotes = DefaultBatchNotes
	}
	if u.cfg.BatchBytes <= 0 {
		u.cfg.BatchBytes = DefaultBatchBytes
	}
	if u.cfg.BatchTime <= 0 {
		u.cfg.BatchTime = DefaultBatchTime
	}
	prepare := func(i int) prepared { return u.prepare(listing.Files[i]) }
	write := func(_ int, p prepared) error { return u.add(ctx, p) }
	err = inOrder(ctx, len(listing.Files), workers, prepare, write)
	// An interrupted run drops the batch it was gathering: stopping
	// promptly matters more than the few notes the next run writes again.
	if err == nil && ctx.Err() == nil {
		err = u.flush(ctx)
	}
	if werr := u.collect(true); err == nil {
		err = werr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return u.res, err
	}
	if err := u.stamps.save(ctx, root); err != nil {
		return u.res, err
	}
	return u.res, u.removeGone(ctx, listing)
}

// update is one run of [Update] in one folder.
type update struct {
	w      store.DocumentWriter
	root   string
	cfg    Config
	fence  *Fence
	states map[string]store.DocumentState
	stamps *stamps
	total  int
	done   int
	// seen are the files found readable, keep those that could not be
	// read this time and keep their stored version.
	seen, keep map[string]bool
	res        *Result
	// gathering is the batch being filled; writing, when not nil, the
	// one before it, being written meanwhile.
	gathering, writing *batch
}

// batch is a run of files handled and not yet counted, in path order, and
// the notes among them to write: bytes is their size, and the first was
// added at started. Once written is closed, the first stored of records
// are in the store and err says why the others are not.
type batch struct {
	files   []prepared
	records []*store.DocumentRecord
	bytes   int64
	started time.Time
	written chan struct{}
	stored  int
	err     error
}

// prepared is one file read and cut, ready to be written: or, when note
// is nil and unchanged, one whose stamp says it was not written since its
// note was read (and report is what reading it reported then).
type prepared struct {
	file      File
	note      *Note
	skip      *Skip
	unchanged bool
	report    fileReport
	record    *store.DocumentRecord
	err       error
}

// add takes the next prepared file, in path order, into the batch being
// gathered, and writes the batch when it is full. A file that failed to be
// prepared ends the run, after the files before it are written.
func (u *update) add(ctx context.Context, p prepared) error {
	if err := u.collect(false); err != nil {
		return err
	}
	if p.err != nil {
		if err := u.flush(ctx); err != nil {
			return err
		}
		if err := u.collect(true); err != nil {
			return err
		}
		return p.err
	}
	b := u.gathering
	if len(b.files) == 0 {
		if p.record == nil && u.writing == nil {
			u.count(p) // nothing to write, nothing to wait for
			return nil
		}
		b.started = time.Now()
	}
	b.files = append(b.files, p)
	if p.record != nil {
		b.records = append(b.records, p.record)
		b.bytes += p.file.Size
	}
	if len(b.files) >= u.cfg.BatchNotes || b.bytes >= u.cfg.BatchBytes || time.Since(b.started) >= u.cfg.BatchTime {
		return u.flush(ctx)
	}
	return nil
}

// flush starts writing the batch gathered, once the write before it has
// ended, and returns; the files and notes of the next batch are prepared
// meanwhile. It returns the error of the write before.
func (u *update) flush(ctx context.Context) error {
	if err := u.collect(true); err != nil {
		return err
	}
	b := u.gathering
	u.gathering = &batch{}
	if len(b.records) == 0 {
		for _, p := range b.files {
			u.count(p)
		}
		return nil
	}
	b.written = make(chan struct{})
	u.writing = b
	go func() {
		defer close(b.written)
		b.stored, b.err = u.w.ReplaceDocuments(ctx, b.records)
	}()
	return nil
}

// collect counts the files of the batch being written, once its write has
// ended (at once, or not before it ends when wait): all of them, or, when
// a note failed, those before it, and returns the write's error.
func (u *update) collect(wait bool) error {
	b := u.writing
	if b == nil {
		return nil
	}
	if wait {
		<-b.written
	} else {
		select {
		case <-b.written:
		default:
			return nil
		}
	}
	u.writing = nil
	stored := b.stored
	for _, p := range b.files {
		if p.record != nil {
			if stored == 0 {
				break
			}
			stored--
		}
		u.count(p)
	}
	return b.err
}

// count adds one handled file to the result and reports progress.
func (u *update) count(p prepared) {
	u.done++
	u.seen[p.file.Path] = true
	u.res.Bytes += p.file.Size
	switch {
	case p.skip != nil:
		u.res.Skipped = append(u.res.Skipped, Problem{Root: u.root, Path: p.skip.Path, Reason: string(p.skip.Reason), Detail: p.skip.Detail})
		if p.skip.Reason == ReasonUnreadable || p.skip.Reason == ReasonDamaged {
			u.keep[p.file.Path] = true // maybe passing: keep what we had
		} else {
			u.seen[p.file.Path] = false
		}
	case p.unchanged:
		u.res.Unchanged++
		if p.note == nil {
			u.res.Unread++
		}
	default:
		u.res.Indexed++
		u.res.NewChunks += len(p.record.Chunks)
		if k := p.note.Kind; k != "" {
			if u.res.Documents == nil {
				u.res.Documents = map[string]int{}
			}
			u.res.Documents[k]++
			u.res.Pages += p.note.PageCount
		}
	}
	report := p.report
	if p.note != nil {
		report = fileReport{repairs: p.note.Repairs, warnings: p.note.Warnings}
		if p.skip == nil {
			u.stamps.note(p.file, p.note, p.report)
		}
	}
	if report.repairs != "" {
		u.res.Repaired = append(u.res.Repaired, Problem{Root: u.root, Path: p.file.Path, Reason: "repaired", Detail: report.repairs})
	}
	for _, w := range report.warnings {
		u.res.Warnings = append(u.res.Warnings, Problem{Root: u.root, Path: p.file.Path, Reason: "warning", Detail: w})
	}
	if u.cfg.Progress != nil {
		u.cfg.Progress(Progress{Done: u.done, Total: u.total, Bytes: u.res.Bytes, Path: p.file.Path, Pages: u.res.Pages})
	}
}

// removeGone removes the stored notes whose files are gone, in path order.
func (u *update) removeGone(ctx context.Context, listing *Listing) error {
	var gone []string
	for path := range u.states {
		if !u.seen[path] && !u.keep[path] && !listing.Covers(path) {
			gone = append(gone, path)
		}
	}
	sort.Strings(gone)
	for _, path := range gone {
		if err := u.w.DeleteDocument(ctx, u.root, path); err != nil {
			return err
		}
		u.res.Deleted++
	}
	return nil
}

// prepare reads, hashes and, when it changed, cuts and analyses one file,
// and decides who may see it.
func (u *update) prepare(f File) prepared {
	p := prepared{file: f}
	st, stored := u.states[f.Path]
	if stored && u.cfg.current(st.Stamp) {
		if sf, ok := u.stamps.known(f, st, u.maxBytes()); ok {
			p.unchanged, p.report = true, fileReport{repairs: sf.Repairs, warnings: sf.Warnings}
			return p
		}
	}
	note, skip := u.fence.Read(f, u.cfg.MaxBytes)
	if skip != nil {
		p.skip = skip
		return p
	}
	p.note = note
	vis := store.VisibilityRecord{Root: u.root, Path: f.Path, Metadata: note.Metadata}
	if f.Target != "" {
		vis.Link = visibility.LinkPath(u.root, f.Target)
	}
	if note.FrontMatterUnparsed {
		vis.FrontRaw = note.FrontMatterRaw
	}
	decision := u.cfg.Decide(vis)
	note.Warnings = append(note.Warnings, decision.Warnings...)
	p.report = fileReport{repairs: note.Repairs, warnings: slices.Clip(note.Warnings)}
	if stored && st.SHA256 == note.SHA256 && u.cfg.current(st.Stamp) {
		p.unchanged = true
		return p
	}
	if skip := note.LoadDocument(); skip != nil {
		p.note, p.skip = nil, skip
		return p
	}
	doc := chunk.Document{Path: f.Path, Title: note.Title, Text: note.Body}
	doc.Title = chunk.DocTitle(doc)
	lang, la := u.cfg.analysis(doc.Title + "\n" + note.Body)
	if la.Terms == nil {
		p.err = fmt.Errorf("analysing %q: no analysis for its language %q", f.Path, lang)
		return p
	}
	chunking := u.cfg.Chunking
	chunking.Lang = lang
	chunks, err := chunk.Split(doc, chunking)
	if err != nil {
		p.err = fmt.Errorf("chunking %q: %w", f.Path, err)
		return p
	}
	p.record = &store.DocumentRecord{
		Root: u.root, Path: f.Path, SHA256: note.SHA256, Size: note.Size, Title: doc.Title,
		Metadata: note.Metadata, Visibility: note.Visibility, Stamp: la.Stamp, Lang: lang,
		DMOnly: decision.DMOnly, DMReason: decision.Reason, DMDetail: decision.Detail, Link: vis.Link, FrontRaw: vis.FrontRaw,
		Chunks: make([]store.ChunkRecord, 0, len(chunks)),
	}
	for _, c := range chunks {
		cr := chunkRecord(f.Path, c, la)
		if first, last := note.PageRange(c.ByteStart, c.ByteEnd); first > 0 {
			cr.PageStart, cr.PageEnd = first, last
			cr.Label = PageLabel(cr.Label, first, last)
		}
		p.record.Chunks = append(p.record.Chunks, cr)
	}
	return p
}

// maxBytes is the largest file read.
func (u *update) maxBytes() int64 {
	if u.cfg.MaxBytes > 0 {
		return u.cfg.MaxBytes
	}
	return DefaultMaxBytes
}

// chunkRecord is what the store keeps of one chunk: its text, where it
// lies, and its heading path and paragraphs analysed as la says.
func chunkRecord(path string, c chunk.Chunk, la LangAnalysis) store.ChunkRecord {
	cr := store.ChunkRecord{
		ChunkData: store.ChunkData{
			UID: store.ChunkUID(path, c.Ordinal, c.Text), Hash: textHash(c.Text),
			Ordinal: c.Ordinal, Session: c.Session, InSession: c.InSession,
			Headings: c.Headings, Label: c.Label,
			WordStart: c.WordStart, WordEnd: c.WordEnd, ByteStart: c.ByteStart, ByteEnd: c.ByteEnd,
			Text: c.Text,
		},
		HeadingTerms: headingTerms(la.Terms, path, c.Headings),
		EmbedHash:    embedHash(c.Headings, c.Text),
	}
	if len(c.Children) == 0 {
		return cr
	}
	cr.Children = make([]store.ChildRecord, len(c.Children))
	terms := paragraphTerms(c.Children, la)
	for i, ch := range c.Children {
		cr.Children[i] = store.ChildRecord{Ordinal: ch.Ordinal, ByteStart: ch.ByteStart, ByteEnd: ch.ByteEnd, Terms: terms[i]}
	}
	return cr
}

// paragraphTerms are the analysed terms of each paragraph, space-separated:
// with AppendTerms, all of them in one string.
func paragraphTerms(children []chunk.Child, la LangAnalysis) []string {
	terms := make([]string, len(children))
	if la.AppendTerms == nil {
		for i, ch := range children {
			terms[i] = strings.Join(la.Terms(ch.Text), " ")
		}
		return terms
	}
	size := 0
	for _, ch := range children {
		size += len(ch.Text)
	}
	buf := make([]byte, 0, size)
	ends := make([]int, len(children))
	for i, ch := range children {
		buf = la.AppendTerms(buf, ch.Text)
		ends[i] = len(buf)
	}
	all, start := string(buf), 0
	for i, end := range ends {
		terms[i], start = all[start:end], end
	}
	return terms
}

// headingTerms is [store.HeadingTerms]: the keyword path reads a chunk's
// heading terms back with the same function.
func headingTerms(terms func(string) []string, path string, headings []string) string {
	return store.HeadingTerms(terms, path, headings)
}
