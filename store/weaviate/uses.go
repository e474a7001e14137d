package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/graphql"

	"github.com/oraculo/oraculo/store"
)

// The properties a vector object carries of the chunks using its text,
// for the where clause of a vector search (see textUse).
const (
	propSessions = "sessions"
	propFolders  = "folders"
)

// textUse is what the chunks using one embedded text let a vector search
// filter on, carried on the text's vector object of every model: a
// search's where clause is then a few values, not a list of texts. It is
// a prefilter, never the last word: a search checks every chunk it
// returns against the chunks and notes as they are now.
type textUse struct {
	// public: some chunk using the text is public now (it and its note
	// marked public, the note not changing audience). Its text is then
	// one players may read, whatever other chunks share it.
	public bool
	// sessions, folders and tags are those of every chunk using the text:
	// its session, its note's path and every folder above it (lowercased),
	// and its note's tags as a tag filter matches them.
	sessions []int64
	folders  []string
	tags     []string
}

// useProps are the properties a vector object's textUse is read from.
var useProps = []string{propHash, propPublic, propSessions, propFolders, propTags}

// props is the textUse as a vector object's properties.
func (u textUse) props() map[string]any {
	return map[string]any{propPublic: u.public, propSessions: nonNilInts(u.sessions), propFolders: nonNil(u.folders), propTags: nonNil(u.tags)}
}

func (u textUse) equal(v textUse) bool {
	return u.public == v.public && slices.Equal(u.sessions, v.sessions) && slices.Equal(u.folders, v.folders) && slices.Equal(u.tags, v.tags)
}

// useOf reads a vector object's textUse back; one never given one is not
// public (fail closed).
func useOf(o object) textUse {
	u := textUse{public: o.bool(propPublic), folders: o.texts(propFolders), tags: o.texts(propTags)}
	for _, x := range o.list(propSessions) {
		if f, ok := x.(float64); ok {
			u.sessions = append(u.sessions, int64(f))
		}
	}
	return u
}

func (o object) list(name string) []any {
	l, _ := o.props[name].([]any)
	return l
}

func (o object) texts(name string) []string {
	var out []string
	for _, x := range o.list(name) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func nonNilInts(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}

// folderPrefixes returns a lowercased path and every folder above it:
// "a/b/c.md" gives "a", "a/b" and "a/b/c.md", what a folder filter (a
// path or a folder, matched at the start) may name.
func folderPrefixes(lowerPath string) []string {
	var out []string
	for i := range len(lowerPath) {
		if lowerPath[i] == '/' && i > 0 {
			out = append(out, lowerPath[:i])
		}
	}
	return append(out, lowerPath)
}

// useRowProps are the properties a chunk is read with for the vectors:
// what chunkRow holds, and its embedding hash.
var useRowProps = append(append([]string(nil), chunkRowProps...), propEmbedHash)

// chunksUsing returns, by hash, the chunks whose embedding hash is one of
// hashes.
func (s *Store) chunksUsing(ctx context.Context, hashes []string) (map[string][]chunkRow, error) {
	out := map[string][]chunkRow{}
	err := s.byValues(ctx, chunkClass, propEmbedHash, hashes, useRowProps, func(o object) error {
		h := o.text(propEmbedHash)
		out[h] = append(out[h], rowOf(o))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the chunks of %d texts: %w", len(hashes), err)
	}
	return out, nil
}

// notesOf returns the note objects of the chunks' notes, by key (a note
// whose object is missing is absent).
func (s *Store) notesOf(ctx context.Context, rows map[string][]chunkRow) (map[string]note, error) {
	seen := map[string]bool{}
	var keys []string
	for _, rs := range rows {
		for _, r := range rs {
			if !seen[r.key] {
				seen[r.key] = true
				keys = append(keys, r.key)
			}
		}
	}
	sort.Strings(keys)
	out := map[string]note{}
	err := s.byValues(ctx, documentClass, propDocKey, keys, noteProps, func(o object) error {
		n := noteOf(o)
		out[n.key] = n
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the notes of %d chunks' texts: %w", len(rows), err)
	}
	return out, nil
}

// usesOf returns the textUse of each hash from the chunks using it now,
// their notes taken from override when there (a note being written or
// decided again) and from the cluster otherwise. A hash no chunk uses has
// the zero textUse: not public, nothing to filter on.
func (s *Store) usesOf(ctx context.Context, hashes []string, override map[string]note) (map[string]textUse, error) {
	rows, err := s.chunksUsing(ctx, hashes)
	if err != nil {
		return nil, err
	}
	notes, err := s.notesOf(ctx, rows)
	if err != nil {
		return nil, err
	}
	for k, n := range override {
		notes[k] = n
	}
	tagsOf := map[string][]string{}
	out := make(map[string]textUse, len(rows))
	for h, rs := range rows {
		var u textUse
		sessions, folders, tags := map[int64]bool{}, map[string]bool{}, map[string]bool{}
		for _, r := range rs {
			u.public = u.public || !r.restricted(notes)
			if r.inSession {
				sessions[int64(r.session)] = true
			}
			for _, f := range folderPrefixes(strings.ToLower(r.path)) {
				folders[f] = true
			}
			n, ok := notes[r.key]
			if !ok || n.metadata == "" {
				continue // a chunk without its note matches no tag
			}
			ts, ok := tagsOf[r.key]
			if !ok {
				if ts, err = noteTags(json.RawMessage(n.metadata)); err != nil {
					return nil, fmt.Errorf("note %q: %w", n.path, err)
				}
				tagsOf[r.key] = ts
			}
			for _, t := range ts {
				tags[t] = true
			}
		}
		u.sessions, u.folders, u.tags = sortedKeys(sessions), sortedKeys(folders), sortedKeys(tags)
		out[h] = u
	}
	return out, nil
}

func sortedKeys[K int64 | string](m map[K]bool) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// recordNote is a note as its object reads once d is stored.
func recordNote(d *store.DocumentRecord) note {
	meta := string(d.Metadata)
	if meta == "" {
		meta = "{}"
	}
	return note{key: documentKey(d.Root, d.Path), root: d.Root, path: d.Path, title: d.Title, metadata: meta, restricted: d.DMOnly}
}

// decidedAs is the override that has the note of rec decided as dmOnly
// says, for usesOf.
func decidedAs(rec store.VisibilityRecord, dmOnly bool) map[string]note {
	key := documentKey(rec.Root, rec.Path)
	return map[string]note{key: {key: key, root: rec.Root, path: rec.Path, metadata: string(rec.Metadata), restricted: dmOnly}}
}

// useUpdate is what a write to notes must update of the vector objects'
// textUse: the texts the notes' chunks use before the write and after
// it. Writers begin it before they touch the chunks (a text a note no
// longer uses keeps a textUse that lets through too much, never too
// little, when the write is interrupted: what a search checks drops the
// rest) and finish it before the write counts as done.
type useUpdate struct {
	classes map[string]string // the tenant's vector collections, by class
	hashes  []string
}

// beginUses starts the update of the texts of the notes with the given
// keys: nothing to do when the tenant holds no vectors.
func (s *Store) beginUses(ctx context.Context, keys []string) (*useUpdate, error) {
	ms, err := s.vectorModels(ctx)
	if err != nil || len(ms) == 0 {
		return &useUpdate{}, err
	}
	u := &useUpdate{classes: ms}
	err = s.byValues(ctx, chunkClass, propDocKey, keys, []string{propEmbedHash}, func(o object) error {
		u.add(o.text(propEmbedHash))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the texts of %d notes: %w", len(keys), err)
	}
	return u, nil
}

// add counts hashes among the texts to update.
func (u *useUpdate) add(hashes ...string) {
	if u.classes == nil {
		return
	}
	for _, h := range hashes {
		if h != "" {
			u.hashes = append(u.hashes, h)
		}
	}
}

// finishUses gives the vector objects of u's texts, in every model's
// collection, the textUse the chunks using them have now (override as in
// usesOf), updating only those whose textUse changed.
func (s *Store) finishUses(ctx context.Context, u *useUpdate, override map[string]note) error {
	if len(u.classes) == 0 || len(u.hashes) == 0 {
		return nil
	}
	slices.Sort(u.hashes)
	hashes := slices.Compact(u.hashes)
	uses, err := s.usesOf(ctx, hashes, override)
	if err != nil {
		return fmt.Errorf("updating the vectors' filters: %w", err)
	}
	classes := make([]string, 0, len(u.classes))
	for c := range u.classes {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, class := range classes {
		err := s.byValues(ctx, class, propHash, hashes, useProps, func(o object) error {
			want := uses[o.text(propHash)]
			if useOf(o).equal(want) {
				return nil
			}
			return s.merge(ctx, class, o.id, want.props())
		})
		if err != nil {
			return fmt.Errorf("updating the vectors' filters of %q: %w", u.classes[class], err)
		}
	}
	return nil
}

// byValues calls fn with every object of class whose prop is one of
// values, read with props: a request per pageSize values, split in two
// while more than MaxResults objects match.
func (s *Store) byValues(ctx context.Context, class, prop string, values, props []string, fn func(object) error) error {
	for len(values) > 0 {
		part := values[:min(len(values), pageSize)]
		values = values[len(part):]
		if err := s.byValuesPart(ctx, class, prop, part, props, fn); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) byValuesPart(ctx context.Context, class, prop string, values, props []string, fn func(object) error) error {
	where := filters.Where().WithPath([]string{prop}).WithOperator(filters.ContainsAny).WithValueText(values...)
	objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields(props)...).WithWhere(where).WithLimit(MaxResults), class)
	if err != nil {
		return err
	}
	if len(objs) == MaxResults {
		if len(values) == 1 {
			return fmt.Errorf("more than %d objects of %q have %s %q", MaxResults-1, class, prop, values[0])
		}
		half := len(values) / 2
		if err := s.byValuesPart(ctx, class, prop, values[:half], props, fn); err != nil {
			return err
		}
		return s.byValuesPart(ctx, class, prop, values[half:], props, fn)
	}
	for _, o := range objs {
		if err := fn(o); err != nil {
			return err
		}
	}
	return nil
}

// nearFields are what a vector search reads of each object.
var nearFields = []graphql.Field{{Name: propHash}, {Name: "_additional", Fields: []graphql.Field{{Name: "id"}, {Name: "distance"}}}}
