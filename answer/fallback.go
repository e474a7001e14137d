package answer

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Why an answer is extractive although a chat model was asked to write
// it (see [Fallback]).
const (
	// FallbackTimeout: the model did not answer in time: its reply did
	// not start, went silent, or never finished, or the answer's own
	// deadline came first.
	FallbackTimeout = "timeout"
	// FallbackError: the model failed otherwise (an error answer, a
	// malformed reply, a lost connection).
	FallbackError = "error"
)

// fallbackReserve is the most of an answer's time kept for the extractive
// answer when the chat model does not answer in time.
const fallbackReserve = 5 * time.Second

// ModelBudget returns the context in which the chat model reranks and
// writes an answer: ctx, ending earlier when ctx has a deadline (a
// quarter of the time left, fallbackReserve at most), so that the
// extractive answer still has time to run when the model takes all of its
// own.
func ModelBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	reserve := min(time.Until(dl)/4, fallbackReserve)
	return context.WithDeadline(ctx, dl.Add(-reserve))
}

// Fallback is why an answer is extracted from the notes although a chat
// model was asked to write it, and what to say of it.
type Fallback struct {
	// Why is FallbackTimeout or FallbackError.
	Why string
	// Warning names the model's failure, for the logs and the answer's
	// warnings.
	Warning string
	// Notice says so to the reader, in the answer's language, naming
	// nothing of the setup (see [FallbackNotice]).
	Notice string
}

// FellBack is the [Fallback] of an answer in lang whose chat model failed
// with err: a timeout when err is a deadline's, an error otherwise.
func FellBack(err error, lang string) Fallback {
	f := Fallback{Why: FallbackError, Warning: fmt.Sprintf("the chat model failed (%v); answering from the notes' own sentences", err)}
	if errors.Is(err, context.DeadlineExceeded) {
		f.Why = FallbackTimeout
		f.Warning = fmt.Sprintf("the chat model did not answer in time (%v); answering from the notes' own sentences", err)
	}
	f.Notice = FallbackNotice(lang, f.Why)
	return f
}

// FallbackNotice is an answer's notice when it fell back (why is
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
