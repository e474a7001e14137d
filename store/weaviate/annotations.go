package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/oraculo/oraculo/store"
)

// annotationKey is how AnnotationCounts names a model and prompt version.
func annotationKey(model, prompt string) string { return model + " " + prompt }

// annotatedHashes returns the hashes that have an annotation for model and
// prompt. It reads the whole collection (the cursor API takes no filter):
// in proportion to the annotations of every model.
func (s *Store) annotatedHashes(ctx context.Context, model, prompt string) (map[string]bool, error) {
	out := map[string]bool{}
	err := s.each(ctx, annotationClass, []string{propHash, propModel, propPrompt}, func(o object) error {
		if o.text(propModel) == model && o.text(propPrompt) == prompt {
			out[o.text(propHash)] = true
		}
		return nil
	})
	return out, err
}

// PendingAnnotations lists, once per distinct text, the chunks that have
// no annotation yet for model and prompt version, in chunk id order (of
// each text's first chunk), as PendingEmbeddings does.
func (s *Store) PendingAnnotations(ctx context.Context, model, prompt string) ([]store.AnnotateJob, error) {
	held, err := s.annotatedHashes(ctx, model, prompt)
	if err != nil {
		return nil, fmt.Errorf("listing chunks to annotate: %w", err)
	}
	rows, err := s.embedRows(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("listing chunks to annotate: %w", err)
	}
	var jobs []store.AnnotateJob
	for _, r := range rows {
		if r.hash == "" || held[r.hash] {
			continue
		}
		held[r.hash] = true
		j := store.AnnotateJob{Hash: r.hash, Text: r.text}
		if err := json.Unmarshal([]byte(r.headings), &j.Headings); err != nil {
			return nil, fmt.Errorf("listing chunks to annotate: chunk %d: malformed heading path: %w", r.id, err)
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// PutAnnotation stores one annotation, replacing an older one for the same
// model, prompt version and hash (the object's id is derived from the
// three). An empty text is refused: a chunk without annotation stays
// pending.
func (s *Store) PutAnnotation(ctx context.Context, model, prompt, hash, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return fmt.Errorf("storing the annotation of %s: empty text", hash)
	}
	obj := &models.Object{Class: annotationClass, ID: annotationUUID(model, prompt, hash), Tenant: s.tenant,
		Properties: map[string]any{propHash: hash, propModel: model, propPrompt: prompt, propText: text,
			propCreatedAt: time.Now().Unix()}}
	if err := s.put(ctx, []*models.Object{obj}); err != nil {
		return fmt.Errorf("storing the annotation of %s: %w", hash, err)
	}
	return nil
}

// Annotations returns the annotations of the given chunks for model and
// prompt version, by chunk id; chunks without one, or that are no chunk,
// are absent. Chunks sharing a text share its annotation.
func (s *Store) Annotations(ctx context.Context, model, prompt string, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	err := s.chunkPages(ctx, ids, []string{propChunkID, propEmbedHash}, func(objs []object) error {
		chunksOf := map[string][]int64{}
		for _, o := range objs {
			if h := o.text(propEmbedHash); h != "" {
				chunksOf[h] = append(chunksOf[h], o.id64(propChunkID))
			}
		}
		if len(chunksOf) == 0 {
			return nil
		}
		hashes := make([]string, 0, len(chunksOf))
		for h := range chunksOf {
			hashes = append(hashes, h)
		}
		sort.Strings(hashes)
		where := and(textIs(propModel, model), textIs(propPrompt, prompt),
			filters.Where().WithPath([]string{propHash}).WithOperator(filters.ContainsAny).WithValueText(hashes...))
		// One annotation per hash for a model and prompt: the ids say so.
		objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields([]string{propHash, propText})...).
			WithWhere(where).WithLimit(len(hashes)), annotationClass)
		if err != nil {
			return err
		}
		for _, o := range objs {
			for _, id := range chunksOf[o.text(propHash)] {
				out[id] = o.text(propText)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading annotations: %w", err)
	}
	return out, nil
}

// PruneAnnotations deletes annotations no chunk uses any more, of every
// model and prompt version, and returns how many went.
func (s *Store) PruneAnnotations(ctx context.Context) (int64, error) {
	rows, err := s.embedRows(ctx, false)
	if err != nil {
		return 0, fmt.Errorf("pruning annotations: %w", err)
	}
	used := map[string]bool{}
	for _, r := range rows {
		used[r.hash] = true
	}
	unused := map[string]int64{} // objects per unused hash
	err = s.each(ctx, annotationClass, []string{propHash}, func(o object) error {
		if h := o.text(propHash); !used[h] {
			unused[h]++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("pruning annotations: %w", err)
	}
	drop := make([]string, 0, len(unused))
	for h := range unused {
		drop = append(drop, h)
	}
	sort.Strings(drop)
	var gone int64
	for len(drop) > 0 {
		part := drop[:min(len(drop), pageSize)]
		drop = drop[len(part):]
		where := filters.Where().WithPath([]string{propHash}).WithOperator(filters.ContainsAny).WithValueText(part...)
		if err := s.deleteWhere(ctx, annotationClass, where); err != nil {
			return gone, fmt.Errorf("pruning annotations: %w", err)
		}
		for _, h := range part {
			gone += unused[h]
		}
	}
	return gone, nil
}

// AnnotationCounts returns how many annotations each model and prompt
// version has, keyed "model prompt". It reads every annotation's model
// and prompt, a page at a time.
func (s *Store) AnnotationCounts(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	err := s.each(ctx, annotationClass, []string{propModel, propPrompt}, func(o object) error {
		out[annotationKey(o.text(propModel), o.text(propPrompt))]++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("counting annotations: %w", err)
	}
	return out, nil
}
