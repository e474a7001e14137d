package enrich

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/store"
)

// memVectors is an in-memory EmbedStore over texts given by hash.
type memVectors struct {
	mu      sync.Mutex
	texts   []store.EmbedJob
	vectors map[string][]float32 // "model hash"
	putErr  error
	puts    int
}

func newMemVectors(n int) *memVectors {
	s := &memVectors{vectors: map[string][]float32{}}
	for i := range n {
		s.texts = append(s.texts, store.EmbedJob{Hash: fmt.Sprintf("h%02d", i), Text: fmt.Sprintf("La nota %d habla del dragón número %d.", i, i)})
	}
	return s
}

func (s *memVectors) PendingEmbeddings(_ context.Context, model string) ([]store.EmbedJob, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.EmbedJob
	for _, j := range s.texts {
		if _, ok := s.vectors[model+" "+j.Hash]; !ok {
			out = append(out, j)
		}
	}
	return out, nil
}

func (s *memVectors) PutEmbeddings(_ context.Context, model string, hashes []string, vecs [][]float32) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	if s.putErr != nil && s.puts > 1 {
		return s.putErr
	}
	for i, h := range hashes {
		s.vectors[model+" "+h] = vecs[i]
	}
	return nil
}

// TestEmbed: every pending text is embedded once and stored by its hash,
// with progress after each batch; a second run has nothing to do; a store
// that fails part-way leaves the report counting what is still pending,
// and the next run embeds only that.
func TestEmbed(t *testing.T) {
	ctx := context.Background()
	em := embed.NewHashing(64)
	s := newMemVectors(40) // two batches of at most 32
	var last [2]int
	rep, err := Embed(ctx, s, em, func(done, total int) { last = [2]int{done, total} })
	if err != nil || rep.Embedded != 40 || rep.Pending != 0 || rep.Model != em.ID() {
		t.Fatalf("first run: %+v %v", rep, err)
	}
	if len(s.vectors) != 40 || last != [2]int{40, 40} {
		t.Fatalf("%d vectors stored, last progress %v", len(s.vectors), last)
	}
	want, _ := em.Embed(ctx, embed.Passage, []string{s.texts[7].Text})
	if got := s.vectors[em.ID()+" h07"]; fmt.Sprint(got) != fmt.Sprint(want[0]) {
		t.Error("the vector stored under a hash is not its text's")
	}
	if rep, err = Embed(ctx, s, em, nil); err != nil || rep.Embedded != 0 || rep.Pending != 0 {
		t.Fatalf("second run: %+v %v", rep, err)
	}

	broken := newMemVectors(40)
	broken.putErr = errors.New("disk full")
	rep, err = Embed(ctx, broken, em, nil)
	if !errors.Is(err, broken.putErr) || rep.Embedded+rep.Pending != 40 || rep.Embedded != len(broken.vectors) || rep.Pending == 0 {
		t.Fatalf("a store failing after the first batch: %+v %v (%d stored)", rep, err, len(broken.vectors))
	}
	broken.putErr = nil
	if rep2, err := Embed(ctx, broken, em, nil); err != nil || rep2.Embedded != rep.Pending || len(broken.vectors) != 40 {
		t.Fatalf("the run after: %+v %v, %d stored", rep2, err, len(broken.vectors))
	}
}
