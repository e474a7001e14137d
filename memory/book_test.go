package memory_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/memory"
	"github.com/oraculo/oraculo/store"
)

var (
	dm  = memory.Asker{Role: "dm"}
	ana = memory.Asker{Player: true, Role: "player", Name: "ana"}
	bea = memory.Asker{Player: true, Role: "player", Name: "bea"}
	// anon is a player without a name: no scope of their own.
	anon = memory.Asker{Player: true, Role: "player"}
)

// campaign is a real SQLite index holding a note players may see
// ("abierta.md", chunk "c-abierta") and a DM-only one ("secreta.md",
// chunk "c-secreta").
func campaign(t *testing.T) *index.Index {
	t.Helper()
	ctx := context.Background()
	ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	for _, n := range []struct {
		path, text string
		dmOnly     bool
	}{{"abierta.md", "La posada del Poni está en el cruce.", false}, {"secreta.md", "El archiduque es un vampiro.", true}} {
		writeNote(t, ix, n.path, n.text, n.dmOnly)
	}
	return ix
}

func writeNote(t *testing.T, ix *index.Index, path, text string, dmOnly bool) {
	t.Helper()
	uid := "c-" + strings.TrimSuffix(path, ".md")
	d := &store.DocumentRecord{Root: "/r", Path: path, SHA256: fmt.Sprintf("%x", len(text)) + path, Title: path, Stamp: "s", Lang: "es", DMOnly: dmOnly,
		Chunks: []store.ChunkRecord{{
			ChunkData: store.ChunkData{UID: uid, Hash: uid, Label: path, Text: text, ByteEnd: len(text)},
			Children:  []store.ChildRecord{{ByteEnd: len(text), Terms: text}},
		}}}
	if err := ix.ReplaceDocument(context.Background(), d); err != nil {
		t.Fatal(err)
	}
}

// book is memory as who reads it over ix, players seeing session 3 only.
// Its chunks are found as the engine finds them: a DM-only chunk is, to a
// player, no chunk.
func book(ix *index.Index, who memory.Asker) *memory.Book {
	return &memory.Book{
		Index: ix, Asker: who,
		Sessions: func(context.Context) ([]int, error) { return []int{3}, nil },
		Chunk: func(ctx context.Context, id string) (string, string, error) {
			c, err := ix.ChunkByUID(ctx, id)
			if err == nil && c.Restricted && who.Player {
				err = fmt.Errorf("%w: %q", store.ErrNoChunk, id)
			}
			return c.Path, c.UID, err
		},
		ReadOnly: func() error { return nil },
	}
}

func add(t *testing.T, b *memory.Book, in memory.Input) memory.Entry {
	t.Helper()
	m, err := b.Add(context.Background(), in)
	if err != nil {
		t.Fatalf("adding %+v: %v", in, err)
	}
	return m
}

func keys(es []memory.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Key)
	}
	sort.Strings(out)
	return out
}

// seed stores one entry of every kind the audience tells apart.
func seed(t *testing.T, ix *index.Index) {
	d := book(ix, dm)
	for _, in := range []memory.Input{
		{Scope: "campaign", Key: "verificada", Value: "dicha por el DM", Verified: true},
		{Scope: "campaign", Key: "hipotesis", Value: "sin verificar"},
		{Scope: "dm", Key: "del dm", Value: "solo el DM", Verified: true},
		{Scope: "session:3", Key: "sesion vista", Value: "jugada", Verified: true},
		{Scope: "session:5", Key: "sesion oculta", Value: "secreta", Verified: true},
		{Scope: "campaign", Key: "de nota abierta", Value: "el Poni", Note: "abierta.md", Verified: true},
		{Scope: "campaign", Key: "de nota secreta", Value: "vampiro", Chunk: "c-secreta", Verified: true},
	} {
		add(t, d, in)
	}
	add(t, book(ix, ana), memory.Input{Scope: "player:ana", Key: "de ana", Value: "mi sospecha"})
	add(t, book(ix, bea), memory.Input{Scope: "player:bea", Key: "de bea", Value: "la suya"})
}

// TestAudience: the DM sees every entry; a player their own scope, and
// otherwise only verified entries of the campaign and of the sessions
// players see, whose note, if any, players may see whole. A note that is
// gone hides the entries taken from it (fail closed), and makes them
// stale to the DM.
func TestAudience(t *testing.T) {
	ctx := context.Background()
	ix := campaign(t)
	seed(t, ix)
	shared := []string{"de nota abierta", "sesion vista", "verificada"}
	for _, tc := range []struct {
		who  memory.Asker
		want []string
	}{
		{dm, []string{"de ana", "de bea", "de nota abierta", "de nota secreta", "del dm", "hipotesis", "sesion oculta", "sesion vista", "verificada"}},
		{ana, append([]string{"de ana"}, shared...)},
		{bea, append([]string{"de bea"}, shared...)},
		{anon, shared},
	} {
		got, err := book(ix, tc.who).List(ctx, "", false)
		if err != nil || !slices.Equal(keys(got), tc.want) {
			t.Errorf("%+v sees %q, %v; want %q", tc.who, keys(got), err, tc.want)
		}
	}
	if err := ix.DeleteDocument(ctx, "/r", "abierta.md"); err != nil {
		t.Fatal(err)
	}
	if got, err := book(ix, ana).List(ctx, "campaign", false); err != nil || !slices.Equal(keys(got), []string{"verificada"}) {
		t.Errorf("once its note is gone, ana sees %q, %v; want only the statement", keys(got), err)
	}
	all, err := book(ix, dm).List(ctx, "campaign", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if m.Stale != (m.Key == "de nota abierta") {
			t.Errorf("%q: stale %v", m.Key, m.Stale)
		}
	}
}

// TestAudienceFailsClosed: when the sessions players may see cannot be
// read, a player is shown nothing and told why; the DM is not asked.
func TestAudienceFailsClosed(t *testing.T) {
	ctx := context.Background()
	ix := campaign(t)
	seed(t, ix)
	broken := errors.New("sessions unreadable")
	for _, who := range []memory.Asker{dm, ana} {
		b := book(ix, who)
		b.Sessions = func(context.Context) ([]int, error) { return nil, broken }
		got, err := b.List(ctx, "", false)
		if who.Player && (!errors.Is(err, broken) || got != nil) {
			t.Errorf("player: %q, %v; want nothing and the error", keys(got), err)
		}
		if !who.Player && (err != nil || len(got) != 9) {
			t.Errorf("dm: %d entries, %v; want 9", len(got), err)
		}
	}
}

// TestWrites: a player writes hypotheses in their own scope only, never
// verifies, names no note they may not see whole, and changes no entry
// they may not see or that is not theirs; a read-only index takes no
// change.
func TestWrites(t *testing.T) {
	ctx := context.Background()
	ix := campaign(t)
	seed(t, ix)
	byKey := map[string]string{}
	all, _ := book(ix, dm).List(ctx, "", false)
	for _, m := range all {
		byKey[m.Key] = m.ID
	}
	a := book(ix, ana)
	for _, tc := range []struct {
		name string
		err  error
		do   func() error
	}{
		{"campaign", memory.ErrForbidden, func() error { _, err := a.Add(ctx, memory.Input{Scope: "campaign", Key: "k", Value: "v"}); return err }},
		{"verified", memory.ErrForbidden, func() error {
			_, err := a.Add(ctx, memory.Input{Scope: "player:ana", Key: "k", Value: "v", Verified: true})
			return err
		}},
		{"nameless", memory.ErrForbidden, func() error {
			_, err := book(ix, anon).Add(ctx, memory.Input{Scope: "player:", Key: "k", Value: "v"})
			if errors.Is(err, store.ErrInvalidMemory) {
				_, err = book(ix, anon).Add(ctx, memory.Input{Scope: "player:ana", Key: "k", Value: "v"})
			}
			return err
		}},
		{"secret note", store.ErrInvalidMemory, func() error {
			_, err := a.Add(ctx, memory.Input{Scope: "player:ana", Key: "k", Value: "v", Note: "secreta.md"})
			return err
		}},
		{"secret chunk", store.ErrInvalidMemory, func() error {
			_, err := a.Add(ctx, memory.Input{Scope: "player:ana", Key: "k", Value: "v", Chunk: "c-secreta"})
			return err
		}},
		{"verify", memory.ErrForbidden, func() error { _, err := a.Verify(ctx, byKey["de ana"]); return err }},
		{"forget unseen", store.ErrNoMemory, func() error { return a.Forget(ctx, byKey["de bea"]) }},
		{"forget hidden", store.ErrNoMemory, func() error { return a.Forget(ctx, byKey["hipotesis"]) }},
		{"forget campaign", memory.ErrForbidden, func() error { return a.Forget(ctx, byKey["verificada"]) }},
		{"supersede", memory.ErrForbidden, func() error {
			_, err := a.Supersede(ctx, byKey["sesion vista"], memory.Input{Value: "otra"})
			return err
		}},
	} {
		if err := tc.do(); !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
		}
	}
	if _, err := a.Add(ctx, memory.Input{Scope: "player:ana", Key: "del poni", Value: "v", Chunk: "c-abierta"}); err != nil {
		t.Errorf("ana naming a chunk she may see: %v", err)
	}
	if err := a.Forget(ctx, byKey["de ana"]); err != nil {
		t.Errorf("ana forgetting her own: %v", err)
	}
	ro := errors.New("read-only")
	d := book(ix, dm)
	d.ReadOnly = func() error { return ro }
	if _, err := d.Add(ctx, memory.Input{Scope: "campaign", Key: "k", Value: "v"}); !errors.Is(err, ro) {
		t.Errorf("adding to a read-only index: %v", err)
	}
	if err := d.Forget(ctx, byKey["verificada"]); !errors.Is(err, ro) {
		t.Errorf("forgetting in a read-only index: %v", err)
	}
}

// TestVerifyAgainstNote: verifying an entry whose note changed moves its
// source to the stored version (no longer stale); its chunk stays named
// while the note has it.
func TestVerifyAgainstNote(t *testing.T) {
	ctx := context.Background()
	ix := campaign(t)
	d := book(ix, dm)
	m := add(t, d, memory.Input{Scope: "campaign", Key: "poni", Value: "en el cruce", Chunk: "c-abierta"})
	writeNote(t, ix, "abierta.md", "La posada del Poni ardió.", false)
	if got, _ := d.List(ctx, "", false); len(got) != 1 || !got[0].Stale {
		t.Fatalf("after the note changed: %+v, want one stale entry", got)
	}
	v, err := d.Verify(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	sum, _, _ := ix.NoteVersion(ctx, "abierta.md")
	if want := "note:abierta.md@" + sum + "#c-abierta"; v.Source != want || v.Status != store.MemoryVerified {
		t.Errorf("verified: %q %q, want %q verified", v.Source, v.Status, want)
	}
	if got, _ := d.List(ctx, "", false); len(got) != 1 || got[0].Stale {
		t.Errorf("after verifying: %+v, want it not stale", got)
	}
}

// TestForgettable: what "forget …" offers is the matching entries the
// asker may see and change.
func TestForgettable(t *testing.T) {
	ctx := context.Background()
	ix := campaign(t)
	seed(t, ix)
	for _, tc := range []struct {
		who  memory.Asker
		want []string
	}{{dm, []string{"de ana", "de bea", "de nota abierta", "de nota secreta"}}, {ana, []string{"de ana"}}, {anon, nil}} {
		got, err := book(ix, tc.who).Forgettable(ctx, "olvida lo de nota de ana y de bea", nil)
		if err != nil || got == nil || !slices.Equal(keys(got), tc.want) {
			t.Errorf("%+v: %q, %v; want %q", tc.who, keys(got), err, tc.want)
		}
	}
}

// TestForAnswer: an answer is shown the entries the asker may see that
// concern the question; verified ones are delivered under a label, the
// others unconfirmed; the term cache gives the same choice.
func TestForAnswer(t *testing.T) {
	ctx := context.Background()
	ix := campaign(t)
	d := book(ix, dm)
	add(t, d, memory.Input{Scope: "campaign", Key: "archiduque", Value: "Leoric murió en la sesión 12", Verified: true})
	add(t, d, memory.Input{Scope: "campaign", Key: "archiduque vivo", Value: "quizá el archiduque vive"})
	add(t, d, memory.Input{Scope: "dm", Key: "archiduque secreto", Value: "el archiduque es un vampiro", Verified: true})
	var cache memory.TermCache
	for _, tc := range []struct {
		who  memory.Asker
		want []string
	}{{dm, []string{"archiduque secreto:evidence", "archiduque vivo:unconfirmed", "archiduque:evidence"}}, {ana, []string{"archiduque:evidence"}}} {
		for range 2 {
			shown, err := book(ix, tc.who).ForAnswer(ctx, "¿Qué pasó con el archiduque?", "es", nil, &cache)
			if err != nil {
				t.Fatal(err)
			}
			ev, uses := memory.Deliver(answer.Context{}, shown)
			var got []string
			for _, u := range uses {
				got = append(got, u.Key+":"+u.Use)
				if (u.Use == memory.UseEvidence) != strings.HasPrefix(u.Label, answer.MemoryLabelPrefix) {
					t.Errorf("%q: use %q, label %q", u.Key, u.Use, u.Label)
				}
			}
			sort.Strings(got)
			if !slices.Equal(got, tc.want) || len(ev.Memory)+len(ev.Unconfirmed) != len(uses) {
				t.Errorf("%+v: %q (%d items, %d unconfirmed), want %q", tc.who, got, len(ev.Memory), len(ev.Unconfirmed), tc.want)
			}
		}
	}
}
