package weaviate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/graphql"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/oraculo/oraculo/store"
)

// vectorPrefix begins the name of every model's vector collection.
const vectorPrefix = "OraculoVector"

// propModel is the model a vector object belongs to.
const propModel = "model"

// vectorClass is the collection of model's vectors: one collection per
// model, since a vector index has one number of dimensions and one model
// is dropped or pruned without touching another's.
func vectorClass(model string) string {
	sum := sha256.Sum256([]byte(model))
	return vectorPrefix + hex.EncodeToString(sum[:8])
}

// embeddingUUID is the object id of the vector of hash for model.
func embeddingUUID(model, hash string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, []byte("embedding\x00"+model+"\x00"+hash)).String())
}

// vectorClassDef defines model's collection: Oráculo's vectors (no
// vectorizer) in an HNSW index by cosine distance, multi-tenant as the
// others, each with the textUse of the chunks using its text.
func vectorClassDef(model string) *models.Class {
	return &models.Class{
		Class:              vectorClass(model),
		Description:        "Oráculo: the vectors of model " + model + ", one per embedded text",
		Vectorizer:         "none",
		VectorIndexType:    "hnsw",
		VectorIndexConfig:  map[string]any{"distance": "cosine"},
		MultiTenancyConfig: &models.MultiTenancyConfig{Enabled: true},
		Properties: []*models.Property{filterable(propHash, "text"), stored(propModel, "text"),
			filterable(propPublic, "boolean"), filterable(propSessions, "int[]"), filterable(propFolders, "text[]"),
			filterable(propTags, "text[]")},
	}
}

// vectorsHeld reports whether the tenant has a collection for model (none
// until the first PutEmbeddings of the model), creating it when create.
func (s *Store) vectorsHeld(ctx context.Context, model string, create bool) (bool, error) {
	if s.held != nil {
		if _, ok := s.held.Load(model); ok {
			return true, nil
		}
	}
	has, err := s.vectorsExist(ctx, model, create)
	if has && s.held != nil {
		s.held.Store(model, true)
	}
	return has, err
}

func (s *Store) vectorsExist(ctx context.Context, model string, create bool) (bool, error) {
	c := vectorClassDef(model)
	exists, err := s.client.Schema().ClassExistenceChecker().WithClassName(c.Class).Do(ctx)
	if err != nil {
		return false, fmt.Errorf("checking collection %q: %w", c.Class, err)
	}
	if !exists {
		if !create {
			return false, nil
		}
		if err := s.client.Schema().ClassCreator().WithClass(s.replicated(c)).Do(ctx); err != nil {
			again, cerr := s.client.Schema().ClassExistenceChecker().WithClassName(c.Class).Do(ctx)
			if cerr != nil || !again {
				return false, fmt.Errorf("creating collection %q: %w", c.Class, err)
			}
		}
	}
	if create {
		if err := s.checkReplication(ctx, c.Class); err != nil {
			return false, err
		}
	}
	has, err := s.client.Schema().TenantsExists().WithClassName(c.Class).WithTenant(s.tenant).Do(ctx)
	if err != nil {
		return false, fmt.Errorf("checking tenant %q of %q: %w", s.tenant, c.Class, err)
	}
	if has || !create {
		return has, nil
	}
	err = s.client.Schema().TenantsCreator().WithClassName(c.Class).WithTenants(models.Tenant{Name: s.tenant}).Do(ctx)
	if err != nil && !strings.Contains(strings.ToLower(err.Error()), "exist") {
		return false, fmt.Errorf("creating tenant %q of %q: %w", s.tenant, c.Class, err)
	}
	return true, nil
}

// embedRow is a chunk as the vectors see it.
type embedRow struct {
	id       int64
	hash     string
	headings string
	text     string
}

// embedRows reads every chunk's id and embedding hash (and what is
// embedded, when withText), in id order.
func (s *Store) embedRows(ctx context.Context, withText bool) ([]embedRow, error) {
	props := []string{propChunkID, propEmbedHash}
	if withText {
		props = append(props, propHeadings, propText)
	}
	var out []embedRow
	err := s.each(ctx, chunkClass, props, func(o object) error {
		out = append(out, embedRow{id: o.id64(propChunkID), hash: o.text(propEmbedHash), headings: o.text(propHeadings), text: o.text(propText)})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out, err
}

// heldHashes returns the hashes model has a vector for.
func (s *Store) heldHashes(ctx context.Context, model string) (map[string]bool, error) {
	out := map[string]bool{}
	ok, err := s.vectorsHeld(ctx, model, false)
	if err != nil || !ok {
		return out, err
	}
	err = s.each(ctx, vectorClass(model), []string{propHash}, func(o object) error {
		out[o.text(propHash)] = true
		return nil
	})
	return out, err
}

// PendingEmbeddings lists, once per distinct text, the chunks that have no
// vector for model yet, in chunk id order (of each text's first chunk).
func (s *Store) PendingEmbeddings(ctx context.Context, model string) ([]store.EmbedJob, error) {
	held, err := s.heldHashes(ctx, model)
	if err != nil {
		return nil, fmt.Errorf("listing chunks to embed: %w", err)
	}
	rows, err := s.embedRows(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("listing chunks to embed: %w", err)
	}
	var jobs []store.EmbedJob
	for _, r := range rows {
		if r.hash == "" || held[r.hash] {
			continue
		}
		held[r.hash] = true
		var hs []string
		if err := json.Unmarshal([]byte(r.headings), &hs); err != nil {
			return nil, fmt.Errorf("listing chunks to embed: chunk %d: malformed heading path: %w", r.id, err)
		}
		jobs = append(jobs, store.EmbedJob{Hash: r.hash, Text: store.EmbedText(hs, r.text)})
	}
	return jobs, nil
}

// PutEmbeddings stores vectors for model, one object per hash whose id is
// derived from the model and the hash: storing one again replaces it.
// Each carries the textUse of the chunks using its text now. Not all or
// none: an interrupted write leaves some stored, which the next
// PendingEmbeddings no longer lists.
func (s *Store) PutEmbeddings(ctx context.Context, model string, hashes []string, vecs [][]float32) error {
	if len(hashes) != len(vecs) {
		return fmt.Errorf("storing embeddings: %d hashes for %d vectors", len(hashes), len(vecs))
	}
	if len(vecs) == 0 {
		return nil
	}
	for i, v := range vecs {
		if len(v) == 0 || len(v) != len(vecs[0]) {
			return fmt.Errorf("storing embeddings: vector %d has %d dimensions, the first %d", i, len(v), len(vecs[0]))
		}
	}
	if _, err := s.vectorsHeld(ctx, model, true); err != nil {
		return fmt.Errorf("storing embeddings: %w", err)
	}
	uses, err := s.usesOf(ctx, hashes, nil)
	if err != nil {
		return fmt.Errorf("storing embeddings: %w", err)
	}
	class := vectorClass(model)
	objs := make([]*models.Object, len(vecs))
	for i, v := range vecs {
		props := uses[hashes[i]].props()
		props[propHash], props[propModel] = hashes[i], model
		objs[i] = &models.Object{Class: class, ID: embeddingUUID(model, hashes[i]), Tenant: s.tenant,
			Properties: props, Vector: models.C11yVector(v)}
	}
	if err := s.put(ctx, objs); err != nil {
		return fmt.Errorf("storing embeddings of %q: %w", model, err)
	}
	return nil
}

// vectorChunks returns, in id order, the chunks whose hash model has a
// vector for, and how many have none.
func (s *Store) vectorChunks(ctx context.Context, model string) (have []embedRow, missing int, err error) {
	held, err := s.heldHashes(ctx, model)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.embedRows(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	for _, r := range rows {
		if r.hash != "" && held[r.hash] {
			have = append(have, r)
		} else {
			missing++
		}
	}
	return have, missing, nil
}

// LoadVectors reads every chunk's vector for model, in chunk id order;
// missing says how many chunks have none. It reads the whole collection:
// for parity tests and exact scans, not for answering (see SearchVectors).
func (s *Store) LoadVectors(ctx context.Context, model string) (*store.Vectors, int, error) {
	have, missing, err := s.vectorChunks(ctx, model)
	if err != nil {
		return nil, 0, fmt.Errorf("loading vectors of %q: %w", model, err)
	}
	byHash := map[string][]float32{}
	if len(have) > 0 {
		get := func(after string) *graphql.GetBuilder {
			g := s.client.GraphQL().Get().WithLimit(pageSize).WithFields(graphql.Field{Name: propHash},
				graphql.Field{Name: "_additional", Fields: []graphql.Field{{Name: "id"}, {Name: "vector"}}})
			if after != "" {
				g = g.WithAfter(after)
			}
			return g
		}
		after := ""
		for {
			objs, err := s.run(ctx, get(after), vectorClass(model))
			if err != nil {
				return nil, 0, fmt.Errorf("loading vectors of %q: %w", model, err)
			}
			for _, o := range objs {
				raw, _ := o.additional["vector"].([]any)
				v := make([]float32, len(raw))
				for i, x := range raw {
					f, ok := x.(float64)
					if !ok {
						return nil, 0, fmt.Errorf("loading vectors of %q: hash %s: component %d is %T", model, o.text(propHash), i, x)
					}
					v[i] = float32(f)
				}
				byHash[o.text(propHash)] = v
			}
			if len(objs) < pageSize {
				break
			}
			after = objs[len(objs)-1].id
		}
	}
	v := &store.Vectors{Model: model}
	for _, r := range have {
		vec, ok := byHash[r.hash]
		if !ok { // pruned meanwhile
			missing++
			continue
		}
		if v.Dims == 0 {
			v.Dims = len(vec)
		}
		if len(vec) != v.Dims {
			return nil, 0, fmt.Errorf("loading vectors of %q: chunk %d has %d dimensions, others %d", model, r.id, len(vec), v.Dims)
		}
		v.IDs = append(v.IDs, r.id)
		v.Data = append(v.Data, vec...)
	}
	return v, missing, nil
}

// VectorIDs lists, in id order, the chunks that have a vector for model,
// without reading a vector; missing says how many have none.
func (s *Store) VectorIDs(ctx context.Context, model string) ([]int64, int, error) {
	have, missing, err := s.vectorChunks(ctx, model)
	if err != nil {
		return nil, 0, fmt.Errorf("listing the vectors of %q: %w", model, err)
	}
	ids := make([]int64, len(have))
	for i, r := range have {
		ids[i] = r.id
	}
	return ids, missing, nil
}

// VectorRows counts the chunks that have a vector for model.
func (s *Store) VectorRows(ctx context.Context, model string) (int, error) {
	have, _, err := s.vectorChunks(ctx, model)
	if err != nil {
		return 0, fmt.Errorf("counting vectors of %q: %w", model, err)
	}
	return len(have), nil
}

// MissingVectors counts the chunks that have no vector for model: read
// from the chunks and the vectors the cluster holds now, without listing
// the chunks that have one.
func (s *Store) MissingVectors(ctx context.Context, model string) (int, error) {
	_, missing, err := s.vectorChunks(ctx, model)
	if err != nil {
		return 0, fmt.Errorf("counting chunks without a vector for %q: %w", model, err)
	}
	return missing, nil
}

// vectorModels returns the models the tenant holds vectors of, by
// collection.
func (s *Store) vectorModels(ctx context.Context) (map[string]string, error) {
	sch, err := s.client.Schema().Getter().Do(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	out := map[string]string{}
	for _, c := range sch.Classes {
		if !strings.HasPrefix(c.Class, vectorPrefix) {
			continue
		}
		has, err := s.client.Schema().TenantsExists().WithClassName(c.Class).WithTenant(s.tenant).Do(ctx)
		if err != nil {
			return nil, fmt.Errorf("checking tenant %q of %q: %w", s.tenant, c.Class, err)
		}
		if !has {
			continue
		}
		objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields([]string{propModel})...).WithLimit(1), c.Class)
		if err != nil {
			return nil, err
		}
		if len(objs) > 0 {
			out[c.Class] = objs[0].text(propModel)
		}
	}
	return out, nil
}

// EmbeddingCounts returns how many vectors each model has.
func (s *Store) EmbeddingCounts(ctx context.Context) (map[string]int, error) {
	ms, err := s.vectorModels(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting embeddings: %w", err)
	}
	out := map[string]int{}
	for class, model := range ms {
		n, err := s.count(ctx, class)
		if err != nil {
			return nil, fmt.Errorf("counting embeddings: %w", err)
		}
		if n > 0 {
			out[model] = n
		}
	}
	return out, nil
}

// PruneEmbeddings deletes vectors no chunk uses any more, of every model,
// and returns how many went.
func (s *Store) PruneEmbeddings(ctx context.Context) (int64, error) {
	ms, err := s.vectorModels(ctx)
	if err != nil {
		return 0, fmt.Errorf("pruning embeddings: %w", err)
	}
	rows, err := s.embedRows(ctx, false)
	if err != nil {
		return 0, fmt.Errorf("pruning embeddings: %w", err)
	}
	used := map[string]bool{}
	for _, r := range rows {
		used[r.hash] = true
	}
	var gone int64
	for class, model := range ms {
		held, err := s.heldHashes(ctx, model)
		if err != nil {
			return gone, fmt.Errorf("pruning embeddings: %w", err)
		}
		var drop []string
		for h := range held {
			if !used[h] {
				drop = append(drop, h)
			}
		}
		sort.Strings(drop)
		for len(drop) > 0 {
			part := drop[:min(len(drop), pageSize)]
			drop = drop[len(part):]
			where := filters.Where().WithPath([]string{propHash}).WithOperator(filters.ContainsAny).WithValueText(part...)
			if err := s.deleteWhere(ctx, class, where); err != nil {
				return gone, fmt.Errorf("pruning embeddings: %w", err)
			}
			gone += int64(len(part))
		}
	}
	return gone, nil
}
