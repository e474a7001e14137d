package oraculo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/index"
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

// annotateTimeout bounds one annotation call.
const annotateTimeout = 90 * time.Second

// ingestAnnotations describes, with the chat model, every chunk that has
// no annotation yet for this model and prompt version. Each annotation is
// stored as it arrives, so an interrupted run resumes where it stopped; a
// server that cannot be reached is a warning, not an error.
func (e *Engine) ingestAnnotations(ctx context.Context, opts IngestOptions, rep *IngestReport) error {
	model := e.ChatModel()
	e.mu.Lock()
	cfg := e.chatCfg
	e.mu.Unlock()
	if err := e.saveChatConfig(ctx, cfg); err != nil {
		return err
	}
	ar := &AnnotateReport{Model: model.ID()}
	rep.Annotate = ar
	pruned, err := e.idx.PruneAnnotations(ctx)
	if err != nil {
		return err
	}
	ar.Pruned = pruned
	prompt := e.annotationPrompt()
	jobs, err := e.idx.PendingAnnotations(ctx, model.ID(), prompt)
	if err != nil {
		return err
	}
	counts, err := e.idx.AnnotationCounts(ctx)
	if err != nil {
		return err
	}
	ar.Cached = counts[model.ID()+" "+prompt]
	if len(jobs) == 0 {
		return nil
	}
	workers := opts.AnnotateWorkers
	if workers <= 0 {
		workers = 2
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu      sync.Mutex // guards ar, done, fatal and dbError
		done    int
		fatal   error
		dbError error
		next    = make(chan index.AnnotateJob)
		wg      sync.WaitGroup
	)
	report := func() {
		if opts.Progress != nil {
			opts.Progress(Progress{Stage: "annotate", Done: done, Total: len(jobs)})
		}
	}
	report()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range next {
				text, err := e.annotate(runCtx, model, job)
				mu.Lock()
				switch {
				case err == nil:
					if perr := e.idx.PutAnnotation(ctx, model.ID(), prompt, job.Hash, text); perr != nil {
						dbError = perr
						cancel()
					} else {
						ar.Annotated++
					}
				case runCtx.Err() != nil:
				case errors.Is(err, chat.ErrUnreachable), errors.Is(err, chat.ErrModel), errors.Is(err, chat.ErrAuth):
					if fatal == nil {
						fatal = err
					}
					cancel()
				default:
					ar.Failed++
				}
				done++
				report()
				mu.Unlock()
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
	if dbError != nil {
		return dbError
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	ar.Pending = len(jobs) - ar.Annotated
	if fatal != nil {
		ar.Error = fatal.Error()
		rep.Warnings = append(rep.Warnings, Problem{Reason: "annotate", Detail: fmt.Sprintf(
			"%v; %d chunks have no annotation yet: answers work, the reranker keeps the fused order, and the next ingest annotates them", fatal, ar.Pending)})
	} else if ar.Failed > 0 {
		rep.Warnings = append(rep.Warnings, Problem{Reason: "annotate", Detail: fmt.Sprintf(
			"%d chunks got no usable annotation; the next ingest tries them again", ar.Failed)})
	}
	return nil
}

// annotate asks the model for one chunk's annotation.
func (e *Engine) annotate(ctx context.Context, model chat.Model, job index.AnnotateJob) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, annotateTimeout)
	defer cancel()
	text, err := model.Chat(ctx, chat.Request{Messages: chatMessages(answer.AnnotationPrompt(e.analyzer.Lang(), job.Headings, job.Text)), MaxTokens: 160}, nil)
	if err != nil {
		return "", err
	}
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return "", fmt.Errorf("%w: empty annotation", chat.ErrResponse)
	}
	return text, nil
}
