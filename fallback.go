package oraculo

import (
	"context"
	"errors"
	"time"
)

// Why an answer is extractive although a chat model was asked to write
// it (see [Answer.Fallback]).
const (
	// FallbackTimeout: the model did not answer in time: its reply did
	// not start, went silent, or never finished, or the answer's own
	// deadline came first.
	FallbackTimeout = "timeout"
	// FallbackError: the model failed otherwise (an error answer, a
	// malformed reply, a lost connection).
	FallbackError = "error"
)

// fallbackReserve is the most of an answer's time Ask keeps for the
// extractive answer when the chat model does not answer in time.
const fallbackReserve = 5 * time.Second

// modelBudget returns the context in which the chat model reranks and
// writes an answer: ctx, ending earlier when ctx has a deadline (a
// quarter of the time left, fallbackReserve at most), so that the
// extractive answer still has time to run when the model takes all of its
// own.
func modelBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	reserve := min(time.Until(dl)/4, fallbackReserve)
	return context.WithDeadline(ctx, dl.Add(-reserve))
}

// fellBack records on a that the chat model failed with err, and that the
// answer is extracted from the notes instead: a warning naming the
// failure, and a notice for the reader that names nothing of the setup.
func (a *Answer) fellBack(e *Engine, err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		a.Fallback = FallbackTimeout
		a.warn(e, "the chat model did not answer in time (%v); answering from the notes' own sentences", err)
	} else {
		a.Fallback = FallbackError
		a.warn(e, "the chat model failed (%v); answering from the notes' own sentences", err)
	}
	a.Notice = FallbackNotice(a.Lang, a.Fallback)
}

// FallbackNotice is an answer's Notice when it fell back (why is
// FallbackTimeout or FallbackError), in lang ("es" or "en"): that the
// chat model did not write the answer, and that the notes' own sentences
// are shown instead.
func FallbackNotice(lang, why string) string {
	switch {
	case lang == "en" && why == FallbackTimeout:
		return "The model did not answer in time: this is the extractive answer, the notes' own sentences."
	case lang == "en":
		return "The model failed: this is the extractive answer, the notes' own sentences."
	case why == FallbackTimeout:
		return "El modelo no respondió a tiempo: esta es la respuesta extractiva, con frases de las propias notas."
	}
	return "El modelo falló: esta es la respuesta extractiva, con frases de las propias notas."
}
