package enrich

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/store"
)

// memAnnotations is an in-memory store.AnnotationStore over chunks given
// by id and text hash.
type memAnnotations struct {
	mu     sync.Mutex
	chunks map[int64]store.AnnotateJob
	// stored annotations, keyed "model prompt hash".
	stored map[string]string
	// putErr, when set, is what PutAnnotation returns.
	putErr error
}

var _ store.AnnotationStore = (*memAnnotations)(nil)

func newMemAnnotations(texts ...string) *memAnnotations {
	s := &memAnnotations{chunks: map[int64]store.AnnotateJob{}, stored: map[string]string{}}
	for i, t := range texts {
		s.chunks[int64(i+1)] = store.AnnotateJob{Hash: "h-" + t, Headings: []string{"Sesión 1"}, Text: t}
	}
	return s
}

func (s *memAnnotations) PendingAnnotations(ctx context.Context, model, prompt string) ([]store.AnnotateJob, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var jobs []store.AnnotateJob
	seen := map[string]bool{}
	for id := int64(1); id <= int64(len(s.chunks)); id++ {
		j := s.chunks[id]
		if _, done := s.stored[model+" "+prompt+" "+j.Hash]; !done && !seen[j.Hash] {
			seen[j.Hash] = true
			jobs = append(jobs, j)
		}
	}
	return jobs, nil
}

func (s *memAnnotations) PutAnnotation(ctx context.Context, model, prompt, hash, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.putErr != nil {
		return s.putErr
	}
	if text == "" {
		return fmt.Errorf("storing the annotation of %q: empty text", hash)
	}
	s.stored[model+" "+prompt+" "+hash] = text
	return nil
}

func (s *memAnnotations) Annotations(ctx context.Context, model, prompt string, ids []int64) (map[int64]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[int64]string{}
	for _, id := range ids {
		if text, ok := s.stored[model+" "+prompt+" "+s.chunks[id].Hash]; ok {
			out[id] = text
		}
	}
	return out, nil
}

func (s *memAnnotations) PruneAnnotations(ctx context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	used := map[string]bool{}
	for _, j := range s.chunks {
		used[j.Hash] = true
	}
	var n int64
	for k := range s.stored {
		if !used[k[strings.LastIndex(k, " ")+1:]] {
			delete(s.stored, k)
			n++
		}
	}
	return n, nil
}

func (s *memAnnotations) AnnotationCounts(ctx context.Context) (map[string]int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k := range s.stored {
		out[k[:strings.LastIndex(k, " ")]]++
	}
	return out, nil
}

// fakeModel answers with reply, given the call's number (from 1) and the
// chunk's text (the last message); like a real model, it does not call
// out once ctx has ended.
type fakeModel struct {
	calls atomic.Int32
	reply func(n int, text string) (string, error)
}

func (m *fakeModel) ID() string { return "fake/model" }

func (m *fakeModel) Chat(ctx context.Context, req chat.Request, onDelta func(string)) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	n := int(m.calls.Add(1))
	if req.MaxTokens == 0 {
		return "", fmt.Errorf("%w: no token cap", chat.ErrResponse)
	}
	return m.reply(n, req.Messages[len(req.Messages)-1].Content)
}

func testAnnotateOptions() AnnotateOptions {
	return AnnotateOptions{
		Prompt: "v1-es",
		Messages: func(headings []string, text string) []chat.Message {
			return []chat.Message{{Role: "system", Content: "Resume " + strings.Join(headings, " › ")}, {Role: "user", Content: text}}
		},
		Workers: 3,
	}
}

func TestAnnotate(t *testing.T) {
	ctx := context.Background()
	s := newMemAnnotations("uno", "dos", "tres", "dos", "cuatro")
	s.stored["fake/model v1-es h-uno"] = "ya anotado"
	s.stored["fake/model v1-es h-viejo"] = "de un chunk que ya no está"
	m := &fakeModel{reply: func(_ int, text string) (string, error) { return "  Trata de\n  " + text + "  ", nil }}
	opts := testAnnotateOptions()
	var mu sync.Mutex
	var progress [][2]int
	opts.Progress = func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		progress = append(progress, [2]int{done, total})
	}
	ar, err := Annotate(ctx, s, m, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := AnnotateReport{Model: "fake/model", Annotated: 3, Cached: 1, Pending: 0, Pruned: 1}
	if *ar != want || ar.Warning() != "" {
		t.Errorf("report %+v, want %+v", *ar, want)
	}
	if got := s.stored["fake/model v1-es h-dos"]; got != "Trata de dos" {
		t.Errorf("annotation %q, want it on one line", got)
	}
	if len(progress) != 4 || progress[0] != [2]int{0, 3} || progress[3] != [2]int{3, 3} {
		t.Errorf("progress %v", progress)
	}
	// Nothing left: no call.
	if ar, err = Annotate(ctx, s, m, testAnnotateOptions()); err != nil || ar.Cached != 4 || ar.Annotated != 0 || m.calls.Load() != 3 {
		t.Errorf("second run: %+v, %v, %d calls", ar, err, m.calls.Load())
	}
	if _, err := Annotate(ctx, s, m, AnnotateOptions{}); err == nil {
		t.Error("annotating without a prompt was accepted")
	}
}

// TestAnnotateModelDown: a model that cannot be reached stops the run
// without an error; what is left is pending and reported.
func TestAnnotateModelDown(t *testing.T) {
	s := newMemAnnotations("a", "b", "c", "d", "e")
	m := &fakeModel{reply: func(n int, text string) (string, error) {
		if n > 2 {
			return "", fmt.Errorf("%w: connection refused", chat.ErrUnreachable)
		}
		return "Nota " + text, nil
	}}
	opts := testAnnotateOptions()
	opts.Workers = 1
	ar, err := Annotate(context.Background(), s, m, opts)
	if err != nil {
		t.Fatal(err)
	}
	if ar.Annotated != 2 || ar.Pending != 3 || !strings.Contains(ar.Error, "connection refused") ||
		!strings.Contains(ar.Warning(), "3 chunks have no annotation yet") || m.calls.Load() != 3 {
		t.Errorf("report %+v, warning %q, %d calls", ar, ar.Warning(), m.calls.Load())
	}
}

// TestAnnotateFailures: an empty reply counts as failed and the run goes
// on; a store that cannot keep an annotation fails the run; a cancelled
// run says so.
func TestAnnotateFailures(t *testing.T) {
	empty := &fakeModel{reply: func(_ int, text string) (string, error) {
		if text == "b" {
			return " \n ", nil
		}
		return "Nota", nil
	}}
	ar, err := Annotate(context.Background(), newMemAnnotations("a", "b", "c"), empty, testAnnotateOptions())
	if err != nil || ar.Failed != 1 || ar.Annotated != 2 || ar.Pending != 1 || ar.Warning() != "1 chunks got no usable annotation; the next ingest tries them again" {
		t.Errorf("empty reply: %+v, %v", ar, err)
	}

	s := newMemAnnotations("a", "b", "c")
	s.putErr = errors.New("disk full")
	if _, err := Annotate(context.Background(), s, empty, testAnnotateOptions()); !errors.Is(err, s.putErr) {
		t.Errorf("store failing: %v, want %v", err, s.putErr)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelling := &fakeModel{reply: func(_ int, _ string) (string, error) {
		cancel()
		return "", context.Canceled
	}}
	if _, err := Annotate(ctx, newMemAnnotations("a", "b", "c"), cancelling, testAnnotateOptions()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
