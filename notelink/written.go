package notelink

import (
	"context"
	"errors"

	"github.com/oraculo/oraculo/store"
)

// Gather returns the passages of the evidence's chunk ids, each once, in
// order: the one known has at hand (a candidate's text), else the one read
// reads for the audience. An id read reports [store.ErrNoChunk] for (a
// chunk replaced since, or one the audience may not see) is left out: its
// links are not known.
func Gather(ctx context.Context, ids []string, known func(id string) (Written, bool), read func(ctx context.Context, id string) (Written, error)) ([]Written, error) {
	var out []Written
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		w, ok := known(id)
		if !ok {
			var err error
			w, err = read(ctx, id)
			if errors.Is(err, store.ErrNoChunk) {
				continue
			}
			if err != nil {
				return nil, err
			}
		}
		out = append(out, w)
	}
	return out, nil
}
