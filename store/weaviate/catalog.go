package weaviate

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/graphql"

	"github.com/oraculo/oraculo/store"
)

// SchemaVersion is the version of the collections' layout this package
// writes, what [Store.Stats] reports as the schema.
const SchemaVersion = 2

// DocumentID is the store's id of the note at root and path: the first
// 53 bits of the sha256 of its key, never 0, stable while the note keeps
// its place (see [ChunkID]).
func DocumentID(root, path string) int64 {
	sum := sha256.Sum256([]byte("document\x00" + documentKey(root, path)))
	id := int64(binary.BigEndian.Uint64(sum[:8]) & (1<<idBits - 1))
	if id == 0 {
		id = 1
	}
	return id
}

// note is a note's object as the catalog reads it.
type note struct {
	key, root, path, title string
	metadata               string
	// restricted is DM-only: not marked public, or pending (its audience
	// is changing): fail closed.
	restricted bool
	reason     string
	// gen names the note's version (see generation).
	gen string
}

var noteProps = []string{propDocKey, propRoot, propPath, propTitle, propMetadata, propPublic, propPending, propDMReason, propGen}

// notes reads every note's object, by key.
func (s *Store) notes(ctx context.Context) (map[string]note, error) {
	out := map[string]note{}
	err := s.each(ctx, documentClass, noteProps, func(o object) error {
		n := noteOf(o)
		out[n.key] = n
		return nil
	})
	return out, err
}

// noteOf reads a note's object, read with noteProps.
func noteOf(o object) note {
	n := note{key: o.text(propDocKey), root: o.text(propRoot), path: o.text(propPath), title: o.text(propTitle),
		metadata: o.text(propMetadata), restricted: !o.bool(propPublic) || o.bool(propPending), reason: o.text(propDMReason),
		gen: o.text(propGen)}
	if n.key == "" {
		n.key = documentKey(n.root, n.path)
	}
	return n
}

// chunkRow is a chunk as the catalog and the filters read it.
type chunkRow struct {
	id                int64
	key, root, path   string
	ordinal, session  int
	inSession, public bool
	byteStart         int
	text              string
}

// chunkRowProps are the properties every chunkRow is read from.
var chunkRowProps = []string{propChunkID, propDocKey, propRoot, propPath, propOrdinal, propSession, propInSession, propPublic}

// chunkRows calls fn with every chunk, reading its text too when
// withText.
func (s *Store) chunkRows(ctx context.Context, withText bool, fn func(chunkRow) error) error {
	props := chunkRowProps
	if withText {
		props = append(append([]string(nil), props...), propByteStart, propText)
	}
	return s.each(ctx, chunkClass, props, func(o object) error { return fn(rowOf(o)) })
}

// rowOf reads a chunk object as a row.
func rowOf(o object) chunkRow {
	r := chunkRow{id: o.id64(propChunkID), key: o.text(propDocKey), root: o.text(propRoot), path: o.text(propPath),
		ordinal: int(o.int(propOrdinal)), inSession: o.bool(propInSession), public: o.bool(propPublic),
		byteStart: int(o.int(propByteStart)), text: o.text(propText)}
	if r.key == "" {
		r.key = documentKey(r.root, r.path)
	}
	if r.inSession {
		r.session = int(o.int(propSession))
	}
	return r
}

// restricted reports whether a chunk is DM-only: it, or its note, is not
// marked public, or its note is missing or changing audience.
func (r chunkRow) restricted(notes map[string]note) bool {
	n, ok := notes[r.key]
	return !r.public || !ok || n.restricted
}

// count returns how many objects of class the tenant holds.
func (s *Store) count(ctx context.Context, class string) (int, error) {
	return s.countWhere(ctx, class, nil)
}

// countWhere returns how many objects of class match where (all when nil).
func (s *Store) countWhere(ctx context.Context, class string, where *filters.WhereBuilder) (int, error) {
	agg := s.client.GraphQL().Aggregate().WithClassName(class).WithTenant(s.tenant).
		WithFields(graphql.Field{Name: "meta", Fields: []graphql.Field{{Name: "count"}}})
	if where != nil {
		agg = agg.WithWhere(where)
	}
	resp, err := agg.Do(ctx)
	if err != nil {
		return 0, err
	}
	if len(resp.Errors) > 0 {
		var msgs []string
		for _, e := range resp.Errors {
			msgs = append(msgs, e.Message)
		}
		return 0, fmt.Errorf("counting %q: %s", class, strings.Join(msgs, "; "))
	}
	data, _ := resp.Data["Aggregate"].(map[string]any)
	rows, _ := data[class].([]any)
	if len(rows) == 0 {
		return 0, nil
	}
	row, _ := rows[0].(map[string]any)
	meta, _ := row["meta"].(map[string]any)
	return int(object{props: meta}.int("count")), nil
}

// Stats counts what the store holds: notes (and by type), sessions,
// chunks and paragraphs (children). Bytes is 0: the cluster's disks are
// not this process's to measure.
func (s *Store) Stats(ctx context.Context) (store.Stats, error) {
	st := store.Stats{DocumentsByType: map[string]int{}, Schema: SchemaVersion}
	st.Langs = map[string]int{}
	err := s.each(ctx, documentClass, []string{propPath, propStamp}, func(o object) error {
		st.Documents++
		st.Langs[stampLang(o.text(propStamp))]++
		ext := strings.ToLower(strings.TrimPrefix(path.Ext(o.text(propPath)), "."))
		if ext == "" {
			ext = "none"
		}
		st.DocumentsByType[ext]++
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("counting index contents: %w", err)
	}
	sessions := map[int]bool{}
	err = s.chunkRows(ctx, false, func(r chunkRow) error {
		st.Chunks++
		if r.inSession {
			sessions[r.session] = true
		}
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("counting index contents: %w", err)
	}
	st.Sessions = len(sessions)
	if st.Children, err = s.count(ctx, paragraphClass); err != nil {
		return st, fmt.Errorf("counting index contents: %w", err)
	}
	return st, nil
}

// visibleChunks calls fn with every chunk that public lets through (every
// one when false, those of notes players may see when true).
func (s *Store) visibleChunks(ctx context.Context, public, withText bool, fn func(chunkRow) error) error {
	var notes map[string]note
	if public {
		var err error
		if notes, err = s.notes(ctx); err != nil {
			return err
		}
	}
	return s.chunkRows(ctx, withText, func(r chunkRow) error {
		if public && r.restricted(notes) {
			return nil
		}
		return fn(r)
	})
}

// Sessions returns the session numbers held, ascending; public counts
// only those of notes players may see.
func (s *Store) Sessions(ctx context.Context, public bool) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	err := s.visibleChunks(ctx, public, false, func(r chunkRow) error {
		if r.inSession && !seen[r.session] {
			seen[r.session] = true
			out = append(out, r.session)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing sessions: %w", err)
	}
	sort.Ints(out)
	return out, nil
}

// Units counts the sessions plus the notes (or parts of notes) outside
// any session; public counts only what players may see.
func (s *Store) Units(ctx context.Context, public bool) (int, error) {
	sessions, notes := map[int]bool{}, map[string]bool{}
	err := s.visibleChunks(ctx, public, false, func(r chunkRow) error {
		if r.inSession {
			sessions[r.session] = true
		} else {
			notes[r.key] = true
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("counting sessions and notes: %w", err)
	}
	return len(sessions) + len(notes), nil
}

// Roots lists the folders notes were ingested from, sorted.
func (s *Store) Roots(ctx context.Context) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	err := s.each(ctx, documentClass, []string{propRoot}, func(o object) error {
		if r := o.text(propRoot); !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing ingested folders: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// NoteSources returns every note that has chunks reassembled from them,
// in path order (root, path), its chunks in order, as
// [github.com/oraculo/oraculo/index.Index.NoteSources] does. A chunk
// whose note's object is missing (a write interrupted) is left out; a
// note is restricted unless it and all of its chunks are marked public.
func (s *Store) NoteSources(ctx context.Context) ([]store.NoteSource, error) {
	notes, err := s.notes(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading notes: %w", err)
	}
	byNote := map[string][]chunkRow{}
	err = s.chunkRows(ctx, true, func(r chunkRow) error {
		if _, ok := notes[r.key]; ok {
			byNote[r.key] = append(byNote[r.key], r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading notes: %w", err)
	}
	return assemble(notes, byNote), nil
}

// assemble reassembles notes from their chunks (byNote: by note key), in
// path order.
func assemble(notes map[string]note, byNote map[string][]chunkRow) []store.NoteSource {
	out := make([]store.NoteSource, 0, len(byNote))
	for key, rows := range byNote {
		n := notes[key]
		sort.Slice(rows, func(i, j int) bool { return rows[i].ordinal < rows[j].ordinal })
		src := store.NoteSource{DocID: DocumentID(n.root, n.path), Root: n.root, Path: n.path, Title: n.title,
			Restricted: n.restricted, Metadata: json.RawMessage(n.metadata)}
		var body []byte
		for _, r := range rows {
			src.Restricted = src.Restricted || !r.public
			src.ChunkIDs = append(src.ChunkIDs, r.id)
			src.ChunkTexts = append(src.ChunkTexts, r.text)
			// Lay the chunk where it was; overlapping windows rewrite the
			// same bytes.
			for len(body) < r.byteStart {
				body = append(body, '\n')
			}
			body = append(body[:r.byteStart], r.text...)
		}
		src.Text = string(body)
		out = append(out, src)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Root != out[j].Root {
			return out[i].Root < out[j].Root
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// DMOnlyCounts counts the DM-only notes by reason; a note not marked
// public, or changing audience, is DM-only ("unknown" when it has no
// reason).
func (s *Store) DMOnlyCounts(ctx context.Context) (map[string]int, error) {
	notes, err := s.notes(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting DM-only notes: %w", err)
	}
	out := map[string]int{}
	for _, n := range notes {
		if !n.restricted {
			continue
		}
		reason := n.reason
		if reason == "" {
			reason = "unknown"
		}
		out[reason]++
	}
	return out, nil
}

// NoteLangs counts the notes by the language they were analysed in,
// derived from their stamps (the engine's "analysis=es-1+u15.0.0"): the
// notes' objects do not keep it apart.
func (s *Store) NoteLangs(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	err := s.each(ctx, documentClass, []string{propStamp}, func(o object) error {
		out[stampLang(o.text(propStamp))]++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("counting notes by language: %w", err)
	}
	return out, nil
}

// SearchesByLang implements [store.LangCounter]: SearchParagraphs ignores
// [store.BM25Options.Lang], the paragraphs' objects not knowing their
// note's language.
func (s *Store) SearchesByLang() bool { return false }

// stampLang is the language named by a note's stamp, "" when it names
// none.
func stampLang(stamp string) string {
	for _, f := range strings.Fields(stamp) {
		if a, ok := strings.CutPrefix(f, "analysis="); ok {
			lang, _, _ := strings.Cut(a, "-")
			return lang
		}
	}
	return ""
}
