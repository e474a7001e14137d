package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/libc"
)

// The pieces of a keyword index scored in Go, bit for bit as FTS5's
// bm25(children_fts, hw, 1.0) scores (sqlite's fts5_aux.c,
// fts5Bm25Function, as modernc.org/sqlite transpiles it): the table's
// statistics read from FTS5's own records, the IDF and the score in the
// same float64 operations in the same order. What is not here yet is the
// posting lists (each term's paragraphs and its frequency in each
// column): until they are, the search scores through FTS5.

// kwStats is what bm25 weighs a row against: the rows of the table (FTS5's
// xRowCount) and their tokens over both columns (xColumnTotalSize(-1)).
type kwStats struct {
	rows, tokens int64
}

// avgdl is the average row length, as bm25 computes it.
func (s kwStats) avgdl() float64 {
	return float64(s.tokens) / float64(s.rows)
}

// errKWRecord is a malformed FTS5 record.
var errKWRecord = errors.New("malformed keyword index record")

// readKWStats reads FTS5's averages record (children_fts_data id 1: the
// row count, then each column's total tokens, as varints).
func readKWStats(ctx context.Context, db queryer) (kwStats, error) {
	var rec []byte
	err := queryRow(ctx, db, `SELECT block FROM children_fts_data WHERE id = 1`).Scan(&rec)
	if err == sql.ErrNoRows {
		return kwStats{}, nil
	}
	if err != nil {
		return kwStats{}, fmt.Errorf("reading the keyword statistics: %w", err)
	}
	var s kwStats
	var n int
	var v uint64
	if v, n = kwVarint(rec); n == 0 {
		return kwStats{}, fmt.Errorf("reading the keyword statistics: %w", errKWRecord)
	}
	s.rows, rec = int64(v), rec[n:]
	for len(rec) > 0 {
		if v, n = kwVarint(rec); n == 0 {
			return kwStats{}, fmt.Errorf("reading the keyword statistics: %w", errKWRecord)
		}
		s.tokens, rec = s.tokens+int64(v), rec[n:]
	}
	return s, nil
}

// readKWRowTokens returns the tokens of a row over both columns
// (xColumnSize(-1)), from FTS5's docsize record (each column's, as
// varints); ok is false when the row has none.
func readKWRowTokens(ctx context.Context, db queryer, id int64) (n int32, ok bool, err error) {
	var rec []byte
	err = queryRow(ctx, db, `SELECT sz FROM children_fts_docsize WHERE id = ?`, id).Scan(&rec)
	if err == sql.ErrNoRows {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("reading the length of paragraph %d: %w", id, err)
	}
	for len(rec) > 0 {
		v, k := kwVarint(rec)
		if k == 0 {
			return 0, false, fmt.Errorf("reading the length of paragraph %d: %w", id, errKWRecord)
		}
		n, rec = n+int32(v), rec[k:]
	}
	return n, true, nil
}

// kwVarint decodes SQLite's varint (as FTS5's records hold them: big-end
// first, seven bits a byte, the ninth byte whole) and returns it and its
// length, 0 when b ends first.
func kwVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 9 && i < len(b); i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// kwIDF is bm25's IDF of a phrase held by held of rows rows:
// log((N − n + 0.5) / (n + 0.5)), 1e-6 when not above zero. The logarithm
// is the C library's FTS5 calls (modernc's libc, not Go's math.Log, whose
// last bit may differ).
func kwIDF(rows, held int64) float64 {
	// Xlog reads no thread state (it is pure arithmetic): nil stands for
	// it, as for every caller at once.
	idf := libc.Xlog(nil, (float64(rows-held)+float64(0.5))/(float64(held)+float64(0.5)))
	if idf <= 0 {
		idf = 1e-06
	}
	return idf
}

// kwFreq is how many times a phrase occurs in a row's heading column and
// in its body.
type kwFreq struct {
	heading, body int32
}

// kwScore is FTS5's bm25(children_fts, hw, 1.0) of a row of length d
// (tokens over both columns) holding the query's phrases freq times, idf
// their IDFs, in the query's order: negative, lower is better. Every
// operation is fts5Bm25Function's, in its order and with its roundings:
// a phrase's frequency sums the column weights of its instances one by
// one (heading first, then body, FTS5's instance order), and the products
// are rounded apart as the transpiled C rounds them (no fused
// multiply-add).
func kwScore(idf []float64, freq []kwFreq, hw float64, d int32, avgdl float64) float64 {
	k1, b := float64(1.2), float64(0.75)
	D := float64(d)
	score := float64(0)
	for i := range idf {
		f := float64(0)
		for range freq[i].heading {
			f += hw
		}
		for range freq[i].body {
			f += float64(1)
		}
		score = score + float64(idf[i]*(float64(f*(k1+float64(1)))/(f+float64(k1*(float64(1)-b+float64(b*D)/avgdl)))))
	}
	return float64(-float64(1) * score)
}
