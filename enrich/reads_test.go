package enrich

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// countingStore counts, by note, what an update of the compendium reads
// through the store of each note: its text, its facts, its lowercase
// words. A read of every note's lowercase words is counted under note 0.
type countingStore struct {
	CompendiumStore
	texts, facts, lower map[int64]int
}

func newCountingStore(s CompendiumStore) *countingStore {
	return &countingStore{CompendiumStore: s, texts: map[int64]int{}, facts: map[int64]int{}, lower: map[int64]int{}}
}

func (c *countingStore) NoteSourcesOf(ctx context.Context, ids []int64) ([]store.NoteSource, error) {
	for _, id := range ids {
		c.texts[id]++
	}
	return c.CompendiumStore.NoteSourcesOf(ctx, ids)
}

func (c *countingStore) EachNoteFacts(ctx context.Context, fn func(store.NoteFacts) error) error {
	return c.CompendiumStore.EachNoteFacts(ctx, func(nf store.NoteFacts) error {
		c.facts[nf.DocID]++
		return fn(nf)
	})
}

func (c *countingStore) EachNoteLower(ctx context.Context, fn func(bool, []byte) error) error {
	return c.CompendiumStore.EachNoteLower(ctx, func(r bool, lower []byte) error {
		c.lower[0]++
		return fn(r, lower)
	})
}

func (c *countingStore) CompendiumChanges(ctx context.Context) (store.CompendiumChanges, error) {
	ch, err := c.CompendiumStore.CompendiumChanges(ctx)
	for _, nf := range append(append([]store.NoteFacts(nil), ch.Gone...), ch.Flipped...) {
		c.facts[nf.DocID]++
		c.lower[nf.DocID]++
	}
	return ch, err
}

// An update after one note is edited reads that note only: its new text,
// and the facts and lowercase words its old version added to the sums;
// after a note's visibility flips or a note is removed, that note's facts
// and lowercase words only. Both compendiums still equal a full build.
func TestUpdateReadsOnlyTheChangedNote(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	ix := openIndex(t)
	people := []string{"Garrik", "Quembilda", "Leoric Valcárcel", "Torre de Sal", "Caldemora", "Aurelith", "Nyssa"}
	notes := map[string]testNote{}
	for i := range 120 {
		n := testNote{path: fmt.Sprintf("Sesiones/Sesión %03d.md", i), title: fmt.Sprintf("Sesión %d", i), restricted: i%7 == 0}
		text := fmt.Sprintf("# Sesión %d\n\n%s habló con %s en la taberna. ", i, people[i%len(people)], people[(i*3+1)%len(people)])
		if i%5 == 0 {
			text += fmt.Sprintf("Fueron a [[%s]] al alba. ", people[(i+2)%len(people)])
		}
		n.chunks = []string{text, fmt.Sprintf("Luego %s volvió a casa con la carta.\n", people[(i+4)%len(people)])}
		notes[n.path] = n
		putNote(t, ix, root, n)
	}
	opts := CompendiumOptions{Roots: []string{root}, Stamp: "v1", NotesChanged: true}
	if _, err := BuildCompendium(ctx, ix, opts); err != nil {
		t.Fatal(err)
	}
	docID := func(path string) int64 {
		t.Helper()
		ns, err := ix.NoteSources(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range ns {
			if n.Path == path {
				return n.DocID
			}
		}
		t.Fatalf("no note %q", path)
		return 0
	}
	check := func(what string, wantTexts, wantFacts map[int64]int) {
		t.Helper()
		cs := newCountingStore(ix)
		if _, err := BuildCompendium(ctx, cs, opts); err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(cs.texts, wantTexts) || !maps.Equal(cs.facts, wantFacts) || !maps.Equal(cs.lower, wantFacts) {
			t.Errorf("%s: the update read the texts of %d notes %s, the facts of %d %s and the lowercase words of %d %s; want texts %v, facts and words %v",
				what, len(cs.texts), brief(cs.texts), len(cs.facts), brief(cs.facts), len(cs.lower), brief(cs.lower), wantTexts, wantFacts)
		}
		want := fullBuild(t, ix, []string{root})
		for i, scope := range []string{store.ScopeDM, store.ScopePlayer} {
			if got := stored(t, ix, scope); !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("%s: the %s compendium differs from a full build", what, scope)
			}
		}
	}

	edited := "Sesiones/Sesión 010.md"
	old := docID(edited)
	n := notes[edited]
	n.chunks = append([]string(nil), n.chunks...)
	n.chunks[1] += "Llovía sobre la taberna vacía.\n"
	putNote(t, ix, root, n)
	check("one note edited", map[int64]int{docID(edited): 1}, map[int64]int{old: 1})

	flipped := "Sesiones/Sesión 021.md"
	flipInPlace(t, ix, flipped)
	check("one note made DM-only", map[int64]int{}, map[int64]int{docID(flipped): 1})

	removed := "Sesiones/Sesión 033.md"
	old = docID(removed)
	if err := ix.DeleteDocument(ctx, root, removed); err != nil {
		t.Fatal(err)
	}
	check("one note removed", map[int64]int{}, map[int64]int{old: 1})
}

// brief shows a count by note, if short.
func brief(m map[int64]int) string {
	if len(m) > 5 {
		return "(many)"
	}
	return fmt.Sprint(m)
}
