package embed

import "context"

// Probe embeds text once, as a question, with em: the length of the one
// vector it gave, 0 when it gave none or not one.
func Probe(ctx context.Context, em Embedder, text string) (int, error) {
	vecs, err := em.Embed(ctx, Query, []string{text})
	if err != nil || len(vecs) != 1 {
		return 0, err
	}
	return len(vecs[0]), nil
}
