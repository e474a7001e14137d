package enrich

import (
	"context"
	"sync"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/store"
)

// EmbedStore is what embedding needs of the store: the chunks that have
// no vector yet, and a place to put vectors.
type EmbedStore interface {
	PendingEmbeddings(ctx context.Context, model string) ([]store.EmbedJob, error)
	PutEmbeddings(ctx context.Context, model string, hashes []string, vecs [][]float32) error
}

// EmbedReport says what an ingest did for the dense path.
type EmbedReport struct {
	Model    string `json:"model"`
	Embedded int    `json:"embedded"`
	// Pending counts what still has no vector (the server failed
	// part-way): [Embed] counts the texts it did not embed; an engine's
	// ingest reports the chunks the store counts without a vector
	// afterwards ([store.VectorStore.MissingVectors]).
	Pending int    `json:"pending"`
	Pruned  int64  `json:"pruned"`
	Error   string `json:"error,omitempty"`
}

// Embed embeds every chunk that has no vector for em yet (each distinct
// text once), storing each batch as it arrives, so that an interrupted or
// failed run keeps what it did and the next embeds only the rest. progress,
// when set, hears after each batch. The report counts what was embedded
// and what is still pending, also when an error is returned.
func Embed(ctx context.Context, s EmbedStore, em embed.Embedder, progress func(done, total int)) (EmbedReport, error) {
	rep := EmbedReport{Model: em.ID()}
	jobs, err := s.PendingEmbeddings(ctx, em.ID())
	if err != nil {
		return rep, err
	}
	rep.Pending = len(jobs)
	if len(jobs) == 0 {
		return rep, nil
	}
	texts := make([]string, len(jobs))
	for i, j := range jobs {
		texts[i] = j.Text
	}
	var mu sync.Mutex
	b := embed.Batch{Done: func(start int, vecs [][]float32) error {
		hashes := make([]string, len(vecs))
		for i := range vecs {
			hashes[i] = jobs[start+i].Hash
		}
		if err := s.PutEmbeddings(ctx, em.ID(), hashes, vecs); err != nil {
			return err
		}
		mu.Lock()
		rep.Embedded += len(vecs)
		rep.Pending -= len(vecs)
		done := rep.Embedded
		mu.Unlock()
		if progress != nil {
			progress(done, len(jobs))
		}
		return nil
	}}
	err = b.Run(ctx, em, embed.Passage, texts)
	mu.Lock()
	defer mu.Unlock()
	return rep, err
}
