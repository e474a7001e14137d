package retrieve_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// memStore is an in-memory store of one-paragraph chunks: enough of the
// roles the paths read (keyword search, chunk reading, mentions) to run
// them without SQLite. Its keyword score is the number of the question's
// terms the chunk holds, counted with repetition; like the real store, it
// applies visibility and the filter before ranking.
type memStore struct {
	chunks   map[int64]store.Chunk
	terms    map[int64][]string
	mentions map[int64][]store.Mention
	// err, when set, is what every method returns.
	err error
	// seen records the options of the last keyword search.
	seen store.BM25Options
}

// Compile-time checks: memStore serves each path.
var (
	_ store.KeywordSearcher = (*memStore)(nil)
	_ retrieve.EntitySource = (*memStore)(nil)
)

func newMemStore(t *testing.T, a *analysis.Analyzer, chunks []store.Chunk) *memStore {
	t.Helper()
	s := &memStore{chunks: map[int64]store.Chunk{}, terms: map[int64][]string{}, mentions: map[int64][]store.Mention{}}
	for _, c := range chunks {
		if _, dup := s.chunks[c.ID]; dup {
			t.Fatalf("chunk %d twice", c.ID)
		}
		s.chunks[c.ID] = c
		s.terms[c.ID] = a.Terms(c.Text)
	}
	return s
}

// visible reports whether chunk c may be seen with public and f.
func visible(c store.Chunk, public bool, f store.Filter) bool {
	if public && c.Restricted {
		return false
	}
	return len(f.Sessions) == 0 || (c.InSession && slices.Contains(f.Sessions, c.Session))
}

// SearchParagraphs scores each chunk as one paragraph, the whole of its
// text.
func (s *memStore) SearchParagraphs(_ context.Context, terms []string, opts store.BM25Options) (store.Paragraphs, error) {
	s.seen = opts
	if s.err != nil {
		return nil, fmt.Errorf("searching: %w", s.err)
	}
	var out []store.Paragraph
	for id, c := range s.chunks {
		if !visible(c, opts.Public, opts.Filter) {
			continue
		}
		score := 0
		for _, t := range s.terms[id] {
			if slices.Contains(terms, t) {
				score++
			}
		}
		if score > 0 {
			out = append(out, store.Paragraph{Score: float64(score), ChunkID: id, ByteStart: c.ByteStart, ByteEnd: c.ByteStart + len(c.Text)})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ChunkID < out[j].ChunkID
	})
	return memParagraphs{s, out}, nil
}

// memParagraphs is a search of a memStore.
type memParagraphs struct {
	s     *memStore
	found []store.Paragraph
}

func (p memParagraphs) Top(_ context.Context, limit int) ([]store.Paragraph, error) {
	return p.found[:min(limit, len(p.found))], nil
}

func (p memParagraphs) Chunks(_ context.Context, ids []int64) (map[int64]store.Chunk, error) {
	out := map[int64]store.Chunk{}
	for _, id := range ids {
		if c, ok := p.s.chunks[id]; ok {
			out[id] = c
		}
	}
	return out, nil
}

func (memParagraphs) Close() error { return nil }

func (s *memStore) TermUsed(_ context.Context, term string, public bool) (bool, error) {
	for id, ts := range s.terms {
		if visible(s.chunks[id], public, store.Filter{}) && slices.Contains(ts, term) {
			return true, nil
		}
	}
	return false, s.err
}

func (s *memStore) Chunks(_ context.Context, ids []int64) ([]store.Chunk, error) {
	if s.err != nil {
		return nil, fmt.Errorf("reading chunks: %w", s.err)
	}
	out := make([]store.Chunk, 0, len(ids))
	for _, id := range ids {
		c, ok := s.chunks[id]
		if !ok {
			return nil, fmt.Errorf("%w: chunk %d", store.ErrMissingParent, id)
		}
		out = append(out, c)
	}
	return out, nil
}

func (s *memStore) ChunksFound(_ context.Context, ids []int64) ([]store.Chunk, error) {
	if s.err != nil {
		return nil, fmt.Errorf("reading chunks: %w", s.err)
	}
	out := make([]store.Chunk, 0, len(ids))
	for _, id := range ids {
		if c, ok := s.chunks[id]; ok {
			out = append(out, c)
		}
	}
	return out, nil
}

func (s *memStore) ChunkByUID(_ context.Context, uid string) (store.Chunk, error) {
	for _, c := range s.chunks {
		if c.UID == uid {
			return c, nil
		}
	}
	return store.Chunk{}, fmt.Errorf("%w: %q", store.ErrNoChunk, uid)
}

func (s *memStore) ListChunks(_ context.Context, _ []string) ([]store.Chunk, error) {
	out := make([]store.Chunk, 0, len(s.chunks))
	for _, c := range s.chunks {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, s.err
}

func (s *memStore) MentionsOf(_ context.Context, entityIDs []int64, public bool) (map[int64][]store.Mention, error) {
	if s.err != nil {
		return nil, fmt.Errorf("reading mentions: %w", s.err)
	}
	out := map[int64][]store.Mention{}
	for _, id := range entityIDs {
		for _, m := range s.mentions[id] {
			if visible(s.chunks[m.ChunkID], public, store.Filter{}) {
				out[id] = append(out[id], m)
			}
		}
	}
	return out, nil
}

// mention records that chunk names entity count times.
func (s *memStore) mention(entity, chunk int64, count int) {
	c := s.chunks[chunk]
	s.mentions[entity] = append(s.mentions[entity], store.Mention{ChunkID: chunk, Count: count, Session: c.Session, InSession: c.InSession, Path: c.Path})
}

func sessionChunk(id int64, session int, text string, restricted bool) store.Chunk {
	return store.Chunk{
		ChunkData:  store.ChunkData{UID: fmt.Sprint("c", id), Session: session, InSession: true, Label: fmt.Sprint("Sesión ", session), Text: text},
		ID:         id,
		Path:       "Diario.md",
		Restricted: restricted,
	}
}

func noteChunk(id int64, path, text string) store.Chunk {
	return store.Chunk{ChunkData: store.ChunkData{UID: fmt.Sprint("c", id), Label: path, Text: text}, ID: id, Path: path}
}

func ids(rs []retrieve.Result) []int64 {
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[i] = r.Chunk.ID
	}
	return out
}

func spanish(t *testing.T) *analysis.Analyzer {
	t.Helper()
	a, err := analysis.New("es")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestBM25PathOnFakeStore runs the keyword path against an in-memory store:
// the path analyses the question (accents folded, words stemmed), hands the
// store its options untouched, so that DM-only chunks and filtered-out
// sessions never come back, and keeps the store's order, scores and
// passages.
func TestBM25PathOnFakeStore(t *testing.T) {
	ctx := context.Background()
	a := spanish(t)
	s := newMemStore(t, a, []store.Chunk{
		sessionChunk(1, 1, "El dragon rojo ataco Puertogris al alba.", false),
		sessionChunk(2, 2, "El dragón dormía; los dragones soñaban con otro dragón.", true),
		sessionChunk(3, 3, "Un dragón pasó sobre la posada.", false),
		sessionChunk(4, 4, "La posada estaba vacía.", false),
	})
	question := "¿Dónde atacó el dragón?"
	for _, tc := range []struct {
		name string
		opts store.BM25Options
		n    int
		want []int64
	}{
		{"dm", store.BM25Options{}, 10, []int64{2, 1, 3}},
		{"dm, first only", store.BM25Options{}, 1, []int64{2}},
		{"player", store.BM25Options{Public: true}, 10, []int64{1, 3}},
		{"player, session filter", store.BM25Options{Public: true, Filter: store.Filter{Sessions: []int{3, 4}}}, 10, []int64{3}},
		{"player, only the DM-only session", store.BM25Options{Public: true, Filter: store.Filter{Sessions: []int{2}}}, 10, []int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := retrieve.BM25{Index: s, Analyzer: a, Options: tc.opts}
			res, err := p.Retrieve(ctx, question, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(res); !slices.Equal(got, tc.want) {
				t.Errorf("chunks %v, want %v", got, tc.want)
			}
			if s.seen.Public != tc.opts.Public || !slices.Equal(s.seen.Filter.Sessions, tc.opts.Filter.Sessions) {
				t.Errorf("the store was asked with %+v, want %+v", s.seen, tc.opts)
			}
			for i, r := range res {
				if r.Passage != r.Chunk.Text || r.Score <= 0 || (i > 0 && r.Score > res[i-1].Score) {
					t.Errorf("result %d: score %v, passage %q: not the store's", i, r.Score, r.Passage)
				}
			}
		})
	}
}

// TestPathsWrapStoreErrors: a failing store fails the path, and the cause
// stays visible to errors.Is.
func TestPathsWrapStoreErrors(t *testing.T) {
	ctx := context.Background()
	a := spanish(t)
	s := newMemStore(t, a, []store.Chunk{sessionChunk(1, 1, "Harbin sirve cerveza.", false)})
	s.mention(10, 1, 1)
	s.err = errors.New("store down")
	ents := []compendium.Entity{{Name: "Harbin", Kind: compendium.KindNPC}}
	for _, p := range []retrieve.Path{
		retrieve.BM25{Index: s, Analyzer: a},
		retrieve.Entity{Index: s, Matcher: compendium.NewMatcher(ents), Entities: []store.Entity{{ID: 10, Name: "Harbin"}}, Units: 1},
	} {
		if _, err := p.Retrieve(ctx, "¿Qué sirve Harbin?", 5); !errors.Is(err, s.err) {
			t.Errorf("%s path: error %v, want it to wrap %v", p.Name(), err, s.err)
		}
	}
}

// TestEntityPathOnFakeStore runs the entity path against an in-memory
// store: an entity's own note first, then the chunks naming it most; a
// player never reaches a DM-only chunk; an entity named in most units keeps
// only its own note; a filter keeps only the chunks it allows.
func TestEntityPathOnFakeStore(t *testing.T) {
	ctx := context.Background()
	a := spanish(t)
	s := newMemStore(t, a, []store.Chunk{
		sessionChunk(1, 1, "Dorn y el viejo Harbin. Harbin calla.", false),
		sessionChunk(2, 2, "Dorn abre la marcha.", false),
		sessionChunk(3, 3, "Dorn y Harbin, en secreto.", true),
		sessionChunk(4, 4, "Dorn descansa.", false),
		noteChunk(5, "NPCs/Harbin.md", "Harbin, tabernero."),
		noteChunk(6, "PJs/Dorn.md", "Dorn, enano guerrero."),
	})
	const harbin, dorn = 10, 20
	s.mention(harbin, 1, 2)
	s.mention(harbin, 3, 1)
	s.mention(harbin, 5, 1)
	for _, c := range []int64{1, 2, 3, 4, 6} {
		s.mention(dorn, c, 1)
	}
	recs := []store.Entity{{ID: harbin, Name: "Harbin", Note: "NPCs/Harbin.md"}, {ID: dorn, Name: "Dorn", Note: "PJs/Dorn.md"}}
	matcher := compendium.NewMatcher([]compendium.Entity{
		{Name: "Harbin", Kind: compendium.KindNPC, Note: "NPCs/Harbin.md"},
		{Name: "Dorn", Kind: compendium.KindPC, Note: "PJs/Dorn.md"},
	})
	for _, tc := range []struct {
		name     string
		question string
		public   bool
		allow    map[int64]bool
		want     []int64
	}{
		{"own note, then by mentions", "¿Quién es Harbin?", false, nil, []int64{5, 1, 3}},
		{"player", "¿Quién es Harbin?", true, nil, []int64{5, 1}},
		{"ubiquitous", "¿Qué hizo Dorn?", false, nil, []int64{6}},
		{"filter", "¿Quién es Harbin?", false, map[int64]bool{1: true, 3: true}, []int64{1, 3}},
		{"nothing named", "¿Quién es Katerina?", false, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := retrieve.Entity{Index: s, Matcher: matcher, Entities: recs, Units: 6, Public: tc.public, Allow: tc.allow}
			res, err := p.Retrieve(ctx, tc.question, 10)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(res); !slices.Equal(got, tc.want) {
				t.Errorf("chunks %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDensePathOnFakeStore runs the dense path with the chunks read back
// from an in-memory store: the nearest chunk first, and a DM-only chunk
// dropped for a player even when the caller's exclusion list missed it.
func TestDensePathOnFakeStore(t *testing.T) {
	ctx := context.Background()
	a := spanish(t)
	chunks := []store.Chunk{
		sessionChunk(1, 1, "El dragón rojo atacó Puertogris al alba.", false),
		sessionChunk(2, 2, "El dragón rojo atacó Puertogris de noche.", true),
		sessionChunk(3, 3, "La posada estaba vacía y fría.", false),
	}
	s := newMemStore(t, a, chunks)
	em := embed.NewHashing(embed.DefaultHashingDims)
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	vecs, err := em.Embed(ctx, embed.Passage, texts)
	if err != nil {
		t.Fatal(err)
	}
	ix := vector.NewExact(embed.DefaultHashingDims)
	for i, v := range vecs {
		vector.Normalize(v)
		if err := ix.Add(chunks[i].ID, v); err != nil {
			t.Fatal(err)
		}
	}
	question := "El dragón rojo atacó Puertogris de noche."
	for _, tc := range []struct {
		name   string
		public bool
		want   int64
		never  int64
	}{
		{"dm", false, 2, 0},
		{"player", true, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := retrieve.Dense{Embedder: em, Searcher: ix, Index: s, Public: tc.public}
			res, err := p.Retrieve(ctx, question, 3)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) == 0 || res[0].Chunk.ID != tc.want {
				t.Fatalf("chunks %v, want %d first", ids(res), tc.want)
			}
			if tc.never != 0 && slices.Contains(ids(res), tc.never) {
				t.Errorf("chunks %v hold DM-only chunk %d", ids(res), tc.never)
			}
		})
	}
	// An ingest replaced chunk 2 after the vectors were loaded: the path
	// leaves it out and still returns the others, without an error.
	delete(s.chunks, 2)
	res, err := retrieve.Dense{Embedder: em, Searcher: ix, Index: s}.Retrieve(ctx, question, 3)
	if err != nil {
		t.Fatalf("a chunk replaced since the vectors were loaded: %v", err)
	}
	if got := ids(res); slices.Contains(got, 2) || len(got) != 2 || got[0] != 1 {
		t.Errorf("after chunk 2 was replaced: chunks %v, want [1 3]", got)
	}
	// Asked for two, with one vector known to be gone: two chunks that
	// exist come back, not one (without Gone the gone one takes a slot).
	for _, tc := range []struct {
		gone, want int
	}{{0, 1}, {1, 2}} {
		res, err = retrieve.Dense{Embedder: em, Searcher: ix, Index: s, Gone: tc.gone}.Retrieve(ctx, question, 2)
		if err != nil || len(res) != tc.want {
			t.Errorf("Gone %d, asked for 2: chunks %v (%v), want %d", tc.gone, ids(res), err, tc.want)
		}
	}
}

// TestEntityPathSkipsCommonWords: with NamesOnly (the path reordering
// other paths' candidates), a question that writes capitals names
// an entity only as the notes write it: "trabajador" is the common word,
// not the note "Trabajador", and lifts nothing; "Trabajador" does, and an
// alias the notes give, in any case ("la bruja", "el enano" for "el
// Enano"), still names its entity. A
// question written all in lower case says nothing by its case: every
// match stands.
func TestEntityPathSkipsCommonWords(t *testing.T) {
	ctx := context.Background()
	a := spanish(t)
	s := newMemStore(t, a, []store.Chunk{
		noteChunk(1, "Seguridad/Trabajador.md", "Trabajador: persona que presta servicios."),
		noteChunk(2, "Seguridad/Monitoreo.md", "El dosímetro del trabajador expuesto."),
		noteChunk(3, "NPCs/Madre Grulla.md", "Madre Grulla, la bruja del pantano."),
		noteChunk(4, "PJs/Dorn.md", "Dorn, el Enano, clérigo."),
	})
	const trabajador, grulla, dorn = 10, 20, 30
	s.mention(trabajador, 1, 1)
	s.mention(trabajador, 2, 1)
	s.mention(grulla, 3, 2)
	s.mention(dorn, 4, 1)
	recs := []store.Entity{
		{ID: dorn, Name: "Dorn", Aliases: []string{"el Enano"}, Note: "PJs/Dorn.md"},
		{ID: trabajador, Name: "Trabajador", Note: "Seguridad/Trabajador.md"},
		{ID: grulla, Name: "Madre Grulla", Aliases: []string{"la bruja"}, Note: "NPCs/Madre Grulla.md"},
	}
	matcher := compendium.NewMatcher([]compendium.Entity{
		{Name: "Dorn", Kind: compendium.KindPC, Aliases: []string{"el Enano"}, Note: "PJs/Dorn.md"},
		{Name: "Trabajador", Kind: compendium.KindOther, Note: "Seguridad/Trabajador.md"},
		{Name: "Madre Grulla", Kind: compendium.KindNPC, Aliases: []string{"la bruja"}, Note: "NPCs/Madre Grulla.md"},
	})
	p := retrieve.Entity{Index: s, Matcher: matcher, Entities: recs, Units: 10, NamesOnly: true}
	alone := p
	alone.NamesOnly = false
	if res, err := alone.Retrieve(ctx, "¿Cuál es el límite de dosis para un trabajador expuesto?", 10); err != nil || !slices.Equal(ids(res), []int64{1, 2}) {
		t.Errorf("alone, the path should keep the common word's match: %v %v", ids(res), err)
	}
	for _, tc := range []struct {
		question string
		want     []int64
	}{
		{"¿Cuál es el límite de dosis para un trabajador expuesto?", nil},
		{"¿Qué dice la nota Trabajador?", []int64{1, 2}},
		{"cual es el limite de dosis para un trabajador expuesto", []int64{1, 2}},
		{"¿Con qué pagamos a la bruja?", []int64{3}},
		{"¿El trabajador conoce a la bruja?", []int64{3}},
		{"¿Quién es el enano?", []int64{4}},
	} {
		res, err := p.Retrieve(ctx, tc.question, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(res); !slices.Equal(got, tc.want) {
			t.Errorf("%q: chunks %v, want %v", tc.question, got, tc.want)
		}
	}
}
