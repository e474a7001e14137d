package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/graphql"

	"github.com/oraculo/oraculo/store"
)

// object is one object read back: its properties as GraphQL gives them
// (numbers as float64) and its additional fields.
type object struct {
	props      map[string]any
	id         string
	score      float64
	additional map[string]any
}

func (o object) text(name string) string {
	s, _ := o.props[name].(string)
	return s
}

func (o object) int(name string) int64 {
	switch v := o.props[name].(type) {
	case float64:
		return int64(v)
	case json.Number:
		n, err := v.Int64()
		if err != nil {
			f, _ := v.Float64()
			n = int64(f)
		}
		return n
	}
	return 0
}

// id64 reads a chunk id, kept as decimal text.
func (o object) id64(name string) int64 {
	n, _ := strconv.ParseInt(o.text(name), 10, 64)
	return n
}

func (o object) bool(name string) bool {
	b, _ := o.props[name].(bool)
	return b
}

func (o object) has(name string) bool { return o.props[name] != nil }

// pageSize is how many objects a listing reads per request; a variable
// for tests.
var pageSize = 1000

// fields turns property names into GraphQL fields, with the object's id
// and score.
func fields(props []string) []graphql.Field {
	out := make([]graphql.Field, 0, len(props)+1)
	for _, p := range props {
		out = append(out, graphql.Field{Name: p})
	}
	return append(out, graphql.Field{Name: "_additional", Fields: []graphql.Field{{Name: "id"}, {Name: "score"}}})
}

// run sends a Get query and returns its objects.
func (s *Store) run(ctx context.Context, get *graphql.GetBuilder, class string) ([]object, error) {
	level, err := s.queryLevel(ctx, class)
	if err != nil {
		return nil, err
	}
	resp, err := get.WithClassName(class).WithTenant(s.tenant).WithConsistencyLevel(level).Do(ctx)
	if err != nil {
		return nil, err
	}
	if len(resp.Errors) > 0 {
		var msgs []string
		for _, e := range resp.Errors {
			msgs = append(msgs, e.Message)
		}
		return nil, fmt.Errorf("query on %q: %s", class, strings.Join(msgs, "; "))
	}
	data, _ := resp.Data["Get"].(map[string]any)
	rows, _ := data[class].([]any)
	out := make([]object, 0, len(rows))
	for _, r := range rows {
		props, ok := r.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("query on %q: an object is %T", class, r)
		}
		o := object{props: props}
		if add, ok := props["_additional"].(map[string]any); ok {
			o.additional = add
			o.id, _ = add["id"].(string)
			if sc := fmt.Sprint(add["score"]); add["score"] != nil && sc != "" {
				if o.score, err = strconv.ParseFloat(sc, 64); err != nil {
					return nil, fmt.Errorf("query on %q: score %q: %w", class, sc, err)
				}
			}
		}
		out = append(out, o)
	}
	return out, nil
}

// each calls fn with every object of class, in no set order (by id),
// reading them a page at a time with the cursor API.
func (s *Store) each(ctx context.Context, class string, props []string, fn func(object) error) error {
	after := ""
	for {
		get := s.client.GraphQL().Get().WithFields(fields(props)...).WithLimit(pageSize)
		if after != "" {
			get = get.WithAfter(after)
		}
		objs, err := s.run(ctx, get, class)
		if err != nil {
			return err
		}
		for _, o := range objs {
			if err := fn(o); err != nil {
				return err
			}
		}
		if len(objs) < pageSize {
			return nil
		}
		after = objs[len(objs)-1].id
	}
}

// chunkProps are the properties a chunk is read back from.
var chunkProps = []string{propChunkID, propUID, propRoot, propPath, propTitle, propVisibility, propPublic,
	propOrdinal, propSession, propInSession, propHeadings, propLabel, propWordStart, propWordEnd,
	propByteStart, propByteEnd, propPageStart, propPageEnd, propText, propHash}

// chunkOf reads a chunk object back.
func chunkOf(o object) (store.Chunk, error) {
	c := store.Chunk{
		ChunkData: store.ChunkData{
			UID: o.text(propUID), Hash: o.text(propHash), Ordinal: int(o.int(propOrdinal)),
			InSession: o.bool(propInSession), Label: o.text(propLabel),
			WordStart: int(o.int(propWordStart)), WordEnd: int(o.int(propWordEnd)),
			ByteStart: int(o.int(propByteStart)), ByteEnd: int(o.int(propByteEnd)),
			PageStart: int(o.int(propPageStart)), PageEnd: int(o.int(propPageEnd)), Text: o.text(propText),
		},
		ID: o.id64(propChunkID), Root: o.text(propRoot), Path: o.text(propPath), DocTitle: o.text(propTitle),
		Visibility: o.text(propVisibility),
		// A chunk whose visibility is missing is DM-only: fail closed.
		Restricted: !o.bool(propPublic),
	}
	if c.InSession {
		c.Session = int(o.int(propSession))
	}
	if err := json.Unmarshal([]byte(o.text(propHeadings)), &c.Headings); err != nil {
		return c, fmt.Errorf("chunk %q: malformed heading path %q: %w", c.UID, o.text(propHeadings), err)
	}
	return c, nil
}

// chunkPages reads the chunk objects of the distinct ids a page at a time,
// with props only, and calls fn with each page.
func (s *Store) chunkPages(ctx context.Context, ids []int64, props []string, fn func([]object) error) error {
	seen := map[int64]bool{}
	var want []int64
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			want = append(want, id)
		}
	}
	for len(want) > 0 {
		part := want[:min(len(want), pageSize)]
		want = want[len(part):]
		texts := make([]string, len(part))
		for i, id := range part {
			texts[i] = idText(id)
		}
		where := filters.Where().WithPath([]string{propChunkID}).WithOperator(filters.ContainsAny).WithValueText(texts...)
		objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields(props)...).WithWhere(where).WithLimit(len(part)), chunkClass)
		if err != nil {
			return err
		}
		if err := fn(objs); err != nil {
			return err
		}
	}
	return nil
}

// chunksByID reads the chunks with the given ids, by id.
func (s *Store) chunksByID(ctx context.Context, ids []int64) (map[int64]store.Chunk, error) {
	out := make(map[int64]store.Chunk, len(ids))
	err := s.chunkPages(ctx, ids, chunkProps, func(objs []object) error {
		for _, o := range objs {
			c, err := chunkOf(o)
			if err != nil {
				return err
			}
			out[c.ID] = c
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading chunks: %w", err)
	}
	return out, nil
}

// Chunks returns the chunks with the given ids, in the order given; an id
// that names no chunk is an error wrapping [store.ErrMissingParent].
func (s *Store) Chunks(ctx context.Context, ids []int64) ([]store.Chunk, error) {
	byID, err := s.chunksByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]store.Chunk, 0, len(ids))
	for _, id := range ids {
		c, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("%w: chunk %d", store.ErrMissingParent, id)
		}
		out = append(out, c)
	}
	return out, nil
}

// ChunksFound returns the chunks of ids that exist, in the order of ids.
func (s *Store) ChunksFound(ctx context.Context, ids []int64) ([]store.Chunk, error) {
	byID, err := s.chunksByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]store.Chunk, 0, len(byID))
	for _, id := range ids {
		if c, ok := byID[id]; ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// ChunkByUID returns the chunk with the given public id, or the one an id
// of before public ids were relative to the notes folder names (links
// and memory entries made then name those: it is the chunk's key, see
// chunkKey), or an error wrapping [store.ErrNoChunk].
func (s *Store) ChunkByUID(ctx context.Context, uid string) (store.Chunk, error) {
	objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields(chunkProps)...).WithWhere(textIs(propUID, uid)).WithLimit(1), chunkClass)
	if err == nil && len(objs) == 0 {
		objs, err = s.run(ctx, s.client.GraphQL().Get().WithFields(fields(chunkProps)...).WithWhere(textIs(propChunkID, idText(ChunkID(uid)))).WithLimit(1), chunkClass)
	}
	if err != nil {
		return store.Chunk{}, fmt.Errorf("reading chunk %q: %w", uid, err)
	}
	if len(objs) == 0 {
		return store.Chunk{}, fmt.Errorf("%w: %q", store.ErrNoChunk, uid)
	}
	c, err := chunkOf(objs[0])
	if err != nil {
		return store.Chunk{}, fmt.Errorf("reading chunk %q: %w", uid, err)
	}
	return c, nil
}

// ListChunks returns every chunk in document order (root, path,
// ordinal); when prefixes are given, only those of notes whose path
// equals one of them or lies under one of them (as a folder).
func (s *Store) ListChunks(ctx context.Context, prefixes []string) ([]store.Chunk, error) {
	prefixes = append([]string(nil), prefixes...)
	for i, p := range prefixes {
		prefixes[i] = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
	}
	var out []store.Chunk
	err := s.each(ctx, chunkClass, chunkProps, func(o object) error {
		if len(prefixes) > 0 && !under(o.text(propPath), prefixes) {
			return nil
		}
		c, err := chunkOf(o)
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing chunks: %w", err)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Root != b.Root {
			return a.Root < b.Root
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Ordinal < b.Ordinal
	})
	return out, nil
}

// under reports whether path is one of prefixes or lies under one.
func under(path string, prefixes []string) bool {
	for _, p := range prefixes {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}
