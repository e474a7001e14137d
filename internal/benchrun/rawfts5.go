package benchrun

import (
	"context"
	"database/sql"
	"sync"

	_ "modernc.org/sqlite" // the driver RawFTS5Insert opens

	"github.com/oraculo/oraculo/store"
)

// Records is a store.DocumentWriter that keeps the records an ingest
// would store, in order, instead of writing them: what a benchmark of
// the write alone inserts afterwards.
type Records struct {
	mu   sync.Mutex
	Docs []*store.DocumentRecord
}

// DocumentStates reports no stored note: every note is new.
func (w *Records) DocumentStates(context.Context, string) (map[string]store.DocumentState, error) {
	return nil, nil
}

// ReplaceDocument keeps d.
func (w *Records) ReplaceDocument(_ context.Context, d *store.DocumentRecord) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.Docs = append(w.Docs, d)
	return nil
}

// ReplaceDocuments keeps ds.
func (w *Records) ReplaceDocuments(ctx context.Context, ds []*store.DocumentRecord) (int, error) {
	for _, d := range ds {
		w.ReplaceDocument(ctx, d)
	}
	return len(ds), nil
}

// DeleteDocument does nothing: nothing is stored.
func (w *Records) DeleteDocument(context.Context, string, string) error { return nil }

// Redecide does nothing: nothing is stored.
func (w *Records) Redecide(context.Context, store.Decider, map[string]string) (int, error) {
	return 0, nil
}

// RawFTS5Insert is the floor a fresh ingest is measured against: every
// paragraph of docs (analysed beforehand) inserted straight into a
// contentless FTS5 table like the index's, in one transaction, on a fresh
// file at path with the index's journal settings. It returns how many
// paragraphs it wrote.
func RawFTS5Insert(path string, docs []*store.DocumentRecord) (int64, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE VIRTUAL TABLE fts USING fts5(headings, body, tokenize = "ascii", content = '', contentless_delete = 1)`); err != nil {
		return 0, err
	}
	tx, err := db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	ins, err := tx.Prepare(`INSERT INTO fts(rowid, headings, body) VALUES(?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	var rowid int64
	for _, d := range docs {
		for _, c := range d.Chunks {
			for _, ch := range c.Children {
				rowid++
				if _, err := ins.Exec(rowid, c.HeadingTerms, ch.Terms); err != nil {
					return 0, err
				}
			}
		}
	}
	return rowid, tx.Commit()
}
