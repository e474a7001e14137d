package enrich

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/store"
)

// AnnotateReport says what an ingest did for annotations.
type AnnotateReport struct {
	Model string `json:"model"`
	// Annotated were described in this run; Cached already had an
	// annotation (unchanged chunks are never annotated twice).
	Annotated int `json:"annotated"`
	Cached    int `json:"cached"`
	// Failed got no usable reply; Pending are left for the next ingest.
	Failed  int    `json:"failed"`
	Pending int    `json:"pending"`
	Pruned  int64  `json:"pruned"`
	Error   string `json:"error,omitempty"`
}

// Warning says what a run left for the next one, for the ingest report;
// "" when it left nothing.
func (r *AnnotateReport) Warning() string {
	switch {
	case r.Error != "":
		return fmt.Sprintf("%s; %d chunks have no annotation yet: answers work, the reranker keeps the fused order, and the next ingest annotates them", r.Error, r.Pending)
	case r.Failed > 0:
		return fmt.Sprintf("%d chunks got no usable annotation; the next ingest tries them again", r.Failed)
	}
	return ""
}

// AnnotateOptions say how [Annotate] asks the model.
type AnnotateOptions struct {
	// Prompt is the annotations' version key (the prompt's version and
	// the notes' language): a new one annotates every chunk again.
	Prompt string
	// Messages is the request for one chunk, from its heading path and
	// text.
	Messages func(headings []string, text string) []chat.Message
	// Workers is how many chunks are annotated at once (default 2).
	Workers int
	// Progress, when set, is called before the first chunk and after
	// each, never twice at once.
	Progress func(done, total int)
}

// annotateTimeout bounds one annotation call.
const annotateTimeout = 90 * time.Second

// Annotate describes, with model, every chunk in s that has no annotation
// yet for this model and prompt, and first prunes the annotations no chunk
// uses. Each annotation is stored as it arrives, so an interrupted run
// resumes where it stopped. A model that cannot be reached, refuses the
// model or the credentials stops the run without an error: the report's
// Error says why and Pending what is left. The report is returned whenever
// it was begun, also with an error.
func Annotate(ctx context.Context, s store.AnnotationStore, model chat.Model, opts AnnotateOptions) (*AnnotateReport, error) {
	if opts.Messages == nil {
		return nil, errors.New("annotating: no prompt given")
	}
	ar := &AnnotateReport{Model: model.ID()}
	pruned, err := s.PruneAnnotations(ctx)
	if err != nil {
		return ar, err
	}
	ar.Pruned = pruned
	jobs, err := s.PendingAnnotations(ctx, model.ID(), opts.Prompt)
	if err != nil {
		return ar, err
	}
	counts, err := s.AnnotationCounts(ctx)
	if err != nil {
		return ar, err
	}
	ar.Cached = counts[model.ID()+" "+opts.Prompt]
	if len(jobs) == 0 {
		return ar, nil
	}
	r := &annotateRun{s: s, model: model, opts: opts, ar: ar, total: len(jobs)}
	return ar, r.all(ctx, jobs)
}

// annotateRun is one run of [Annotate] over pending chunks.
type annotateRun struct {
	s     store.AnnotationStore
	model chat.Model
	opts  AnnotateOptions
	total int

	mu      sync.Mutex // guards the fields below
	ar      *AnnotateReport
	done    int
	fatal   error // the model cannot answer: stop
	dbError error // an annotation could not be stored: stop and fail
}

// all annotates jobs on opts.Workers goroutines.
func (r *annotateRun) all(ctx context.Context, jobs []store.AnnotateJob) error {
	workers := r.opts.Workers
	if workers <= 0 {
		workers = 2
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan store.AnnotateJob)
	var wg sync.WaitGroup
	r.progress()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range next {
				r.one(ctx, runCtx, cancel, job)
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case next <- j:
		case <-runCtx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if r.dbError != nil {
		return r.dbError
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	r.ar.Pending = len(jobs) - r.ar.Annotated
	if r.fatal != nil {
		r.ar.Error = r.fatal.Error()
	}
	return nil
}

// one annotates one chunk and stores its annotation; runCtx ends the
// model's call, ctx the write, cancel the run.
func (r *annotateRun) one(ctx, runCtx context.Context, cancel context.CancelFunc, job store.AnnotateJob) {
	text, err := annotate(runCtx, r.model, r.opts.Messages(job.Headings, job.Text))
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case err == nil:
		if perr := r.s.PutAnnotation(ctx, r.model.ID(), r.opts.Prompt, job.Hash, text); perr != nil {
			r.dbError = perr
			cancel()
		} else {
			r.ar.Annotated++
		}
	case runCtx.Err() != nil:
	case errors.Is(err, chat.ErrUnreachable), errors.Is(err, chat.ErrModel), errors.Is(err, chat.ErrAuth):
		if r.fatal == nil {
			r.fatal = err
		}
		cancel()
	default:
		r.ar.Failed++
	}
	r.done++
	r.progress()
}

// progress reports how far the run is; r.mu is held or no worker runs.
func (r *annotateRun) progress() {
	if r.opts.Progress != nil {
		r.opts.Progress(r.done, r.total)
	}
}

// annotate asks the model for one chunk's annotation, on one line.
func annotate(ctx context.Context, model chat.Model, messages []chat.Message) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, annotateTimeout)
	defer cancel()
	text, err := model.Chat(ctx, chat.Request{Messages: messages, MaxTokens: 160}, nil)
	if err != nil {
		return "", err
	}
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return "", fmt.Errorf("%w: empty annotation", chat.ErrResponse)
	}
	return text, nil
}
