package weaviate_test

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/store/weaviate"
)

// Annotation keys of the test.
const (
	annModel = "chat/test-model"
	annP1    = "p1"
	annP2    = "p2"
)

// pendingAnnotations is what PendingAnnotations lists, sorted by hash
// (each backend lists in its own chunk id order).
func pendingAnnotations(t *testing.T, as store.AnnotationStore, prompt string) []store.AnnotateJob {
	t.Helper()
	jobs, err := as.PendingAnnotations(context.Background(), annModel, prompt)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, j := range jobs {
		if j.Hash == "" || seen[j.Hash] {
			t.Fatalf("PendingAnnotations lists hash %q twice or empty", j.Hash)
		}
		seen[j.Hash] = true
	}
	sort.Slice(jobs, func(i, k int) bool { return jobs[i].Hash < jobs[k].Hash })
	return jobs
}

func jobsEqual(a, b store.AnnotateJob) bool {
	return a.Hash == b.Hash && a.Text == b.Text && slices.Equal(a.Headings, b.Headings)
}

// annotationsByUID is every chunk's annotation for model and prompt, by
// chunk UID.
func annotationsByUID(t *testing.T, r interface {
	store.ChunkReader
	store.AnnotationStore
}, prompt string) map[string]string {
	t.Helper()
	uid := uidsByID(t, r)
	ids := slices.Collect(maps.Keys(uid))
	got, err := r.Annotations(context.Background(), annModel, prompt, ids)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for id, text := range got {
		out[uid[id]] = text
	}
	return out
}

func testAnnotations(t *testing.T, node *weaviatetest.Node, wv *weaviate.Store, ix *index.Index, docs []*store.DocumentRecord, root string, cfg ingest.Config) {
	ctx := context.Background()
	both := []store.AnnotationStore{wv, ix}
	compare := func(step string) {
		t.Helper()
		for _, p := range []string{annP1, annP2} {
			pw, ps := pendingAnnotations(t, wv, p), pendingAnnotations(t, ix, p)
			if !slices.EqualFunc(pw, ps, jobsEqual) {
				t.Errorf("%s: PendingAnnotations(%s): weaviate %d jobs, SQLite %d, or they differ", step, p, len(pw), len(ps))
			}
			aw, as := annotationsByUID(t, wv, p), annotationsByUID(t, ix, p)
			if !maps.Equal(aw, as) {
				t.Errorf("%s: Annotations(%s): weaviate %d chunks, SQLite %d, or they differ", step, p, len(aw), len(as))
			}
		}
		cw, err := wv.AnnotationCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cs, _ := ix.AnnotationCounts(ctx)
		if !maps.Equal(cw, cs) {
			t.Errorf("%s: AnnotationCounts: weaviate %v, SQLite %v", step, cw, cs)
		}
	}

	before := pendingAnnotations(t, ix, annP1)
	if len(before) < 10 {
		t.Fatalf("%d texts to annotate: the test proves nothing", len(before))
	}
	compare("before")

	// Every other text gets a p1 annotation, the first three a p2 one.
	annotated := map[string]bool{}
	put := func(prompt, hash, text string) {
		t.Helper()
		for _, as := range both {
			if err := as.PutAnnotation(ctx, annModel, prompt, hash, text); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, j := range before {
		if i%2 == 0 {
			put(annP1, j.Hash, "  Una nota sobre "+j.Hash[:8]+".\n")
			annotated[j.Hash] = true
		}
		if i < 3 {
			put(annP2, j.Hash, "otra "+j.Hash[:8])
		}
	}
	compare("after put")
	if after := pendingAnnotations(t, wv, annP1); len(after) != len(before)-len(annotated) {
		t.Errorf("%d texts pending after annotating %d of %d", len(after), len(annotated), len(before))
	}
	counts, _ := wv.AnnotationCounts(ctx)
	want := map[string]int{annModel + " " + annP1: len(annotated), annModel + " " + annP2: 3}
	if !maps.Equal(counts, want) {
		t.Errorf("AnnotationCounts = %v, want %v", counts, want)
	}
	aw := annotationsByUID(t, wv, annP1)
	if len(aw) < len(annotated) {
		t.Errorf("%d chunks annotated for %d texts", len(aw), len(annotated))
	}
	for _, text := range aw {
		if !strings.HasPrefix(text, "Una nota sobre ") || text != strings.TrimSpace(text) {
			t.Errorf("annotation %q not stored trimmed", text)
			break
		}
	}

	// A second put of the same keys replaces, writing nothing new; an
	// empty annotation is refused and the text stays pending.
	put(annP1, before[0].Hash, "Una nota sobre "+before[0].Hash[:8]+".")
	pend := before[1].Hash
	for _, as := range both {
		if err := as.PutAnnotation(ctx, annModel, annP1, pend, " \n\t"); err == nil {
			t.Errorf("%T stored an empty annotation", as)
		}
	}
	compare("after a second put")
	if again, _ := wv.AnnotationCounts(ctx); !maps.Equal(again, want) {
		t.Errorf("after a second put and an empty one: %v, want %v", again, want)
	}

	// Another tenant sees nothing.
	other := open(t, node, "other")
	if c, err := other.AnnotationCounts(ctx); err != nil || len(c) != 0 {
		t.Errorf("another tenant's annotation counts: %v, %v", c, err)
	}
	if jobs, err := other.PendingAnnotations(ctx, annModel, annP1); err != nil || len(jobs) != 0 {
		t.Errorf("another tenant's pending annotations: %d, %v", len(jobs), err)
	}
	ids := slices.Collect(maps.Keys(uidsByID(t, wv)))
	if got, err := other.Annotations(ctx, annModel, annP1, ids); err != nil || len(got) != 0 {
		t.Errorf("another tenant's annotations of this tenant's chunks: %d, %v", len(got), err)
	}
	if n, err := other.PruneAnnotations(ctx); err != nil || n != 0 {
		t.Errorf("another tenant pruned %d (%v)", n, err)
	}

	for _, as := range both {
		if n, err := as.PruneAnnotations(ctx); err != nil || n != 0 {
			t.Errorf("%T: PruneAnnotations with every annotation in use: %d, %v", as, n, err)
		}
	}

	// A note whose first chunk's text changes: the new text is pending,
	// the old one's annotation pruned; the note's other chunks (same
	// text, rewritten) keep theirs.
	uses := map[string]int{}
	for _, d := range docs {
		for _, c := range d.Chunks {
			uses[c.EmbedHash]++
		}
	}
	var changed, deleted *store.DocumentRecord
	for _, d := range docs {
		if changed == nil && len(d.Chunks) > 1 && annotated[d.Chunks[0].EmbedHash] && uses[d.Chunks[0].EmbedHash] == 1 {
			changed = d
			continue
		}
		if deleted == nil && annotated[d.Chunks[0].EmbedHash] && uses[d.Chunks[0].EmbedHash] == 1 {
			deleted = d
		}
	}
	if changed == nil || deleted == nil {
		t.Fatal("no note to change or delete")
	}
	nd := *changed
	nd.SHA256 = "changed"
	nd.Chunks = slices.Clone(changed.Chunks)
	nd.Chunks[0].Text += " (cambiado)"
	nd.Chunks[0].UID += "-new"
	nd.Chunks[0].EmbedHash = "changed-" + nd.Chunks[0].EmbedHash
	keptUIDs := map[string]string{}
	for _, c := range nd.Chunks[1:] {
		if text, ok := aw[c.UID]; ok {
			keptUIDs[c.UID] = text
		}
	}
	for _, as := range []store.DocumentWriter{wv, ix} {
		if err := as.ReplaceDocument(ctx, &nd); err != nil {
			t.Fatal(err)
		}
	}
	compare("after a text changed")
	now := annotationsByUID(t, wv, annP1)
	for uid, text := range keptUIDs {
		if now[uid] != text {
			t.Errorf("rewritten chunk %s lost its annotation %q (now %q)", uid, text, now[uid])
		}
	}
	pruned := func(step string) {
		t.Helper()
		nw, err := wv.PruneAnnotations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ns, err := ix.PruneAnnotations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if nw != ns || ns == 0 {
			t.Errorf("%s: PruneAnnotations: weaviate %d, SQLite %d", step, nw, ns)
		}
		compare(step)
	}
	pruned("pruned after a text changed")

	// A deleted note's annotations are pruned.
	for _, as := range []store.DocumentWriter{wv, ix} {
		if err := as.DeleteDocument(ctx, deleted.Root, deleted.Path); err != nil {
			t.Fatal(err)
		}
	}
	pruned("pruned after a note was deleted")

	// An ingest puts both notes back; their texts are pending again.
	for _, dw := range []store.DocumentWriter{wv, ix} {
		if res, err := ingest.Update(ctx, dw, root, cfg); err != nil || res.Indexed != 2 {
			t.Fatalf("re-ingest: %+v, %v", res, err)
		}
	}
	compare("after re-ingest")
	if n, err := wv.PruneAnnotations(ctx); err != nil || n != 0 {
		t.Errorf("PruneAnnotations after re-ingest: %d, %v", n, err)
	}
}
