package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/enrich"
)

// AnnotateReport says what an ingest did for annotations.
type AnnotateReport = enrich.AnnotateReport

// ingestAnnotations describes, with the chat model, every chunk that has
// no annotation yet for this model and prompt version (see
// [enrich.Annotate]); a server that cannot be reached is a warning, not an
// error.
func (e *Engine) ingestAnnotations(ctx context.Context, opts IngestOptions, rep *IngestReport) error {
	model := e.ChatModel()
	e.mu.Lock()
	cfg := e.chatCfg
	e.mu.Unlock()
	if err := e.saveChatConfig(ctx, cfg); err != nil {
		return err
	}
	lang := e.analyzer.Lang()
	aopts := enrich.AnnotateOptions{
		Prompt: e.annotationPrompt(),
		Messages: func(headings []string, text string) []chat.Message {
			return answer.ChatMessages(answer.AnnotationPrompt(lang, headings, text))
		},
		Workers: opts.AnnotateWorkers,
	}
	if opts.Progress != nil {
		aopts.Progress = func(done, total int) { opts.Progress(Progress{Stage: "annotate", Done: done, Total: total}) }
	}
	ar, err := enrich.Annotate(ctx, e.idx, model, aopts)
	rep.Annotate = ar
	if err != nil {
		return err
	}
	if w := ar.Warning(); w != "" {
		rep.Warnings = append(rep.Warnings, Problem{Reason: "annotate", Detail: w})
	}
	return nil
}
