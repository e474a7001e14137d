package retrieve

import (
	"github.com/oraculo/oraculo/fuse"
	"github.com/oraculo/oraculo/store"
)

// Hit is one chunk a search found: the candidate every stage after
// retrieval reads (fusion ranks them, the reranker reorders them, the
// answer's evidence is chosen from them). Its JSON shape is public
// (`search --json`, `ask --json`'s candidates).
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
	// Prior is the factor the narrative prior multiplied the score by
	// (absent when none applied).
	Prior float64 `json:"prior,omitempty"`
	// PageStart and PageEnd are the pages of a paged document (a PDF) the
	// chunk spans, absent for notes.
	PageStart int `json:"page_start,omitempty"`
	PageEnd   int `json:"page_end,omitempty"`
	// Fusion is how the fusion made Score: each path's rank and
	// contribution, the narrative prior, and, when the entity path
	// reordered the other paths' candidates (see [fuse.EntityMargin]), the
	// share of the best base score and what the entity path added to it.
	Fusion fuse.Explanation `json:"-"`
	// Coverage is the share of the question its best paragraph holds, by
	// which the keyword path weighed its score (see [CoverageWeight]); 0
	// when BM25 did not find it.
	Coverage float64 `json:"-"`
	// Chunk is the chunk's row id in the index: what the later stages
	// look its annotation up by. It is never shown.
	Chunk int64 `json:"-"`
}

// HitFrom is chunk c as a hit at rank with score, found by paths.
func HitFrom(c store.Chunk, rank int, score float64, paths map[string]int) Hit {
	h := Hit{
		Rank: rank, ID: c.UID, File: c.Path, Label: c.Label, Headings: c.Headings,
		Words: c.Words(), Text: c.Text, Score: score, Paths: paths, Title: c.DocTitle,
		PageStart: c.PageStart, PageEnd: c.PageEnd,
		Chunk: c.ID,
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

// Chunks are the row ids of hits' chunks, in order.
func Chunks(hits []Hit) []int64 {
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.Chunk
	}
	return ids
}
