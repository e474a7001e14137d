package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// kwNote is a note of the model corpus: each chunk's heading terms and
// its paragraphs' terms.
type kwNote struct {
	dmOnly   bool
	lang     string
	headings []string
	paras    [][]string
}

// kwPara is one paragraph of the model, as the index holds it.
type kwPara struct {
	id, chunk     int64
	ordinal       int
	note          *kwNote
	heading, body []string
	dmOnly        bool
	lang          string
}

// The Go scorer gives FTS5's bm25 bit for bit, on random corpora changed
// by additions, replacements, deletions and visibility flips in two
// languages: the table's statistics and each row's length read from
// FTS5's records, each matching row's score, and the ranking of the
// store's search for the DM and for players (who never get a DM-only
// paragraph).
func TestKWScoreIsFTS5(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { kwCheckCorpus(t, seed) })
	}
}

func kwCheckCorpus(t *testing.T, seed uint64) {
	ctx := context.Background()
	ix := testIndex(t)
	rng := rand.New(rand.NewPCG(seed, 31))
	vocab := make([]string, 40)
	for i := range vocab {
		vocab[i] = string(rune('a'+i%26)) + strings.Repeat(string(rune('a'+i/26)), 1+i%3)
	}
	// Zipf-like: a few terms in most paragraphs (IDF at its floor), most rare.
	word := func() string { return vocab[min(int(rng.ExpFloat64()*6), len(vocab)-1)] }
	words := func(lo, hi int) []string {
		w := make([]string, lo+rng.IntN(hi-lo+1))
		for i := range w {
			w[i] = word()
		}
		return w
	}
	notes := map[string]*kwNote{}
	write := func(path string, n *kwNote) {
		d := &store.DocumentRecord{Root: "/r", Path: path, SHA256: fmt.Sprint(rng.Uint64()), Title: path, Stamp: "s", DMOnly: n.dmOnly, Lang: n.lang}
		for i, h := range n.headings {
			c := store.ChunkRecord{ChunkData: store.ChunkData{UID: fmt.Sprintf("%s#%d", path, i), Hash: "x", Ordinal: i, Label: path, Text: "t"}, HeadingTerms: h}
			for j, p := range n.paras[i*3 : i*3+3] {
				c.Children = append(c.Children, store.ChildRecord{Ordinal: j, Terms: strings.Join(p, " ")})
			}
			d.Chunks = append(d.Chunks, c)
		}
		if err := ix.ReplaceDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
		notes[path] = n
	}
	fresh := func() *kwNote {
		n := &kwNote{dmOnly: rng.IntN(4) == 0, lang: []string{"es", "en"}[rng.IntN(2)]}
		for range 1 + rng.IntN(3) {
			n.headings = append(n.headings, strings.Join(words(0, 3), " "))
			for range 3 {
				n.paras = append(n.paras, words(1, 12))
			}
		}
		return n
	}
	for round := range 6 {
		for range 15 {
			path := fmt.Sprintf("n%d.md", rng.IntN(40))
			n, ok := notes[path]
			switch op := rng.IntN(10); {
			case ok && op == 0:
				if err := ix.DeleteDocument(ctx, "/r", path); err != nil {
					t.Fatal(err)
				}
				delete(notes, path)
			case ok && op < 3:
				flipped := *n
				flipped.dmOnly = !n.dmOnly
				write(path, &flipped)
			default:
				write(path, fresh())
			}
		}
		kwCheckRound(t, ix, notes, rng, vocab, round)
	}
}

// kwModel returns the model's paragraphs by their ids in the index.
func kwModel(t *testing.T, ix *Index, notes map[string]*kwNote) map[int64]*kwPara {
	ctx := context.Background()
	rows, err := ix.db.QueryContext(ctx, `SELECT c.id, c.chunk_id, c.ordinal, k.ordinal, d.path FROM children c
		JOIN chunks k ON k.id = c.chunk_id JOIN documents d ON d.id = k.doc_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]*kwPara{}
	for rows.Next() {
		p := &kwPara{}
		var chunkOrd int
		var path string
		if err := rows.Scan(&p.id, &p.chunk, &p.ordinal, &chunkOrd, &path); err != nil {
			t.Fatal(err)
		}
		n := notes[path]
		p.note, p.dmOnly, p.lang = n, n.dmOnly, n.lang
		p.heading, p.body = strings.Fields(n.headings[chunkOrd]), n.paras[chunkOrd*3+p.ordinal]
		out[p.id] = p
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func kwCheckRound(t *testing.T, ix *Index, notes map[string]*kwNote, rng *rand.Rand, vocab []string, round int) {
	ctx := context.Background()
	paras := kwModel(t, ix, notes)
	stats, err := readKWStats(ctx, ix.db)
	if err != nil {
		t.Fatal(err)
	}
	want := kwStats{rows: int64(len(paras))}
	for _, p := range paras {
		want.tokens += int64(len(p.heading) + len(p.body))
		n, ok, err := readKWRowTokens(ctx, ix.db, p.id)
		if err != nil || !ok || int(n) != len(p.heading)+len(p.body) {
			t.Fatalf("round %d: paragraph %d: length %d (%v, %v), want %d", round, p.id, n, ok, err, len(p.heading)+len(p.body))
		}
	}
	if stats != want {
		t.Fatalf("round %d: statistics %+v, want %+v", round, stats, want)
	}
	for q := range 12 {
		terms := make([]string, 1+rng.IntN(4))
		for i := range terms {
			terms[i] = vocab[rng.IntN(len(vocab))]
		}
		hw := []float64{1, 2, 1.7, 0.35}[q%4]
		scores := kwModelScores(paras, terms, hw, stats)
		kwCompareFTS5(t, ix, terms, hw, scores, round)
		for _, public := range []bool{false, true} {
			for _, lang := range []string{"", "es"} {
				kwCompareSearch(t, ix, paras, scores, terms, store.BM25Options{HeadingWeight: hw, Public: public, Lang: lang}, round)
			}
		}
	}
}

// kwModelScores scores every paragraph holding a term with kwScore over
// the model's counts: phrases in the query's order, each term once.
func kwModelScores(paras map[int64]*kwPara, terms []string, hw float64, stats kwStats) map[int64]float64 {
	var distinct []string
	for _, t := range terms {
		if !slices.Contains(distinct, t) {
			distinct = append(distinct, t)
		}
	}
	idf := make([]float64, len(distinct))
	for i, t := range distinct {
		held := int64(0)
		for _, p := range paras {
			if slices.Contains(p.heading, t) || slices.Contains(p.body, t) {
				held++
			}
		}
		idf[i] = kwIDF(stats.rows, held)
	}
	out := map[int64]float64{}
	for id, p := range paras {
		freq := make([]kwFreq, len(distinct))
		any := false
		for i, t := range distinct {
			for _, w := range p.heading {
				if w == t {
					freq[i].heading++
				}
			}
			for _, w := range p.body {
				if w == t {
					freq[i].body++
				}
			}
			any = any || freq[i] != kwFreq{}
		}
		if any {
			out[id] = kwScore(idf, freq, hw, int32(len(p.heading)+len(p.body)), stats.avgdl())
		}
	}
	return out
}

// kwCompareFTS5 checks every row FTS5 matches against the model's scores,
// bit for bit.
func kwCompareFTS5(t *testing.T, ix *Index, terms []string, hw float64, scores map[int64]float64, round int) {
	fts, err := allScores(context.Background(), ix.db, MatchQuery(terms), "", nil, hw)
	if err != nil {
		t.Fatal(err)
	}
	for id, s := range fts {
		if got, ok := scores[id]; !ok || math.Float64bits(got) != math.Float64bits(s) {
			t.Fatalf("round %d, %q hw %v: paragraph %d: Go %v (%v), FTS5 %v", round, terms, hw, id, got, ok, s)
		}
	}
	if len(fts) != len(scores) {
		t.Fatalf("round %d, %q: FTS5 matches %d paragraphs, the model %d", round, terms, len(fts), len(scores))
	}
}

// kwCompareSearch checks the store's search (plan, filters, order) against
// the model's ranking of the paragraphs opts lets through.
func kwCompareSearch(t *testing.T, ix *Index, paras map[int64]*kwPara, scores map[int64]float64, terms []string, opts store.BM25Options, round int) {
	ctx := context.Background()
	var want []int64
	for id := range scores {
		p := paras[id]
		if (opts.Public && p.dmOnly) || (opts.Lang != "" && p.lang != opts.Lang) {
			continue
		}
		want = append(want, id)
	}
	slices.SortFunc(want, func(a, b int64) int {
		if c := cmp.Compare(scores[a], scores[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	ps, err := ix.SearchParagraphs(ctx, terms, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	got, err := ps.Top(ctx, len(paras)+1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("round %d, %q %+v: %d paragraphs, the model %d", round, terms, opts, len(got), len(want))
	}
	for i, g := range got {
		p := paras[want[i]]
		if g.ChunkID != p.chunk || g.Ordinal != p.ordinal || math.Float64bits(g.Score) != math.Float64bits(-scores[want[i]]) {
			t.Fatalf("round %d, %q %+v: #%d is chunk %d ¶%d score %v, the model's chunk %d ¶%d score %v",
				round, terms, opts, i, g.ChunkID, g.Ordinal, g.Score, p.chunk, p.ordinal, -scores[want[i]])
		}
		if opts.Public && p.dmOnly {
			t.Fatalf("round %d: a player got DM-only paragraph %d", round, p.id)
		}
	}
}

// BenchmarkKWScore scores MatchBudget paragraphs on three phrases, the
// most a planned keyword search scores: what scoring costs in Go once
// the posting lists are in memory (FTS5's bm25 over as many rows is
// several ms at 100k chunks).
func BenchmarkKWScore(b *testing.B) {
	idf := []float64{kwIDF(600000, 4000), kwIDF(600000, 90000), kwIDF(600000, 400000)}
	freq := make([][]kwFreq, MatchBudget)
	for i := range freq {
		freq[i] = []kwFreq{{int32(i % 2), int32(1 + i%3)}, {0, int32(i % 4)}, {1, 0}}
	}
	avgdl := float64(12e6) / 600000
	b.ResetTimer()
	for range b.N {
		sum := 0.0
		for i, f := range freq {
			sum += kwScore(idf, f, 1, int32(10+i%30), avgdl)
		}
		if sum >= 0 {
			b.Fatal(sum)
		}
	}
}
