package ingest

import (
	"context"
	"slices"
	"time"

	"github.com/oraculo/oraculo/store"
)

// racyWindow is how long before a run's start a file must have been last
// written for its stamp to be kept: a file written again within its
// filesystem's time granularity (up to 2 s on some) of the stamp taken
// would keep the same stamp, so a file written that recently is read at
// every run until it is older (git's "racily clean" entries).
var racyWindow = 2 * time.Second

// stamps are the file stamps of one [Update]: those the store holds, and
// those to store once the notes are written.
type stamps struct {
	keeper  store.FileStamper // nil: the store keeps none
	started time.Time
	stored  map[string]store.StampedFile
	put     []store.StampedFile
}

// loadStamps reads the stamps the store holds for root, when it keeps
// them.
func loadStamps(ctx context.Context, w store.DocumentWriter, root string, started time.Time) (*stamps, error) {
	s := &stamps{started: started}
	keeper, ok := w.(store.FileStamper)
	if !ok {
		return s, nil
	}
	stored, err := keeper.FileStamps(ctx, root)
	if err != nil {
		return nil, err
	}
	s.keeper, s.stored = keeper, stored
	return s, nil
}

// known returns the stored stamp of f when f is a regular file whose
// stamp equals it and its note is st, with the content stamped: the file
// was not written since its note was read.
func (s *stamps) known(f File, st store.DocumentState, maxBytes int64) (store.StampedFile, bool) {
	if s.keeper == nil || !f.stamped || f.Target != "" || f.Size > maxBytes {
		return store.StampedFile{}, false
	}
	sf, ok := s.stored[f.Path]
	return sf, ok && sf.SHA256 == st.SHA256 && sf.Stamp == f.stamp
}

// note keeps the stamp of a file read as note, reporting report, to store
// once its note is: unless the store holds it already, or the file was
// written too shortly before the run to tell a later write by its stamp.
func (s *stamps) note(f File, note *Note, report fileReport) {
	if s.keeper == nil || !f.stamped || f.Target != "" {
		return
	}
	last := max(f.stamp.ModNS, f.stamp.ChangeNS)
	if last >= s.started.Add(-racyWindow).UnixNano() {
		return
	}
	sf := store.StampedFile{Path: f.Path, SHA256: note.SHA256, Stamp: f.stamp, Repairs: report.repairs, Warnings: report.warnings}
	if old, ok := s.stored[f.Path]; ok && old.SHA256 == sf.SHA256 && old.Stamp == sf.Stamp &&
		old.Repairs == sf.Repairs && slices.Equal(old.Warnings, sf.Warnings) {
		return
	}
	s.put = append(s.put, sf)
}

// save stores the stamps kept.
func (s *stamps) save(ctx context.Context, root string) error {
	if s.keeper == nil || len(s.put) == 0 {
		return nil
	}
	return s.keeper.PutFileStamps(ctx, root, s.put)
}

// fileReport is what reading a file reports: its repairs and warnings,
// as they are before its document (PDF, ...) is loaded, which only a
// changed file is.
type fileReport struct {
	repairs  string
	warnings []string
}
