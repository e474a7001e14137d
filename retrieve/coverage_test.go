package retrieve_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// countingStore is a memStore that counts its terms, as the real stores
// do: the keyword path then weighs how much of the question each chunk
// holds.
type countingStore struct{ *memStore }

var _ store.TermCounter = countingStore{}

func (s countingStore) TermCounts(_ context.Context, terms []string) ([]int64, int64, error) {
	held := make([]int64, len(terms))
	for i, t := range terms {
		for _, ts := range s.terms {
			if slices.Contains(ts, t) {
				held[i]++
			}
		}
	}
	return held, int64(len(s.terms)), s.err
}

func files(rs []retrieve.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Chunk.Path)
	}
	return out
}

// The memStore scores a chunk by the question's terms it holds, counted
// with repetition: a chunk that repeats one word beats the one holding
// the rest of the question. With the store's term counts the keyword path
// puts the chunk that holds the rarer, other terms first; without them
// the store's order stands.
func TestCoverageReordersRepetition(t *testing.T) {
	a, err := analysis.New("es")
	if err != nil {
		t.Fatal(err)
	}
	chunks := []store.Chunk{
		{ID: 1, Path: "Sociedad.md", ChunkData: store.ChunkData{Text: "La sociedad, la sociedad y otra sociedad con capital."}},
		{ID: 2, Path: "Gerencia.md", ChunkData: store.ChunkData{Text: "Cualquier socio puede administrar la sociedad."}},
	}
	for i := range 6 {
		chunks = append(chunks, store.Chunk{ID: int64(10 + i), Path: fmt.Sprintf("Tema %d.md", i), ChunkData: store.ChunkData{Text: "El capital de la empresa."}})
	}
	const q = "¿Quién puede administrar el capital de la sociedad?"
	plain := newMemStore(t, a, chunks)
	rs, err := retrieve.BM25{Index: plain, Analyzer: a}.Retrieve(context.Background(), q, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := files(rs); got[0] != "Sociedad.md" {
		t.Fatalf("without term counts: %v, want the store's order (Sociedad.md first)", got)
	}
	rs, err = retrieve.BM25{Index: countingStore{newMemStore(t, a, chunks)}, Analyzer: a}.Retrieve(context.Background(), q, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := files(rs); got[0] != "Gerencia.md" {
		t.Errorf("with term counts: %v, want Gerencia.md first (it holds the rare \"administrar\")", got)
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].Score > rs[i-1].Score {
			t.Errorf("scores rise at %d: %v", i, rs)
		}
	}
}

// Coverage reorders whole blocks of the store's order, so the first n of
// a search are the first n of any longer one, across a block's edge too,
// and the scores never rise.
func TestCoverageKeepsPrefixes(t *testing.T) {
	a, err := analysis.New("es")
	if err != nil {
		t.Fatal(err)
	}
	var chunks []store.Chunk
	words := []string{"molino", "puerta", "llave", "río"}
	for i := range 2*retrieve.CoverageBlock + 17 {
		// Repetitions set the store's score, the mix of words the
		// coverage: the two orders disagree.
		text := strings.Repeat("molino ", 1+i%5) + strings.Join(words[1:1+i%3], " ")
		chunks = append(chunks, store.Chunk{ID: int64(i + 1), Path: fmt.Sprintf("n%03d.md", i), ChunkData: store.ChunkData{Text: text}})
	}
	p := retrieve.BM25{Index: countingStore{newMemStore(t, a, chunks)}, Analyzer: a}
	const q = "la llave de la puerta del molino junto al río"
	all, err := p.Retrieve(context.Background(), q, len(chunks))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := retrieve.BM25{Index: newMemStore(t, a, chunks), Analyzer: a}.Retrieve(context.Background(), q, len(chunks))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(files(all), files(plain)) {
		t.Fatal("coverage changed nothing: the test proves nothing")
	}
	for i := 1; i < len(all); i++ {
		if all[i].Score > all[i-1].Score {
			t.Fatalf("scores rise at %d: %g after %g", i, all[i].Score, all[i-1].Score)
		}
	}
	for _, n := range []int{1, 7, retrieve.CoverageBlock - 1, retrieve.CoverageBlock, retrieve.CoverageBlock + 1, 2*retrieve.CoverageBlock + 3} {
		got, err := p.Retrieve(context.Background(), q, n)
		if err != nil {
			t.Fatal(err)
		}
		if want := files(all)[:n]; !slices.Equal(files(got), want) {
			t.Errorf("n = %d: the first %d differ from a longer search's", n, n)
		}
	}
}

// A score is the same at every run: the shares of the question's terms
// are summed in one order, not in a map's, whose order changes between
// runs and moves a float's last bits, enough to swap two hits of equal
// score.
func TestCoverageScoresRepeat(t *testing.T) {
	a, err := analysis.New("es")
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Fields("dragón espada castillo reina molino gigante escudero posada camino batalla")
	var chunks []store.Chunk
	for i := range 12 {
		// Each chunk holds a different run of the words, so that each
		// term has its own weight and each chunk its own share.
		text := strings.Join(words[i%len(words):min(len(words), i%len(words)+1+i%4)], " ")
		chunks = append(chunks, store.Chunk{ID: int64(i + 1), Path: fmt.Sprintf("N%d.md", i), ChunkData: store.ChunkData{Text: text + " y algo más."}})
	}
	q := strings.Join(words, " ")
	search := func() []float64 {
		rs, err := retrieve.BM25{Index: countingStore{newMemStore(t, a, chunks)}, Analyzer: a}.Retrieve(context.Background(), q, 12)
		if err != nil {
			t.Fatal(err)
		}
		var scores []float64
		for _, r := range rs {
			scores = append(scores, r.Score)
		}
		return scores
	}
	first := search()
	for range 30 {
		if got := search(); !slices.Equal(got, first) {
			t.Fatalf("the scores changed between runs:\n%v\n%v", first, got)
		}
	}
}
